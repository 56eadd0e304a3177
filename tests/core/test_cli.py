"""The installed ``gateway`` command as a user runs it: console piped in, serve answering /healthz."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

GATEWAY = [sys.executable, "-m", "gateway"]


def run_console(tmp_path: Path, lines: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        **os.environ,
        "GATEWAY_VAULT_URL": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}",
        "GATEWAY_NO_VENV": "1",
        **env,
    }
    return subprocess.run(
        [*GATEWAY, "console", *args], input=lines, text=True, capture_output=True, env=environ, timeout=60
    )


def test_piped_console_prints_replies_and_exits_zero(tmp_path: Path) -> None:
    done = run_console(
        tmp_path, "roll 3\nnonsense here\nroll 1\n", "--as", "mira", GATEWAY_DICE_SCRIPT="9,5,10,7"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("mira rolls 3 dice: 9 5 10 → 3 (Solid) #")
    assert lines[1] == "Unknown command 'nonsense'. Type help for the list."
    assert lines[2].startswith("mira rolls 1 die: 7 → 1 (Marginal) #")


def test_json_console_one_object_per_reply(tmp_path: Path) -> None:
    done = run_console(tmp_path, "roll 3\nroll 99\n", "--json", GATEWAY_DICE_SCRIPT="9,5,10")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert set(first) == {"text", "private", "error", "result"}
    assert first["error"] is None and first["result"]["degree"] == "solid"
    assert second["error"] == "invalid" and second["result"] is None


def test_dice_script_exhaustion_is_reported(tmp_path: Path) -> None:
    done = run_console(tmp_path, "roll 3\n", GATEWAY_DICE_SCRIPT="9")
    assert done.returncode == 0
    assert "run out of faces" in done.stdout


def test_console_as_storyteller_changes_system(tmp_path: Path) -> None:
    done = run_console(tmp_path, "system nightcap\n", "--st")
    assert done.stdout.strip() == "This channel now plays Nightcap."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_healthz_and_api(tmp_path: Path) -> None:
    port = _free_port()
    config = tmp_path / "gateway.toml"
    config.write_text('[http.tokens]\nhud = "s3cret-token"\n[dice]\nscript = "9,5,10"\n')
    environ = {**os.environ, "GATEWAY_NO_VENV": "1", "GATEWAY_LOG_FORMAT": "json"}
    proc = subprocess.Popen(
        [*GATEWAY, "--config", str(config), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                    status = resp.status
                    break
            except OSError:
                time.sleep(0.2)
        assert status == 200
        assert (tmp_path / "vault.db").exists()

        def post(token: str | None) -> tuple[int, dict | str]:
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/v1/command",
                data=json.dumps({"text": "roll 3"}).encode(),
                headers={
                    "Content-Type": "application/json",
                    **({"Authorization": f"Bearer {token}"} if token else {}),
                },
            )
            try:
                with urllib.request.urlopen(req, timeout=5) as resp:
                    return resp.status, json.loads(resp.read())
            except urllib.error.HTTPError as err:
                return err.code, err.read().decode()

        assert post(None)[0] == 401
        assert post("wrong")[0] == 401
        code, body = post("s3cret-token")
        assert code == 200
        assert isinstance(body, dict)
        assert body["replies"][0]["result"]["dice"] == [9, 5, 10]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert "s3cret-token" not in out  # no secrets in logs
    assert any(
        json.loads(line).get("event") == "gateway started"
        for line in out.splitlines()
        if line.startswith("{")
    )


# --- issue 15: --version, and every subcommand's help ends with examples ---------------------------


def test_version_is_the_package_version() -> None:
    import tomllib

    import gateway

    repo = Path(__file__).resolve().parents[2]
    environ = {**os.environ, "GATEWAY_NO_VENV": "1", "PYTHONPATH": str(repo)}
    done = subprocess.run([*GATEWAY, "--version"], capture_output=True, text=True, env=environ, timeout=60)
    assert done.returncode == 0
    assert done.stdout == f"gateway {gateway.__version__}\n"
    pyproject = tomllib.loads((repo / "pyproject.toml").read_text())
    assert gateway.__version__ == pyproject["project"]["version"]


def test_every_subcommand_help_ends_with_examples() -> None:
    import contextlib
    import io

    import pytest

    from gateway.ops.cli import build_parser, plugin_cli_commands, walk_parsers

    parser = build_parser(plugin_cli_commands())
    walked = [words for words, _ in walk_parsers(parser)]
    for words in [(), *walked]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
            parser.parse_args([*words, "--help"])
        assert done.value.code == 0, words
        _, _, tail = out.getvalue().rpartition("Examples:\n")
        assert tail, f"gateway {' '.join(words)} --help has no examples"
        lines = tail.splitlines()
        assert lines and all(line.startswith("  gateway ") or "gateway " in line for line in lines), words
    assert {("serve",), ("db", "copy"), ("config", "check"), ("console",), ("discord", "register")} <= set(
        walked
    )


def test_plugin_subcommand_examples_come_from_its_arguments() -> None:
    from gateway.core.registry import CliCommand
    from gateway.ops.cli import build_parser, walk_parsers

    def configure(parser: object) -> None:
        parser.add_argument("name", metavar="NAME")  # type: ignore[attr-defined]
        parser.add_argument("--dry-run", action="store_true")  # type: ignore[attr-defined]

    spec = CliCommand("coin flip", "flip a coin", lambda args, settings: 0, configure)
    flip = dict(walk_parsers(build_parser([spec])))[("coin", "flip")]
    assert flip.epilog == "Examples:\n  gateway coin flip NAME\n  gateway coin flip NAME --dry-run"
