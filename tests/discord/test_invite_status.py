"""Issue 14, Discord: ``gateway discord invite`` prints the OAuth2 link with the scopes and the
permissions the bot uses; ``gateway discord status`` names the token variable that is actually set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.discord import cli
from adapters.discord.config import TOKEN_ENV
from tests.discord.conftest import logging_now
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_cli import ThreadedFake, run, write_config

APP = "123456789012345678"


@pytest.fixture
def threaded_fake() -> Iterator[FakeDiscord]:
    with ThreadedFake() as fake:
        yield fake


@pytest.fixture(autouse=True)
def _no_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    for env in TOKEN_ENV:
        monkeypatch.delenv(env, raising=False)
    monkeypatch.delenv("GATEWAY_CONFIG", raising=False)


def test_invite_url_has_the_bot_and_commands_scopes_and_the_permissions() -> None:
    url = cli.invite_url(APP)
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "discord.com", "/oauth2/authorize")
    assert "scope=bot%20applications.commands" in parts.query  # as Discord's own links write it
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query["client_id"] == APP
    assert query["scope"].split() == ["bot", "applications.commands"]
    # View Channel 1<<10, Send Messages 1<<11, Embed Links 1<<14 (developers/topics/permissions.mdx)
    assert int(query["permissions"]) == (1 << 10) | (1 << 11) | (1 << 14) == 19456
    commands_only = {
        k: v[0] for k, v in parse_qs(urlsplit(cli.invite_url(APP, commands_only=True)).query).items()
    }
    assert commands_only == {"client_id": APP, "scope": "applications.commands", "integration_type": "0"}


def test_gateway_discord_invite_prints_it(
    tmp_path: Path, threaded_fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, threaded_fake)
    assert run(["--config", str(config), "discord", "invite"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == cli.invite_url(threaded_fake.application_id)
    assert lines[1] == (
        "scopes: bot, applications.commands; permissions: View Channel (1024), Send Messages (2048),"
        " Embed Links (16384)"
    )
    assert run(["--config", str(config), "discord", "invite", "--commands-only"]) == 0
    assert "scope=applications.commands&" in capsys.readouterr().out


def test_invite_without_an_application_id_says_what_to_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text(f'[vault]\nurl = "sqlite+aiosqlite:///{tmp_path / "v.db"}"\n')
    assert run(["--config", str(config), "discord", "invite"]) == 2
    assert capsys.readouterr().err.strip() == "Set [discord] application_id (the application's id) first."


@pytest.mark.parametrize(
    ("set_", "expected"),
    [
        ({}, "bot token: missing (set GATEWAY_DISCORD_BOT_TOKEN or DISCORD_BOT_TOKEN)"),
        ({"DISCORD_BOT_TOKEN": "t"}, "bot token: from $DISCORD_BOT_TOKEN"),
        ({"GATEWAY_DISCORD_BOT_TOKEN": "t"}, "bot token: from $GATEWAY_DISCORD_BOT_TOKEN"),
        (
            {"GATEWAY_DISCORD_BOT_TOKEN": "t", "DISCORD_BOT_TOKEN": "u"},
            "bot token: from $GATEWAY_DISCORD_BOT_TOKEN (DISCORD_BOT_TOKEN also set, not used)",
        ),
    ],
)
def test_status_names_the_token_variable_actually_set(
    tmp_path: Path,
    threaded_fake: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    set_: dict[str, str],
    expected: str,
) -> None:
    for name, value in set_.items():
        monkeypatch.setenv(name, value)
    config = write_config(tmp_path, threaded_fake)
    assert run(["--config", str(config), "discord", "status"]) == 0
    assert expected in capsys.readouterr().out.splitlines()


def test_status_names_the_setting_when_the_token_is_in_the_file(
    tmp_path: Path,
    threaded_fake: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "t")
    config = write_config(tmp_path, threaded_fake, bot_token="secret")
    assert run(["--config", str(config), "discord", "status"]) == 0
    out = capsys.readouterr().out
    assert "bot token: from [discord] bot_token" in out.splitlines()
    assert "secret" not in out


def test_the_cli_run_in_a_test_hands_logging_back(tmp_path: Path, threaded_fake: FakeDiscord) -> None:
    """The leak that reverted the first merge: ``run`` left structlog writing to this test's captured
    stderr, closed after it, so later tests' log lines raised and their gateways stopped half-way."""
    before = logging_now()
    assert run(["--config", str(write_config(tmp_path, threaded_fake)), "discord", "invite"]) == 0
    assert logging_now() == before
