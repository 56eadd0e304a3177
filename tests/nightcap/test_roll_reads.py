"""What a character's roll reads: the damage pool once (an Incapacitated character takes no more
actions, and the same read gives the wound penalty when the chronicle counts wounds), nothing for a
bare number, and Willpower only to spend it (``roll ... wp``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from gateway.testing import Chat, start_chat
from gateway.vault.models import Character
from tests.conflict.helpers import make_character
from tests.nightcap.helpers import pools, statements

POOL_READ = re.compile(r'\b(?:FROM|JOIN)\s+"?pool"?(?:\s|$)', re.IGNORECASE)
POOL_WRITE = re.compile(r'\bUPDATE\s+"?pool"?\s', re.IGNORECASE)


def matching(pattern: re.Pattern[str]) -> Callable[[list[str]], list[str]]:
    return lambda seen: [s for s in seen if pattern.search(s)]


reads, writes = matching(POOL_READ), matching(POOL_WRITE)


async def wounded_mira(vault_url: str, wound_penalties: bool) -> Chat:
    """Mira, Physical 3, with 4 damage: -1 when the chronicle counts wounds."""
    chat = await start_chat(vault_url, nightcap={"wound_penalties": wound_penalties})
    await make_character(chat, "mira", "Mira", physical=3, mental=2, spirit=2, damage=4)
    return chat


async def test_wound_penalties_off_read_the_damage_once(vault_url: str) -> None:
    chat = await wounded_mira(vault_url, wound_penalties=False)
    try:
        for command, faces, pool in (("roll physical", [9, 5, 1], 3), ("roll physical +1", [9, 5, 1, 2], 4)):
            chat.dice.extend(faces)
            async with statements(chat) as seen:
                reply = await chat.one(command, as_="mira")
            assert reply.error is None and reply.result is not None, reply.text
            assert reply.result["pool"] == pool and "wound_penalty" not in reply.result
            assert len(reads(seen)) == 1 and writes(seen) == [], seen
        # Willpower is a write, the other statement on pools; the spend is there afterwards.
        chat.dice.extend([9, 5, 1])
        async with statements(chat) as seen:
            reply = await chat.one("roll physical wp", as_="mira")
        assert reply.error is None and reply.result is not None, reply.text
        assert reply.result["willpower"] is True
        assert len(reads(seen)) == 1 and len(writes(seen)) == 1, seen
        assert (await pools(chat, "Mira"))["willpower"] == (3, 4)
    finally:
        await chat.gateway.stop()


async def test_wound_penalties_on_read_the_damage_once(vault_url: str) -> None:
    chat = await wounded_mira(vault_url, wound_penalties=True)
    try:
        chat.dice.extend([9, 5])
        async with statements(chat) as seen:
            reply = await chat.one("roll physical", as_="mira")
        r = reply.result
        assert r is not None and (r["pool"], r["wound_penalty"], r["dice"]) == (2, -1, [9, 5]), reply.text
        assert reply.text == f"Mira rolls Physical 3 (wounds -1) = 2 dice: 9 5 → 1 (Marginal) #{r['id']}"
        assert len(reads(seen)) == 1 and writes(seen) == [], seen
        chat.dice.extend([9, 5, 10])
        async with statements(chat) as seen:
            reply = await chat.one("roll physical +1 wp", as_="mira")
        r = reply.result
        assert r is not None and (r["pool"], r["wound_penalty"], r["willpower"]) == (3, -1, True), reply.text
        assert len(reads(seen)) == 1 and len(writes(seen)) == 1, seen
        # A bare number takes no penalty, so its roll reads no pool.
        chat.dice.extend([9, 5, 1])
        async with statements(chat) as seen:
            reply = await chat.one("roll 3", as_="mira")
        assert reply.result is not None and reply.result["pool"] == 3 and "wound_penalty" not in reply.result
        assert reads(seen) == [] and writes(seen) == [], seen
    finally:
        await chat.gateway.stop()


async def test_an_active_character_of_another_system_is_not_the_roller(vault_url: str) -> None:
    """The prepared read of the active character keeps ``active_character``'s rule: another system's
    character does not roll Nightcap traits, and a bare roll goes under the caller's own name."""
    chat = await start_chat(vault_url)
    try:
        character_id = await make_character(chat, "mira", "Zed", physical=3)
        async with chat.services.vault.transaction() as session:
            character = await session.get(Character, character_id)
            assert character is not None
            character.system = "dramatic"
        reply = await chat.one("roll physical", as_="mira")
        assert reply.error is not None and "you have no active character" in reply.text
        chat.dice.extend([9, 5, 1])
        reply = await chat.one("roll 3", as_="mira")
        assert reply.result is not None and reply.result["who"] == "Mira", reply.text
    finally:
        await chat.gateway.stop()
