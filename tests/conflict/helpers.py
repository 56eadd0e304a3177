"""Characters made straight in the vault, so the conflict tests do not depend on the creation UI."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from gateway.features.characters import name_key
from gateway.testing import Chat
from gateway.vault.models import Character, IdentityLink, OutboxRow, Person, Pool


async def make_character(
    chat: Chat,
    owner: str,
    name: str,
    *,
    platform: str = "console",
    channel: str = "main",
    physical: int = 1,
    mental: int = 1,
    social: int = 1,
    spirit: int = 1,
    willpower: int | None = None,
    essence: int = 10,
    damage: int = 0,
    soak: int = 0,
    powers: list[dict[str, Any]] | None = None,
) -> int:
    """An approved character owned by ``platform:owner``, made active; returns its id."""
    await chat.say("help", as_=owner, platform=platform, channel=channel)
    async with chat.services.vault.transaction() as session:
        link = await session.get(IdentityLink, f"{platform}:{owner}")
        assert link is not None
        person = await session.get(Person, link.person_id)
        assert person is not None
        sheet = {
            "fields": dict.fromkeys(("origin", "subgroup", "aptitude", "advantage", "weakness"), ""),
            "traits": {"physical": physical, "mental": mental, "social": social, "spirit": spirit},
            "powers": powers or [],
            "max": {},
        }
        if soak:
            sheet["soak"] = soak
        character = Character(
            owner_id=link.person_id,
            system="nightcap",
            name=name,
            name_key=name_key(name),
            status="approved",
            sheet=sheet,
        )
        session.add(character)
        await session.flush()
        assert character.id is not None
        wp_max = mental + spirit
        for pool, current, maximum in (
            ("willpower", wp_max if willpower is None else willpower, wp_max),
            ("essence", essence, 10),
            ("damage", damage, 10),
        ):
            session.add(Pool(character_id=character.id, name=pool, current=current, maximum=maximum))
        person.active_character_id = character.id
        session.add(person)
        return character.id


async def pool(chat: Chat, character_id: int, name: str) -> int:
    async with chat.services.vault.transaction() as session:
        row = await session.get(Pool, (character_id, name))
        assert row is not None
        return row.current


async def set_pool(chat: Chat, character_id: int, name: str, value: int) -> None:
    async with chat.services.vault.transaction() as session:
        row = await session.get(Pool, (character_id, name))
        assert row is not None
        row.current = value
        session.add(row)


async def outbox(chat: Chat, platform: str | None = None) -> list[OutboxRow]:
    """Pending outbox rows that are replies (not Storyteller-log copies), oldest first."""
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))
        rows = [r for r in found.all() if r.payload.get("kind") == "reply"]
    return [r for r in rows if platform is None or r.platform == platform]
