"""The ``gateway`` command starts at once: no plugin imported before it is needed, no traceback when
the reader of its output goes away (issue 37; issue 30 item 7)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Runs gateway.ops.cli.main with ARGV and prints the heavy modules it imported (one per line).
PROBE = """
import sys
from gateway.ops.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("plugins.", "adapters.", "sqlmodel", "sqlalchemy", "alembic", "gateway.vault", "aiohttp")
sys.stdout.flush()
print("\\n".join(sorted({m.split(".")[0] + "." + m.split(".")[1] if "." in m else m
                        for m in sys.modules if m.startswith(heavy)})), file=sys.stderr)
"""


def environ() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATEWAY_")}
    return {**env, "GATEWAY_NO_VENV": "1", "PYTHONPATH": str(REPO)}


def imported(tmp_path: Path, *argv: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=tmp_path,
        env=environ(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [line for line in done.stderr.splitlines() if line and " " not in line]


@pytest.mark.parametrize(
    "argv",
    [("--version",), ("--help",), ("config", "check"), ("config", "check", "gateway.toml"), ("plugins",)],
)
def test_quick_commands_import_no_plugin(tmp_path: Path, argv: tuple[str, ...]) -> None:
    (tmp_path / "gateway.toml").write_text("[http]\nport = 9000\n[gateway]\ntimezone = 'Europe/Prague'\n")
    assert imported(tmp_path, *argv) == []


def test_status_reads_a_sqlite_vault_without_sqlalchemy_or_plugins(tmp_path: Path) -> None:
    made = subprocess.run(
        [sys.executable, "-m", "gateway", "db", "upgrade"], cwd=tmp_path, env=environ(), capture_output=True
    )
    assert made.returncode == 0, made.stderr
    assert imported(tmp_path, "status") == []


CONSOLE_PROBE = """
import sys
from gateway.ops.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
heavy = ("adapters.", "alembic", "mautrix", "aiohttp", "jinja2", "lark")
print("\\n".join(sorted(m for m in sys.modules if m.startswith(heavy))), file=sys.stderr)
"""


WEB_COMMANDS = {"adapters.web", "adapters.web.commands", "adapters.web.config"}


def console_once(tmp_path: Path, line: str) -> tuple[str, set[str]]:
    """``gateway console`` with ``line`` piped in: what it printed, and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_PROBE, "console", "--as", "mira"],
        cwd=tmp_path,
        env=environ(),
        input=line + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout, {m for m in done.stderr.splitlines() if m and " " not in m}


def test_the_console_imports_only_the_adapters_it_needs(tmp_path: Path) -> None:
    first, _ = console_once(tmp_path, "roll 1")  # the first start makes the vault (Alembic)
    assert "rolls 1 die" in first, first
    said, loaded = console_once(tmp_path, "roll 2")
    assert "rolls 2" in said, said
    adapters = {m.split(".")[1] for m in loaded if m.startswith("adapters.")}
    # The console itself, and web_account's commands (they bring the web package): no other adapter.
    assert adapters <= {"console", "web"}, adapters
    # ... and of the web package only the commands' module and its settings: registering `web` and
    # `web logout` brings no web server (aiohttp) nor templates (Jinja2), nor does the console.
    assert {m for m in loaded if m.startswith("adapters.web")} <= WEB_COMMANDS, loaded
    assert not {m for m in loaded if m.startswith(("aiohttp", "jinja2"))}, loaded
    assert not {m for m in loaded if m.startswith("lark")}, loaded  # no dice notation in `roll 2`
    assert not {m for m in loaded if m.startswith(("alembic", "mautrix"))}  # a current vault: no upgrade
    # A configured adapter is loaded: it may act in every process (Second Life's refresh notices).
    (tmp_path / "gateway.toml").write_text("[secondlife]\nshared_secret = 'x'\n")
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_PROBE, "--config", "gateway.toml", "console", "--as", "mira"],
        cwd=tmp_path,
        env=environ(),
        input="roll 1\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "adapters.secondlife" in done.stderr.splitlines(), done.stderr[-2000:]


def test_a_plugin_word_imports_only_its_plugin(tmp_path: Path) -> None:
    loaded = imported(tmp_path, "discord", "--help")
    assert "adapters.discord" in loaded
    assert not [m for m in loaded if m.startswith("plugins.") or m in ("adapters.irc", "adapters.matrix")]


