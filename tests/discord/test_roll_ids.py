"""Roll ids on Discord: ``/verify`` finds a roll by an old five-letter id as by a new seven-letter one."""

from __future__ import annotations

import pytest

from gateway.core import commands
from tests.discord.conftest import DiscordEnv

pytestmark = pytest.mark.both_modes


async def verify(env: DiscordEnv, typed: str) -> str:
    answer = await env.command("verify", [{"name": "id", "type": 3, "value": typed}])
    return str(answer["data"]["content"])


async def test_verify_finds_old_and_new_ids(env: DiscordEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "new_public_id", lambda length=5: "k3f9m")
    env.dice.extend([9, 5, 10])
    old = await env.command("roll", [{"name": "pool", "type": 3, "value": "3"}])
    assert str(old["data"]["content"]).endswith("#k3f9m")
    monkeypatch.undo()
    env.dice.extend([9, 5, 10])
    new = str((await env.command("roll", [{"name": "pool", "type": 3, "value": "3"}]))["data"]["content"])
    new_id = new.rsplit("#", 1)[1]
    assert len(new_id) == 7
    # A leading # would be a Markdown heading: the adapter escapes it.
    assert (await verify(env, "#k3f9m")).startswith("\\#k3f9m: Mira")
    assert (await verify(env, new_id.upper())).startswith(f"\\#{new_id}: Mira")
