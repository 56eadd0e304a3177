"""``gateway init`` writes a commented config that ``config check`` passes; ``gateway.example.toml``
is its output for every platform (issue 37)."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

from gateway.ops.config_check import check
from gateway.ops.init import PLATFORMS, SLT, Choices, configure_parser, parse_platforms, render, run_cli

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "gateway.example.toml"


def args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    return parser.parse_args(list(argv))


def test_the_example_passes_config_check_and_is_what_init_writes() -> None:
    report = check(EXAMPLE)
    assert report.ok, report.problems
    text = EXAMPLE.read_text()
    secret = tomllib.loads(text)["secondlife"]["shared_secret"]
    body = text.split("\n", 1)[1]  # its first line says it is an example
    assert body == render(Choices(PLATFORMS, SLT, secret=secret)).split("\n", 1)[1]


@pytest.mark.parametrize("platforms", ["none", "secondlife", "discord", "matrix", "irc", "all"])
def test_init_writes_a_file_config_check_passes(tmp_path: Path, platforms: str) -> None:
    out = tmp_path / "gateway.toml"
    assert run_cli(args("--platforms", platforms, "--out", str(out))) == 0
    assert check(out).ok, check(out).problems


def test_second_life_gets_a_fresh_secret_and_slt(tmp_path: Path) -> None:
    secrets = set()
    for name in ("a.toml", "b.toml"):
        assert run_cli(args("--platforms", "sl", "--out", str(tmp_path / name), "--timezone", "")) == 0
        data = tomllib.loads((tmp_path / name).read_text())
        secrets.add(data["secondlife"]["shared_secret"])
        assert data["gateway"]["timezone"] == SLT
    assert len(secrets) == 2 and all(len(s) >= 32 for s in secrets)


def test_irc_tls_on_for_a_network_off_for_this_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Europe/Prague")
    real, local = tmp_path / "real.toml", tmp_path / "local.toml"
    assert run_cli(args("--platforms", "irc", "--out", str(real))) == 0
    assert run_cli(args("--platforms", "irc", "--irc-host", "localhost", "--out", str(local))) == 0
    libera = tomllib.loads(real.read_text())
    assert libera["irc"]["libera"]["tls"] is True and libera["irc"]["libera"]["trust_nicks"] is False
    assert libera["gateway"]["timezone"] == "Europe/Prague"  # no Second Life: the machine's zone
    mine = tomllib.loads(local.read_text())["irc"]["local"]
    assert mine["tls"] is False and mine["trust_nicks"] is True
    assert re.search(r"^# .*trust_nicks|^# .*nicks at their word", local.read_text(), re.M)


def test_init_keeps_an_existing_file_and_names_bad_platforms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gateway.toml"
    out.write_text("# mine\n")
    assert run_cli(args("--platforms", "irc", "--out", str(out))) == 1
    assert out.read_text() == "# mine\n"
    assert "--force" in capsys.readouterr().err
    assert run_cli(args("--platforms", "irc,telegram", "--out", str(tmp_path / "x.toml"))) == 2
    assert "unknown platform 'telegram'" in capsys.readouterr().err
    assert parse_platforms("SL, irc") == ("secondlife", "irc")


def test_discord_is_written_for_gateway_mode_and_setup_fills_it_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adapters.discord.config import load
    from adapters.discord.setup import write_table

    out = tmp_path / "gateway.toml"
    assert run_cli(args("--platforms", "discord", "--out", str(out))) == 0
    assert f"gateway --config {out} discord setup" in capsys.readouterr().out
    discord = load(tomllib.loads(out.read_text())["discord"])
    assert discord.mode == "gateway" and discord.gateway_mode and discord.prefix == "!"
    assert discord.public_key is None and discord.channels == {} and discord.webhooks == {}
    # What `gateway discord setup` then writes lands in the same table, the comments kept.
    write_table(out, {"mode": "gateway", "application_id": "123456789012345678", "bot_token_file": "t"})
    text = out.read_text()
    assert len(re.findall(r"^mode = ", text, re.M)) == 1 and "# Endpoint mode instead" in text
    assert check(out).ok, check(out).problems


def test_the_storyteller_log_can_name_a_discord_channel(tmp_path: Path) -> None:
    out = tmp_path / "gateway.toml"
    assert run_cli(args("--platforms", "discord", "--out", str(out))) == 0
    text = out.read_text().replace('# stlog = "234567890123456789"', 'stlog = "234567890123456789"')
    out.write_text(text.replace('targets = ["console"]', 'targets = ["discord:stlog"]'))
    assert check(out).ok, check(out).problems
    data = tomllib.loads(out.read_text())
    assert data["discord"]["channels"] == {"stlog": "234567890123456789"}
    assert data["stlog"]["targets"] == ["discord:stlog"]
