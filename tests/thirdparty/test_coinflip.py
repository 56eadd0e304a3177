"""A sixth rule system from an installed package: it shows up in ``system`` and works, with no
change to gateway/ or adapters/ (RULINGS, the issue: "prove it with a tiny test plugin"); and it
tests itself with ``gateway.testing`` alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from gateway.testing import Chat
from tests.thirdparty.conftest import run_own_tests

ROOT = Path(__file__).resolve().parents[2]


def test_its_own_tests_pass_with_gateway_testing_alone(coinflip_site: Path, tmp_path: Path) -> None:
    done = run_own_tests("gw_coinflip", coinflip_site, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout, done.stdout


async def test_without_the_package_there_is_no_coinflip(chat: Chat) -> None:
    assert "coinflip" not in (await chat.one("system")).result["installed"]


def test_console_end_to_end_with_the_installed_package(coinflip_site: Path, tmp_path: Path) -> None:
    """``gateway console --system coinflip --json`` in a fresh process that finds the package."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(coinflip_site), str(ROOT)]),
        "GATEWAY_NO_VENV": "1",
        "GATEWAY_VAULT_URL": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}",
        "GATEWAY_DICE_SCRIPT": "2,2",
    }
    env.pop("GATEWAY_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "gateway", "console", "--as", "tess", "--system", "coinflip", "--json"],
        input="system\nflip 2\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert replies[0]["result"]["current"] == "coinflip"
    assert replies[1]["result"]["dice"] == [2, 2] and replies[1]["result"]["successes"] == 2


def test_the_core_and_adapters_never_mention_it() -> None:
    for folder in ("gateway", "adapters", "plugins"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "coinflip" not in path.read_text(encoding="utf-8"), path
    # The gateway's distribution neither registers nor requires it (mypy checks it as third-party code).
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "coinflip" not in json.dumps(project)
