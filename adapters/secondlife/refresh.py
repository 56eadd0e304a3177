"""Sheet refresh notices: when someone other than its owner (a Storyteller) edits a character, the
owner's registered Player HUDs are told to reload.

An in-unit subscription to ``SheetChanged`` (``gateway.core.events``): the notice is an outbox row queued
in the very unit that changed the sheet, so it commits with the change or not at all. A crash right
after the commit loses nothing and repeats nothing, and with several gateway processes on one vault
only the process that ran the edit queues it (the outbox of whichever runs this adapter sends it).
"""

from __future__ import annotations

from adapters.secondlife import registry
from adapters.secondlife.common import IDENTITY_PLATFORM, Part
from adapters.secondlife.registry import PLATFORM
from gateway.core.events import SheetChanged
from gateway.delivery import queue
from gateway.features.characters import character_name
from gateway.features.identities import identity_keys


class Refresher(Part):
    def subscribe(self) -> None:
        self.services.vault.events.subscribe_in_unit(SheetChanged, self.sheet_changed)

    async def sheet_changed(self, unit: queue.Unit, event: SheetChanged) -> None:
        """In the editing unit: queue a refresh notice to each Player HUD the owner registered."""
        # A player's own edits answered their own HUD already; tell them about the others'.
        if event.owner_id is None or event.actor_id == event.owner_id:
            return
        session = unit.session
        name = await character_name(session, event.character_id)
        if name is None:
            return
        text = f"{name}: a Storyteller changed your sheet ({', '.join(sorted(event.actions))})."
        payload = {"kind": "refresh", "text": text, "char": name}
        now = self._now()
        for key in await identity_keys(session, event.owner_id, IDENTITY_PLATFORM):
            route = f"player-hud/{key.partition(':')[2]}"
            if await registry.get(session, route) is not None:
                await queue.enqueue(unit, PLATFORM, route, payload, now=now)
