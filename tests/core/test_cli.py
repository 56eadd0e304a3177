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
