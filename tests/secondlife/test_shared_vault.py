"""Two gateway processes on one vault (PostgreSQL in production), and restarts: start-up races,
replays to the other process and replays after a restart."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.secondlife.conftest import ST_KEY, World, table_counts
from tests.secondlife.harness import Hud, eventually
from tests.secondlife.test_refresh import edit, mira_with_hud, refresh_rows


@pytest.fixture
async def pair(vault_url: str, tmp_path: Path) -> AsyncIterator[tuple[World, World]]:
    """Two gateways sharing one vault, each on its own port."""
    first, second = World(vault_url, tmp_path), World(vault_url, tmp_path)
    await first.start()
    await second.start()
    yield first, second
    await second.close()
    await first.close()


async def test_a_storyteller_edit_is_refreshed_once_with_two_processes(pair: tuple[World, World]) -> None:
    """Both processes subscribe to sheet changes; only the one that ran the edit queues the notice
    (in the edit's own unit), so the HUD hears of it once, whichever process delivers it."""
    first, second = pair
    _, mira_obj = await mira_with_hud(first)
    await edit(second, f"sl:{ST_KEY}")
    await eventually(lambda: len(mira_obj.received) == 1)
    assert len(await refresh_rows(first)) == 1  # one vault: every notice either process queued
    assert [p.json["kind"] for p in mira_obj.received] == ["refresh"]


async def test_two_processes_register_one_route_at_once(pair: tuple[World, World]) -> None:
    """The same HUD's registration reaching both processes at once (two requests, two signatures)."""
    first, second = pair
    hud_a = first.hud("Mira Vance")
    hud_b = second.hud("Mira Vance", owner_key=hud_a.owner_key)
    hud_b.object_key = hud_a.object_key
    hud_b.sent = 100  # another nonce: another signature
    fake = await first.obj(hud_a)
    answers = await asyncio.gather(
        hud_a.register(fake.url, "player-hud"), hud_b.register(fake.url, "player-hud")
    )
    assert [a.status for a in answers] == [200, 200], [a.text for a in answers]


def _twin(hud: Hud, world: World) -> Hud:
    """The same in-world object talking to another gateway process."""
    return Hud(world.url, owner_name=hud.owner_name, owner_key=hud.owner_key, object_key=hud.object_key)


STATE_ONLY = json.dumps({"text": "", "state": True}).encode()
ROLL = json.dumps({"text": "roll 3"}).encode()


async def test_a_state_request_replayed_after_a_restart_is_refused(world: World) -> None:
    """D8: state-only requests were remembered only in memory."""
    hud = world.hud("Mira Vance")
    headers = hud.signed_headers(STATE_ONLY, "application/json")
    assert (await hud.post("/sl/v1/command", STATE_ONLY, headers)).status == 200
    await world.restart()
    hud.base_url = world.url
    again = await hud.post("/sl/v1/command", STATE_ONLY, headers)
    assert (again.status, again.text) == (401, "replayed signature")


async def test_a_command_replayed_after_a_restart_is_refused(world: World) -> None:
    hud = world.hud("Mira Vance")
    world.dice.extend([9, 5, 10])
    headers = hud.signed_headers(ROLL, "application/json")
    assert (await hud.post("/sl/v1/command", ROLL, headers)).status == 200
    await world.restart()
    hud.base_url = world.url
    world.dice.extend([1, 1, 1])
    again = await hud.post("/sl/v1/command", ROLL, headers)
    assert (again.status, again.text) == (401, "replayed signature")
    assert world.dice.remaining == 3


@pytest.mark.parametrize("kind", ["register", "state", "command", "failed command"])
async def test_a_request_replayed_to_the_other_process_is_refused(
    pair: tuple[World, World], kind: str
) -> None:
    """D9: a registration replayed to the other process registered again; every kind is refused."""
    first, second = pair
    hud = first.hud("Mira Vance")
    fake = await first.obj(hud)
    path, body = "/sl/v1/command", ROLL
    if kind == "register":
        path, body = "/sl/v1/register", json.dumps({"url": fake.url, "role": "player-hud"}).encode()
    elif kind == "state":
        body = STATE_ONLY
    elif kind == "failed command":
        body = json.dumps({"text": "no-such-command"}).encode()
    first.dice.extend([9, 5, 10])
    second.dice.extend([1, 1, 1])
    headers = hud.signed_headers(body, "application/json")
    answer = await hud.post(path, body, headers)
    assert answer.status == 200, answer.text
    before = await table_counts(second)
    again = await _twin(hud, second).post(path, body, headers)
    assert (again.status, again.text) == (401, "replayed signature")
    assert await table_counts(second) == before
    assert second.dice.remaining == 3


async def test_a_replay_racing_the_original_on_the_other_process_is_refused(
    pair: tuple[World, World],
) -> None:
    """Both copies at once: exactly one runs, whichever process gets it."""
    first, second = pair
    hud = first.hud("Mira Vance")
    first.dice.extend([9, 5, 10])
    second.dice.extend([9, 5, 10])
    headers = hud.signed_headers(ROLL, "application/json")
    answers = await asyncio.gather(
        hud.post("/sl/v1/command", ROLL, headers), _twin(hud, second).post("/sl/v1/command", ROLL, headers)
    )
    assert sorted(a.status for a in answers) == [200, 401]
    assert first.dice.remaining + second.dice.remaining == 3
