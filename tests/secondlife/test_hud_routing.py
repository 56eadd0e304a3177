"""The Storyteller HUD's Announce and Emote reach the Storyteller's own region (issue 19).

The book (*The ST HUD menu*): "Announce — A region-wide popup to every player wearing a Nightcap HUD.
Emote — Broadcasts a roleplay emote, either to local chat for an NPC or region-wide to all HUDs."
A HUD's command is answered to the HUD alone (it says the reply in local chat, 20 m), so the region
itself must get the broadcast through the outbox like every other channel of the chronicle.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import col, select

from gateway.vault.models import OutboxRow
from tests.secondlife.conftest import World
from tests.secondlife.harness import FakeObject, Hud, eventually, new_key

pytest.importorskip("plugins.nightcap.chargen", reason="needs the Nightcap character commands")

HOME = "Nightcap Sim"  # the Storyteller HUD's region (the harness's default)
FAR = "Far Shore"


async def relay_in(world: World, region: str) -> FakeObject:
    relay = Hud(
        world.url,
        owner_name="Land Owner",
        owner_key=new_key(),
        object_name="Nightcap Relay",
        region=f"{region} (256000, 256256)",
    )
    fake = await world.obj(relay)
    assert (await relay.register(fake.url, "relay")).status == 200
    return fake


async def queued(world: World, text: str) -> list[str]:
    """The addresses the command queued ``text`` for (the rows it wrote, before any fan-out)."""
    async with world.services.vault.transaction() as session:
        found = (await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))).all()
    return [
        r.target
        for r in found
        if r.payload.get("kind") in ("announce", "emote")
        and r.payload.get("text") == text
        and "via" not in r.payload
    ]


async def st_says(st: Hud, line: str) -> str:
    response = await st.command(line, body_max=16384)
    assert response.status == 200, response.text
    [reply] = response.json["replies"]
    assert not reply.get("error"), reply
    return str(reply["text"])


def heard(fake: FakeObject) -> list[tuple[Any, Any]]:
    return [(p.json["kind"], p.json["text"]) for p in fake.received]


async def setup(world: World) -> tuple[Hud, FakeObject, FakeObject]:
    home, far = await relay_in(world, HOME), await relay_in(world, FAR)
    # A player in the far region has used a HUD there: the vault knows that region's channel.
    player = world.hud("Dorian Gray", region=f"{FAR} (256256, 256000)")
    assert (await player.command("help")).status == 200
    st = world.st_hud()
    assert (await st.command("help")).status == 200
    return st, home, far


async def test_emote_and_announce_reach_the_storytellers_own_region(make_world) -> None:  # type: ignore[no-untyped-def]
    """Default settings: every region channel the vault has seen is a chronicle channel, the
    Storyteller's own included (before: only the other region's relay got it)."""
    world = await make_world()
    st, home, far = await setup(world)
    emote = "The lights flicker."
    await st_says(st, f"st emote {emote}")
    assert await queued(world, emote) == [f"region/{FAR}", f"region/{HOME}"]
    announce = await st_says(st, "st announce Doors close at midnight.")
    assert await queued(world, announce) == [f"region/{FAR}", f"region/{HOME}"]
    await eventually(lambda: len(home.received) == 2 and len(far.received) == 2)
    assert heard(home) == heard(far) == [("emote", emote), ("announce", announce)]


async def test_emote_here_goes_to_the_storytellers_region_only(make_world) -> None:  # type: ignore[no-untyped-def]
    """``st emote here`` (the HUD's Emote > Region HUDs): the region's HUDs, through its relay; before,
    it queued nothing at all."""
    world = await make_world()
    st, home, far = await setup(world)
    here = "A door creaks."
    assert await st_says(st, f"st emote here {here}") == here
    assert await queued(world, here) == [f"region/{HOME}"]
    await eventually(lambda: len(home.received) == 1)
    assert heard(home) == [("emote", here)]
    # Something for both, after: the far relay gets that and never the region emote.
    later = "Rain starts."
    await st_says(st, f"st emote {later}")
    await eventually(lambda: len(far.received) == 1 and len(home.received) == 2)
    assert heard(far) == [("emote", later)]


async def test_recommended_settings_give_each_region_one_copy(make_world) -> None:  # type: ignore[no-untyped-def]
    """``announce_targets = ["secondlife:everyone"]`` with ``secondlife`` skipped: one row for the
    grid (the Storyteller's region included, once), and ``here`` still reaches the region."""
    grid = {"announce_targets": ["secondlife:everyone"], "announce_skip_platforms": ["http", "secondlife"]}
    world = await make_world(nightcap=grid)
    st, home, far = await setup(world)
    announce = await st_says(st, "st announce The sirens stop.")
    assert await queued(world, announce) == ["everyone"]
    here = "A crow laughs."
    await st_says(st, f"st emote here {here}")
    assert await queued(world, here) == [f"region/{HOME}"]
    await eventually(lambda: len(home.received) == 2 and len(far.received) == 1)
    assert heard(home) == [("announce", announce), ("emote", here)]
    assert heard(far) == [("announce", announce)]
