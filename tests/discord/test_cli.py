"""``gateway discord register``, ``gateway discord status`` and ``gateway sync discord``."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from adapters.discord.cli import sync
from gateway.core.app import Gateway
from gateway.core.commands import Command, CommandContext
from gateway.core.hookspecs import hookimpl
from gateway.core.registry import RuleSystem
from gateway.core.settings import load_settings
from gateway.core.types import Invocation, Reply
from gateway.ops.cli import main
from gateway.ops.progress import Progress, duration
from gateway.vault import repo
from tests.discord.fake_discord import FakeDiscord, command_problems
from tests.discord.syncrun import NO_CAPS, sheet


class ThreadedFake:
    """The fake Discord on its own loop in a thread, so the CLI can run ``asyncio.run`` itself."""

    def __init__(self, **kw: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.fake = FakeDiscord(**kw)

    def __enter__(self) -> FakeDiscord:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(10)
        return self.fake

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.fake.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def threaded_fake() -> Iterator[FakeDiscord]:
    with ThreadedFake(webhook_window=0.05, channel_window=0.3) as fake:
        yield fake


def write_config(tmp_path: Path, fake: FakeDiscord, **discord: Any) -> Path:
    hooks = {"sheets": fake.add_webhook("201")}
    lines = [
        "[vault]",
        f'url = "sqlite+aiosqlite:///{tmp_path / "vault.db"}"',
        "[discord]",
        f'application_id = "{fake.application_id}"',
        f'api_base = "{fake.base_url}"',
        "reset_margin = 0.002",
    ]
    for key, value in discord.items():
        lines.append(f"{key} = {toml_value(value)}")
    lines.append("[discord.webhooks]")
    lines += [f'{name} = "{fake.webhook_url(h)}"' for name, h in hooks.items()]
    path = tmp_path / "gateway.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def run(argv: list[str]) -> int:
    """``gateway ARGV`` in this process. main() points logging at this test's captured stderr, which
    closes after the test: logging is handed back as it was, or every later log line (an outbox
    worker's, an adapter's stop) raises "I/O operation on closed file" and stops what logged it."""
    structlog_config = structlog.get_config()
    root_handlers = list(logging.getLogger().handlers)
    try:
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
    finally:
        structlog.configure(**structlog_config)
        logging.getLogger().handlers[:] = root_handlers
    return int(exit_info.value.code or 0)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # load_settings() records the config path in the environment; keep it from leaking between tests.
    monkeypatch.setenv("GATEWAY_CONFIG", "")
    monkeypatch.delenv("GATEWAY_CONFIG")
    for name in ("GATEWAY_DISCORD_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    yield


# --------------------------------------------------------------------------- register


def test_register_bulk_overwrites_idempotently(
    tmp_path: Path,
    threaded_fake: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = write_config(tmp_path, threaded_fake)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", threaded_fake.bot_token)
    assert run(["--config", str(config), "discord", "register", "--guild", "42"]) == 0
    first = [(c["name"], c["id"]) for c in threaded_fake.commands["42"]]
    stored = json.dumps(threaded_fake.commands["42"], sort_keys=True)
    assert run(["--config", str(config), "discord", "register", "--guild", "42"]) == 0
    assert [(c["name"], c["id"]) for c in threaded_fake.commands["42"]] == first
    assert json.dumps(threaded_fake.commands["42"], sort_keys=True) == stored  # generated alike twice
    assert threaded_fake.command_puts == 2
    out = capsys.readouterr().out
    assert out.count(f"Registered {len(first)} commands in server 42: /assist, /attack") == 2
    assert run(["--config", str(config), "discord", "register"]) == 0
    assert [c["name"] for c in threaded_fake.commands["global"]] == [n for n, _ in first]


def test_register_needs_a_token_and_says_where_to_put_it(
    tmp_path: Path, threaded_fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, threaded_fake)
    assert run(["--config", str(config), "discord", "register"]) == 2
    assert "GATEWAY_DISCORD_BOT_TOKEN or DISCORD_BOT_TOKEN" in capsys.readouterr().err
    assert threaded_fake.command_puts == 0
    wrong = write_config(tmp_path, threaded_fake, bot_token="not-the-token")
    assert run(["--config", str(wrong), "discord", "register"]) == 1
    assert "Discord refused the commands (401)" in capsys.readouterr().err


def test_register_dry_run_prints_valid_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["discord", "register", "--dry-run"]) == 0
    commands = json.loads(capsys.readouterr().out)
    assert command_problems(commands) == []


# --------------------------------------------------------------------------- status


def test_status_names_the_disabled_webhooks(
    tmp_path: Path, threaded_fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, threaded_fake)
    assert run(["--config", str(config), "discord", "status"]) == 0
    out = capsys.readouterr().out
    assert "webhook sheets: ok" in out
    assert "bot token: missing" in out
    assert "interactions endpoint: off (no public_key)" in out


def test_status_after_a_404(
    tmp_path: Path, threaded_fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, threaded_fake, **NO_CAPS)
    settings = load_settings(config)
    threaded_fake.delete(next(iter(threaded_fake.webhooks.values())))

    async def queue() -> None:
        gateway = Gateway(settings, platforms=())
        await gateway.upgrade_vault()
        async with gateway.services.vault.transaction() as session:
            await repo.enqueue(session, "discord", "sheets", sheet(0))
        await gateway.services.vault.dispose()

    asyncio.run(queue())
    out = io.StringIO()
    assert asyncio.run(sync(settings, name="op", pending_only=True, out=out, poll=0.05)) == 1
    assert out.getvalue().splitlines()[-1].endswith("(1 failed, 0 rate-limit answers).")
    assert run(["--config", str(config), "discord", "status"]) == 0
    assert "webhook sheets: DISABLED (answered 404)" in capsys.readouterr().out


# --------------------------------------------------------------------------- sync


class SyncPlugin:
    """Stands in for the characters work's ``st sync`` in a system of its own, so it never clashes."""

    def __init__(self, n: int) -> None:
        self.n = n

    @hookimpl
    def gateway_register_rule_systems(self, register: Callable[[RuleSystem], None]) -> None:
        register(RuleSystem(name="synctest", title="Sync test", dice="none"))

    @hookimpl
    def gateway_register_commands(self, register: Callable[[Command], None]) -> None:
        async def st_sync(ctx: CommandContext, inv: Invocation) -> Reply:
            for i in range(self.n):
                await ctx.enqueue("discord", "sheets", sheet(i))
            return Reply(text=f"Queued {self.n} approved sheets for Discord.")

        register(Command("st sync", st_sync, "sync", system="synctest", role="storyteller"))