def test_help_lists_plugin_words_unloaded(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gateway", "--help"],
        cwd=tmp_path,
        env=environ(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    words = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("    ")]
    assert {"serve", "config", "console", "discord", "sync"} <= set(words)


@pytest.mark.parametrize("argv", [("--help",), ("config", "check", "gateway.toml"), ("serve", "--help")])
def test_a_closed_pipe_is_no_traceback(tmp_path: Path, argv: tuple[str, ...]) -> None:
    # `gateway ... | head -1` once head has gone: the read end is closed before the first write.
    (tmp_path / "gateway.toml").write_text("[gateway]\n" + "".join(f"max_pol{i} = 3\n" for i in range(50)))
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gateway", *argv],
            cwd=tmp_path,
            env=environ(),
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    # argparse's own help swallows the error (exit 0); everything else exits as a shell would say.
    assert done.returncode == (0 if argv[-1] == "--help" else 141)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_the_default_time_zone_is_the_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    from gateway.core.settings import GatewaySection, machine_timezone

    monkeypatch.setenv("TZ", "Europe/Prague")
    assert GatewaySection().timezone == "Europe/Prague"
    monkeypatch.setenv("TZ", ":Asia/Tokyo")
    assert machine_timezone() == "Asia/Tokyo"
    monkeypatch.setenv("TZ", "Not/A_Zone")  # then the system's files, else UTC: never a bad name
    from zoneinfo import ZoneInfo

    assert ZoneInfo(machine_timezone())


def test_gateway_test_spreads_the_whole_suite_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from gateway.ops.cli import test_workers

    monkeypatch.delenv("GATEWAY_TEST_WORKERS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert test_workers([]) == 2
    assert test_workers(["-x", "-q", "-k", "console"]) == 2  # -k's value is no path
    assert test_workers(["tests/core/test_cli.py"]) == 0  # a few tests: workers cost more than they save
    assert test_workers(["-n", "4"]) == 0 and test_workers(["-p", "no:xdist"]) == 0
    assert test_workers(["--version"]) == 0
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert test_workers([]) == 0
    monkeypatch.setenv("GATEWAY_TEST_WORKERS", "3")
    assert test_workers(["tests/core"]) == 3


def test_skips_are_summed_up_by_reason(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text(
        "import pytest\n"
        "@pytest.mark.skip(reason='no PostgreSQL')\ndef test_a(): pass\n"
        "@pytest.mark.skip(reason='no PostgreSQL')\ndef test_b(): pass\n"
        "@pytest.mark.skip(reason='no chromium')\ndef test_c(): pass\n"
    )
    (tmp_path / "conftest.py").write_text((REPO / "tests" / "conftest.py").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=environ(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = done.stdout.split("skipped, by reason", 1)[1].splitlines()
    assert "    2  no PostgreSQL" in summary and "    1  no chromium" in summary


def test_serve_says_where_it_is(tmp_path: Path) -> None:
    from tests.core.test_cli import _free_port

    port = _free_port()
    (tmp_path / "gateway.toml").write_text("[irc.libera]\nhost = 'irc.libera.chat'\nenabled = false\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "--config", "gateway.toml", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=environ(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    block: list[str] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.startswith("Nightcap Gateway ") or block:
                block.append(line.rstrip("\n"))
            if line.startswith("  log "):
                break
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert block[0].startswith("Nightcap Gateway ") and block[0].endswith(" is up"), block
    shown = {line.split()[0]: line for line in block[1:]}
    assert f"http://127.0.0.1:{port}" in shown["http"]
    assert shown["web"].split()[1] == f"http://127.0.0.1:{port}/"
    assert "sqlite+aiosqlite:///vault.db" in shown["vault"]
    assert "off (its [irc] table" in shown["irc"] and "off (no [discord] table" in shown["discord"]
    assert "America/Los_Angeles" in shown["time"]  # TZ, pinned by the suite: the machine's zone


def test_log_lines_follow_stderr_as_the_prompt_replaces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import structlog

    from gateway.ops.logging import configure_logging

    configure_logging("json", "info")
    above_prompt = io.StringIO()  # what prompt_toolkit's patch_stdout puts in sys.stderr's place
    monkeypatch.setattr(sys, "stderr", above_prompt)
    structlog.get_logger("t").info("lease acquired")
    assert '"event": "lease acquired"' in above_prompt.getvalue()


def test_idle_adapters_are_read_from_the_entry_points() -> None:
    from gateway.core.plugins import idle_adapters

    configured = {"secondlife"}
    idle = idle_adapters(["console", "irc"], configured.__contains__)
    # served (irc) or configured (secondlife) adapters load; rule systems and commands always do
    assert sorted(idle) == ["discord", "http", "matrix", "web"]
    assert idle_adapters(["http", "secondlife", "matrix", "irc", "discord", "web"], lambda _: False) == []
