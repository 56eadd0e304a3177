"""What the conflict commands share in the vault: durable scene and key-value state, characters' damage
and who may act, who acts (``actor``), where a character plays. Building a side's pool is ``sides``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway import CommandContext, UserError
from gateway.features.characters import active_character, find_character, pools_of, take_character
from gateway.vault.models import Character, KeyValue, Pool, RollLog, SceneState
from plugins.nightcap import combat
from plugins.nightcap.acting import check_in_play, incapacitated_refusal
from plugins.nightcap.config import SYSTEM

DAMAGE = "damage"  # Pool row: current = levels of damage taken, maximum = the Health track's length
WILLPOWER = "willpower"
ESSENCE = "essence"


async def actor(ctx: CommandContext) -> tuple[Character | None, str, str]:
    """(active character or None, state key, display name): one extended or team action per
    character, or per person when they roll bare numbers without a character."""
    character = await active_character(ctx, SYSTEM)
    if character is not None:
        return character, f"c{character.id}", character.name
    return None, f"p{ctx.person.id}", ctx.name


# --- durable state ----------------------------------------------------------------------------


async def load_scene(session: AsyncSession, channel_key: str, kind: str) -> SceneState | None:
    """A channel's document of ``kind``, locked for this unit of work (PostgreSQL; SQLite serialises)."""
    found = await session.exec(
        select(SceneState)
        .where(
            col(SceneState.channel_key) == channel_key,
            col(SceneState.system) == SYSTEM,
            col(SceneState.kind) == kind,
        )
        .with_for_update()
    )
    return found.first()


async def save_scene(
    session: AsyncSession,
    row: SceneState | None,
    channel_key: str,
    kind: str,
    data: dict[str, Any],
    now: datetime,
) -> None:
    if row is None:
        row = SceneState(channel_key=channel_key, system=SYSTEM, kind=kind)
    row.data = data  # a new dict: JSON columns are not mutation-tracked
    row.updated_at = now
    session.add(row)
    await _flush_or_refuse(session)


async def kv_get(session: AsyncSession, scope: str, key: str) -> KeyValue | None:
    found = await session.exec(
        select(KeyValue).where(col(KeyValue.scope) == scope, col(KeyValue.key) == key).with_for_update()
    )
    return found.first()


async def kv_put(session: AsyncSession, scope: str, key: str, value: dict[str, Any], now: datetime) -> None:
    row = await kv_get(session, scope, key)
    if row is None:
        row = KeyValue(scope=scope, key=key)
    row.value = value
    row.updated_at = now
    session.add(row)
    await _flush_or_refuse(session)


async def _flush_or_refuse(session: AsyncSession) -> None:
    """Two commands creating the same row at once (PostgreSQL): the loser gets a clear refusal."""
    try:
        await session.flush()
    except IntegrityError as exc:
        raise UserError("Someone else changed this at the same moment; try again.", code="conflict") from exc


async def kv_claim(session: AsyncSession, scope: str, key: str) -> bool:
    """Delete one row if it is still there: True for exactly one of several racing claimants."""
    result = await session.exec(  # type: ignore[call-overload]
        delete(KeyValue).where(col(KeyValue.scope) == scope, col(KeyValue.key) == key)
    )
    return bool(result.rowcount == 1)


async def kv_scan(session: AsyncSession, scope: str) -> list[KeyValue]:
    found = await session.exec(
        select(KeyValue).where(col(KeyValue.scope) == scope).order_by(col(KeyValue.key))
    )
    return list(found.all())


# --- characters -------------------------------------------------------------------------------


async def damage_pool(session: AsyncSession, character: Character) -> Pool:
    """The character's damage pool (the Health track), created empty when the sheet has none yet."""
    assert character.id is not None
    pools = await pools_of(session, character.id)
    pool = pools.get(DAMAGE)
    if pool is None:
        pool = Pool(character_id=character.id, name=DAMAGE, current=0, maximum=combat.HEALTH_LEVELS)
        session.add(pool)
        await session.flush()
    return pool


async def health_of(session: AsyncSession, character: Character) -> tuple[int, int]:
    """(damage taken, levels on the track) for a character."""
    assert character.id is not None
    pool = (await pools_of(session, character.id)).get(DAMAGE)
    if pool is None:
        return 0, combat.HEALTH_LEVELS
    await session.refresh(pool)
    return pool.current, pool.maximum or combat.HEALTH_LEVELS


async def damage_of(session: AsyncSession, character: Character) -> int:
    return (await health_of(session, character))[0]


async def ensure_can_act(session: AsyncSession, character: Character, what: str, *, own: bool = True) -> int:
    """Refuse ``what`` for a sheet not approved or an Incapacitated character; return the damage they
    carry. ``own``: the caller's character acting (else the other side of a contest or an attack)."""
    check_in_play(character, what, own=own)
    damage, levels = await health_of(session, character)
    if combat.incapacitated(damage, levels):
        raise incapacitated_refusal(character.name, damage, levels)
    return damage


async def character_named(ctx: CommandContext, name: str) -> Character:
    character = await find_character(ctx.session, SYSTEM, name)
    if character is None:
        raise UserError(f"No Nightcap character called {name[:60]!r}.")
    return character


async def match_character_prefix(ctx: CommandContext, words: list[str]) -> tuple[Character | None, list[str]]:
    """The character named by the longest run of leading words, and the words after it."""
    found = await take_character(ctx.session, SYSTEM, words)
    return found if found is not None else (None, words)


async def last_channel(session: AsyncSession, character: Character) -> str | None:
    """Where a character (else their player) last rolled: the best guess at where they are playing."""
    for where in (col(RollLog.character_id) == character.id, col(RollLog.person_id) == character.owner_id):
        found = await session.exec(
            select(RollLog.channel_key)
            .where(where)
            .order_by(col(RollLog.created_at).desc(), col(RollLog.id).desc())
        )
        key = found.first()
        if key:
            return key
    return None


def split_channel(key: str) -> tuple[str, str]:
    platform, _, address = key.partition(":")
    return platform, address
