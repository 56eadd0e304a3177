"""``gateway discord setup`` against the fake Discord (bot routes of fake_gateway.py)."""

from __future__ import annotations

import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from adapters.discord.config import load
from adapters.discord.setup import GATEWAY_MESSAGE_CONTENT_LIMITED, write_table
from tests.discord.fake_gateway import FakeDiscordBot
from tests.discord.test_cli import ThreadedFake, _clean_env, run, write_config  # noqa: F401


class ThreadedBot(ThreadedFake):
    def __init__(self, **kw: Any) -> None:
        super().__init__()
        self.fake = FakeDiscordBot(**kw)


@pytest.fixture
def bot() -> Iterator[FakeDiscordBot]:
    with ThreadedBot() as fake:
        assert isinstance(fake, FakeDiscordBot)
        yield fake


def test_setup_from_a_token_file_to_a_working_config(
    tmp_path: Path, bot: FakeDiscordBot, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, bot)
    secret = tmp_path / "from-the-portal.txt"
    secret.write_text(bot.bot_token + "\n")
    assert (
        run(["--config", str(config), "discord", "setup", "--token-file", str(secret), "--guild", "42"]) == 0
    )
    captured = capsys.readouterr()
    assert bot.bot_token not in captured.out + captured.err  # never echoed
    table = tomllib.loads(config.read_text())["discord"]
    assert table["mode"] == "gateway" and table["application_id"] == bot.application_id
    assert table["prefix"] == "!"
    assert "webhooks" in table  # the rest of the table is left as it was
    token_file = Path(table["bot_token_file"])
    assert token_file.read_text().strip() == bot.bot_token
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert bot.bot_token not in config.read_text()
    settings = load(table)
    assert settings.gateway_mode and settings.token() == bot.bot_token
    assert "roll" in [c["name"] for c in bot.commands["42"]]  # registered in the guild
    link = next(line.strip() for line in captured.out.splitlines() if "oauth2/authorize" in line)
    query = parse_qs(urlparse(link).query)
    assert query["client_id"] == [bot.application_id]
    assert query["scope"] == ["bot applications.commands"]
    assert query["permissions"] == [str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16))]
    # The portal has Message Content off: the line says where to switch it on.
    assert "Message Content is OFF" in captured.out
    assert f"applications/{bot.application_id}/bot" in captured.out


def test_setup_with_the_intent_on_and_the_token_in_the_environment(
    tmp_path: Path, bot: FakeDiscordBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bot.application_flags = GATEWAY_MESSAGE_CONTENT_LIMITED
    config = write_config(tmp_path, bot)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", bot.bot_token)
    assert run(["--config", str(config), "discord", "setup", "--no-register"]) == 0
    out = capsys.readouterr().out
    assert "Message Content is on" in out
    table = tomllib.loads(config.read_text())["discord"]
    assert "bot_token_file" not in table  # the environment holds it; nothing written
    assert bot.command_puts == 0


def test_a_refused_token_says_what_to_do_and_writes_nothing(
    tmp_path: Path, bot: FakeDiscordBot, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, bot)
    before = config.read_text()
    secret = tmp_path / "token.txt"
    wrong = "MTAwMDAwMDAwMDAwMDAwMDAy.GwRong.not-the-token-discord-knows-0123456789"
    secret.write_text(wrong)
    assert run(["--config", str(config), "discord", "setup", "--token-file", str(secret)]) == 1
    captured = capsys.readouterr()
    assert "Discord refused this token (401)" in captured.err
    assert wrong not in captured.out + captured.err
    assert config.read_text() == before
    assert not (tmp_path / "discord-token").exists()


def test_write_table_adds_the_table_and_keeps_other_lines(tmp_path: Path) -> None:
    path = tmp_path / "gateway.toml"
    path.write_text('# mine\n[vault]\nurl = "sqlite+aiosqlite:///v.db"\n')
    write_table(path, {"mode": "gateway", "application_id": "1"})
    write_table(path, {"application_id": "2"})
    text = path.read_text()
    assert text.startswith('# mine\n[vault]\nurl = "sqlite+aiosqlite:///v.db"\n')
    assert tomllib.loads(text)["discord"] == {"mode": "gateway", "application_id": "2"}


class Terminal:
    def isatty(self) -> bool:
        return True


def test_setup_asks_for_the_token_without_echo(
    tmp_path: Path, bot: FakeDiscordBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, bot)
    asked: list[str] = []

    def hidden(prompt: str) -> str:
        asked.append(prompt)
        return bot.bot_token

    monkeypatch.setattr("adapters.discord.setup.getpass.getpass", hidden)
    monkeypatch.setattr("adapters.discord.setup.sys.stdin", Terminal())
    assert run(["--config", str(config), "discord", "setup", "--no-register", "--no-prefix"]) == 0
    captured = capsys.readouterr()
    assert asked and "Reset Token" in asked[0]
    assert bot.bot_token not in captured.out + captured.err
    table = tomllib.loads(config.read_text())["discord"]
    assert "prefix" not in table and Path(table["bot_token_file"]).read_text().strip() == bot.bot_token
    assert "none privileged needed" in captured.out


def test_no_token_and_no_terminal_says_where_to_put_one(
    tmp_path: Path, bot: FakeDiscordBot, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, bot)
    assert run(["--config", str(config), "discord", "setup"]) == 1
    assert "DISCORD_BOT_TOKEN" in capsys.readouterr().err
