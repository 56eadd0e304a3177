"""The same cycle on every vault engine (SQLite always; PostgreSQL when GATEWAY_TEST_POSTGRES_URL is set):
creation, approval, play, Storyteller edits and queries, and a merge of two persons."""

from __future__ import annotations

from gateway.testing import Chat
from tests.nightcap.helpers import audit_rows, build, ok, pools, refused, stlog_rows


async def test_cycle_on_every_engine(any_chat: Chat) -> None:
    chat = any_chat
    await build(chat)
    await build(chat, "Dorian", "555", platform="discord", channel="table")
    chat.dice.extend([7, 7, 7, 10, 2, 7, 2])
    # The Storyteller log orders by time, so each step gets its own second.
    for line in ("roll physical wp", "power use ward", "damage 3", "heal 2", "checkin"):
        chat.clock.advance(seconds=1)
        await ok(chat, line)
    assert await refused(chat, "checkin") == (
        "Mira has already checked in today (2026-11-30, America/Los_Angeles); the next check-in opens at"
        " midnight America/Los_Angeles (2026-12-01 08:00 UTC), in 12 h 0 min."
    )
    chat.clock.advance(seconds=1)
    await ok(chat, "st trait Mira spirit 7", "ana", st=True)
    await ok(chat, "st pool Mira essence max 15", "ana", st=True)
    assert await pools(chat, "Mira") == {"willpower": (5, 10), "essence": (9, 15), "damage": (1, 10)}
    assert (await ok(chat, "st search ir_", "ana", st=True)).text == "Characters matching 'ir_' (0): none."
    found = await ok(chat, "st search IR", "ana", st=True)
    assert found.text == "Characters matching 'IR' (1): Mira (approved, Mira)."
    log = await ok(chat, "st log Mira --since 1h", "ana", st=True)
    assert log.result is not None
    kinds = [e["kind"] for e in log.result["entries"]]
    assert kinds == ["submit", "approve", "roll", "power", "damage", "heal", "checkin", "st_edit", "st_edit"]
    history = await ok(chat, "st history Mira", "ana", st=True)
    assert history.result is not None and history.result["entries"][-1]["action"] == "st.pool_max"

    code = (await ok(chat, "link", "mira")).result["code"]  # type: ignore[index]
    merged = await ok(chat, f"link {code}", "555", platform="discord", channel="table")
    assert merged.result is not None
    assert merged.result["characters"] == ["Mira", "Dorian"] and merged.result["active"] == "Mira"
    chat.dice.extend([8, 8, 8])
    assert (await ok(chat, "roll physical", "555", platform="discord", channel="table")).text.startswith(
        "Mira"
    )
    await ok(chat, "unlink discord", "mira")
    assert await refused(chat, "sheet", "555", platform="discord", channel="table") == (
        "You have no active character here: char new NAME makes one, char use NAME picks one."
    )
    assert len(await audit_rows(chat)) > 20 and len(await stlog_rows(chat)) > 10
