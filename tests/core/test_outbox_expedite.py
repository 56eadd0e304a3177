"""A target that answers again while one of its rows is being delivered: the wait the old target
asked for is over, so the row goes out at once (a Second Life HUD that registered anew while the
push to its old URL was answering 404)."""

from __future__ import annotations

import asyncio

from gateway import Adapter, Outbound, TargetAbsent
from gateway.delivery.outbox import expedite
from gateway.testing import eventually, start_chat


class Reattaching(Adapter):
    """The first delivery waits until the test lets it go, then says the target is gone for ten
    minutes; later deliveries succeed."""

    platform = "hud"

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.delivered: list[Outbound] = []
        self.calls = 0

    async def deliver(self, message: Outbound) -> None:
        self.calls += 1
        if self.calls == 1:
            self.started.set()
            await self.release.wait()
            raise TargetAbsent("the old URL answered 404", 600.0)
        self.delivered.append(message)


async def _deliveries(vault_url: str, *, expedite_meanwhile: bool) -> Reattaching:
    hud = Reattaching()
    chat = await start_chat(vault_url, adapters=[hud], stlog={"targets": ["hud:player-hud/mira"]})
    try:
        chat.dice.extend([9, 5])
        await chat.one("roll 2", as_="mira")
        await asyncio.wait_for(hud.started.wait(), 30)
        chat.clock.advance(seconds=1)  # the registration comes after the claim
        if expedite_meanwhile:
            async with chat.services.vault.unit() as unit:
                assert await expedite(unit, "hud", ["player-hud/mira"], chat.clock()) == 1
        hud.release.set()
        if expedite_meanwhile:
            await eventually(lambda: len(hud.delivered) == 1)
        else:
            await asyncio.sleep(0.5)  # time enough for a row that were wrongly due to go out
        return hud
    finally:
        await chat.stop()


async def test_a_row_expedited_while_it_is_delivered_goes_out_at_once(vault_url: str) -> None:
    hud = await _deliveries(vault_url, expedite_meanwhile=True)
    assert hud.calls == 2 and [m.target for m in hud.delivered] == ["player-hud/mira"]


async def test_without_the_expedite_the_row_waits_as_it_was_told(vault_url: str) -> None:
    hud = await _deliveries(vault_url, expedite_meanwhile=False)
    assert (hud.calls, hud.delivered) == (1, [])