def test_sync_discord_runs_st_sync_and_shows_progress(tmp_path: Path, threaded_fake: FakeDiscord) -> None:
    config = write_config(tmp_path, threaded_fake, **NO_CAPS)
    settings = load_settings(config, gateway={"default_system": "synctest"})
    out = io.StringIO()
    code = asyncio.run(
        sync(settings, name="op", pending_only=False, out=out, poll=0.05, extra_plugins=(SyncPlugin(40),))
    )
    text = out.getvalue()
    assert code == 0, text
    lines = text.splitlines()
    assert lines[0] == "Queued 40 approved sheets for Discord."
    assert any(line.startswith("[") and "/40 sheets" in line and "ETA" in line for line in lines)
    assert lines[-1].startswith("Sent 40 of 40 sheets to Discord in ")
    assert lines[-1].endswith("(0 failed, 0 rate-limit answers).")
    assert len(threaded_fake.received) == 40
    assert threaded_fake.rate_limited == 0


def test_sync_discord_pending_takes_what_is_queued(tmp_path: Path, threaded_fake: FakeDiscord) -> None:
    config = write_config(tmp_path, threaded_fake, **NO_CAPS)
    settings = load_settings(config)
    out = io.StringIO()
    assert asyncio.run(sync(settings, name="op", pending_only=True, out=out)) == 0
    assert out.getvalue() == "No sheet exports to send.\n"

    async def queue() -> None:
        gateway = Gateway(settings, platforms=())
        await gateway.upgrade_vault()
        async with gateway.services.vault.transaction() as session:
            for i in range(12):
                await repo.enqueue(session, "discord", "sheets", sheet(i))
            await repo.enqueue(session, "discord", "sheets", {"kind": "reply", "text": "not a sheet"})
        await gateway.services.vault.dispose()

    asyncio.run(queue())
    out = io.StringIO()
    assert asyncio.run(sync(settings, name="op", pending_only=True, out=out, poll=0.05)) == 0
    assert out.getvalue().splitlines()[-1].startswith("Sent 12 of 12 sheets to Discord in ")
    titles = [b["embeds"][0]["title"] for b in threaded_fake.bodies() if "embeds" in b]
    assert titles == [f"Character {i:03d}" for i in range(12)]


def test_progress_line_and_eta() -> None:
    now = [0.0]
    out = io.StringIO()
    bar = Progress(200, out, label="sheets", width=10, steady_rate=0.5, clock=lambda: now[0], tty=False)
    assert bar.line(0) == "[..........] 0/200 sheets   0% · 0s · ETA 6m40s"
    now[0] = 10.0
    # 30 sent in the first 10 s looks like 3/s; the limits say 0.5/s, so the ETA trusts the limits.
    assert bar.line(30) == "[##........] 30/200 sheets  15% · 10s · ETA 5m40s"
    assert bar.line(200, failed=1) == "[##########] 200/200 sheets 100% · 10s · ETA 0s · 1 failed"
    assert duration(3725) == "1h02m"


def test_plugin_subcommands_group_and_skip_clashes(capsys: pytest.CaptureFixture[str]) -> None:
    from gateway.core.registry import CliCommand
    from gateway.ops.cli import build_parser

    def ran(args: Any, settings: Any) -> int:
        return 0

    specs = [
        CliCommand("sync discord", "a", ran),
        CliCommand("sync matrix", "b", ran),
        CliCommand("serve", "clash with a built-in", ran),
        CliCommand("sync discord", "twice", ran),
        CliCommand("sync", "a word that is a group", ran),
        CliCommand("a b c", "three words", ran),
    ]
    parser = build_parser(specs)
    assert parser.parse_args(["sync", "matrix"]).plugin_command is specs[1]
    assert parser.parse_args(["sync", "discord"]).plugin_command is specs[0]
    assert capsys.readouterr().err.count("skipping plugin subcommand") == 4
