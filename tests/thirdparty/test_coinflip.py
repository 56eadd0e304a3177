"""A sixth rule system from an installed package: it shows up in ``system`` and works, with no
change to gateway/ or adapters/ (RULINGS, the issue: "prove it with a tiny test plugin")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.testing import start_chat

ROOT = Path(__file__).resolve().parents[2]


async def test_installed_plugin_appears_and_plays(
    coinflip_site: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.syspath_prepend(str(coinflip_site))
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}")
    try:
        listing = await chat.one("system")
        assert "coinflip" in listing.result["installed"]
        assert "coinflip (Coin Flip)" in listing.text
        switched = await chat.one("system coinflip", as_="st", st=True)
        assert switched.text == "This channel now plays Coin Flip."
        chat.dice.extend([2, 1, 2])
        reply = await chat.one("flip 3", as_="mira")
        assert reply.result["system"] == "coinflip" and reply.result["successes"] == 2
        assert reply.text == f"Mira flips 3: H T H → 2 heads #{reply.result['id']}"
        verified = await chat.one(f"verify {reply.result['id']}")
        assert verified.result["roll"]["dice"] == [2, 1, 2]
        assert "flip" in (await chat.one("help")).result["commands"]
    finally:
        await chat.gateway.stop()


async def test_without_the_package_there_is_no_coinflip(tmp_path: Path) -> None:
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}")
    try:
        assert "coinflip" not in (await chat.one("system")).result["installed"]
    finally:
        await chat.gateway.stop()


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
    assert "coinflip" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
