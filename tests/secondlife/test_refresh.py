"""Sheet refresh notices: a Storyteller's edit queues a refresh push to the player's HUD in the very
unit that made it (an in-unit ``SheetChanged`` subscription), so it is sent once, crash or not."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import col, select

from gateway import Gateway
from gateway.vault import repo
from gateway.vault.models import Character, IdentityLink, OutboxRow
from tests.secondlife.conftest import ST_KEY, World, sl_settings
from tests.secondlife.harness import FakeObject, Hud, eventually
from tests.secondlife.test_inbound import add_character


async def mira_with_hud(world: World) -> tuple[Hud, FakeObject]:
    mira = world.hud("Mira Vance")
    mira_obj = await world.obj(mira)
    await add_character(world, mira.owner_key, "Mira", "creation", traits={"physical": 3})
    assert (await mira.register(mira_obj.url, "player-hud")).json["state"]["mode"] == "chargen"
    await world.st_hud().command("", state=True)  # the Storyteller exists in the vault
    return mira, mira_obj


async def edit(world: World, actor_key: str, action: str = "st.approve", fail: bool = False) -> None:
    """What a command does to a sheet: change it and write the audit row, in one unit."""
    async with world.services.vault.transaction() as session:
        character = (await session.exec(select(Character))).one()
        actor = await session.get(IdentityLink, actor_key)
        character.status = "approved"
        session.add(character)
        await repo.audit(
            session,
            actor_id=actor.person_id if actor is not None else None,
            actor_key=actor_key,
            action=action,
            character_id=character.id,
            field_name="status",
            old="creation",
            new="approved",
            now=world.services.clock(),
        )
        if fail:
            raise RuntimeError("the command failed after its edit")


async def refresh_rows(world: World) -> list[dict[str, Any]]:
    async with world.services.vault.transaction() as session:
        found = await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))
        return [row.payload for row in found.all() if row.payload.get("kind") == "refresh"]


async def test_a_storyteller_edit_sends_a_refresh_notice_to_the_players_hud(world: World) -> None:
    _, mira_obj = await mira_with_hud(world)
    await edit(world, f"sl:{ST_KEY}")
    await eventually(lambda: len(mira_obj.received) == 1)
    body = mira_obj.received[0].json
    assert body["kind"] == "refresh"
    assert body["text"] == "Mira: a Storyteller changed your sheet (st.approve)."
    assert body["state"]["mode"] == "gameplay"
    assert body["state"]["char"] == "Mira"


async def test_the_notice_is_queued_with_the_edit_and_only_with_it(world: World) -> None:
    """Crash safety: the row is in the vault the moment the edit commits (a kill -9 after the commit
    leaves it to be sent), and a unit that rolls back queues nothing."""
    await world.services.outbox.stop()  # nothing is delivered: the vault alone shows what was queued
    await mira_with_hud(world)
    with pytest.raises(RuntimeError):
        await edit(world, f"sl:{ST_KEY}", fail=True)
    assert await refresh_rows(world) == []
    await edit(world, f"sl:{ST_KEY}")
    [row] = await refresh_rows(world)
    assert row["text"] == "Mira: a Storyteller changed your sheet (st.approve)."


async def test_the_owners_own_edit_sends_no_notice(world: World) -> None:
    mira, _ = await mira_with_hud(world)
    await edit(world, f"sl:{mira.owner_key}", action="nightcap.set")
    assert await refresh_rows(world) == []


async def test_an_st_command_that_edits_a_sheet_refreshes_the_hud(world: World) -> None:
    """Through the router, as the Storyteller's HUD sends it (no sniffing of the word ``st``)."""
    pytest.importorskip("plugins.nightcap.storyteller_commands")
    _, mira_obj = await mira_with_hud(world)
    answer = await world.st_hud().command('st approve "Mira" force')
    assert not answer.json["replies"][0].get("error"), answer.json
    await eventually(lambda: any(p.json["kind"] == "refresh" for p in mira_obj.received))
    [notice] = [p.json for p in mira_obj.received if p.json["kind"] == "refresh"]
    assert notice["text"] == "Mira: a Storyteller changed your sheet (st.approve)."


async def test_an_edit_in_a_process_that_runs_no_hud_adapter_still_refreshes_the_hud(world: World) -> None:
    """``gateway console`` beside ``gateway serve`` on one vault: the Storyteller edits there, and the
    notice is queued there (with the edit), for the serving process to send."""
    _, mira_obj = await mira_with_hud(world)
    console = Gateway(sl_settings(world.vault_url, **world.overrides), platforms=("console",))
    assert "secondlife" not in console.adapters
    try:

        class Elsewhere:
            services = console.services

        await edit(Elsewhere, f"sl:{ST_KEY}")  # type: ignore[arg-type]
        assert len(await refresh_rows(world)) == 1
        await eventually(lambda: len(mira_obj.received) == 1)
        assert mira_obj.received[0].json["kind"] == "refresh"
    finally:
        await console.services.vault.dispose()
