"""One person across platforms: ``link``, ``link CODE``, ``unlink PLATFORM``.

``link`` answers privately with a one-time code (8 characters, valid ``[link] code_ttl_minutes``, 10 by
default); ``link CODE`` said by another identity joins that identity's person into the code's person:
identities, characters, the active character, the Storyteller role and the history all follow.
``unlink PLATFORM`` (or ``unlink PLATFORM:ID``) splits one identity off into a person of its own; the
characters stay with the rest.

Rate limits (settings ``[link]``): at most ``codes_per_hour`` (5) codes per person per rolling hour, and
at most ``failures_per_hour`` (10) wrong, used or expired codes per identity per rolling hour; past
that, ``link CODE`` is refused without looking the code up. A new code cancels the identity's earlier
unused ones. Codes come from a 31-letter alphabet, 31^8 ≈ 8.5e11 possibilities.

The limits are counted from vault rows, so they hold whichever gateway process serves the request. On
PostgreSQL two requests at once (through two processes) would both count before either commits: each
request first locks the row it is counted against (the person for codes, the identity for failures),
so they take turns. On SQLite the unit of work already holds the vault's write lock.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import col, delete, select, update

from gateway.core.commands import ID_ALPHABET, Command, CommandContext
from gateway.core.core_messages import say
from gateway.core.core_params import PARAMS
from gateway.core.errors import UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.types import Invocation, Reply
from gateway.features.macros import store as macro_store
from gateway.vault.models import (
    Audit,
    Character,
    IdentityLink,
    KeyValue,
    LinkCode,
    Person,
    RollLog,
    StlogEntry,
)

CODE_LENGTH = 8
FAILURES = "link.failures"
WINDOW = timedelta(hours=1)


def new_code() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(CODE_LENGTH))


def _minutes(delta: timedelta) -> int:
    return max(1, -(-int(delta.total_seconds()) // 60))


async def link_command(ctx: CommandContext, inv: Invocation) -> Reply:
    code = inv.args.get("code")  # the router bound one word at most
    return await _issue(ctx) if code is None else await _redeem(ctx, code)


async def _take_turn(ctx: CommandContext, column: Any, value: object) -> None:
    """Hold the row lock of the person or identity the limit counts against, until commit."""
    await ctx.session.exec(select(column).where(column == value).with_for_update())


async def _issue(ctx: CommandContext) -> Reply:
    settings = ctx.settings.link
    now = ctx.now
    await _take_turn(ctx, col(Person.id), ctx.person.id)
    recent = (
        await ctx.session.exec(
            select(LinkCode.created_at)
            .where(col(LinkCode.person_id) == ctx.person.id, col(LinkCode.created_at) > now - WINDOW)
            .order_by(col(LinkCode.created_at))
        )
    ).all()
    if len(recent) >= settings.codes_per_hour:
        opens = recent[0] + WINDOW
        raise UserError(say(ctx.locale, "link.too_many_codes", n=len(recent), minutes=_minutes(opens - now)))
    await ctx.session.exec(
        update(LinkCode)  # type: ignore[call-overload]
        .where(col(LinkCode.identity_key) == ctx.identity.key, col(LinkCode.used).is_(False))
        .values(used=True)
    )
    code = new_code()
    while await ctx.session.get(LinkCode, code) is not None:  # pragma: no cover - 1 in 10^11
        code = new_code()
    expires = now + timedelta(minutes=settings.code_ttl_minutes)
    assert ctx.person.id is not None
    ctx.session.add(
        LinkCode(
            code=code,
            person_id=ctx.person.id,
            identity_key=ctx.identity.key,
            expires_at=expires,
            created_at=now,
        )
    )
    return Reply(
        text=say(
            ctx.locale, "link.code", code=code, ttl=settings.code_ttl_minutes, identity=ctx.identity.key
        ),
        private=True,
        result={"kind": "link_code", "code": code, "expires": expires.isoformat()},
    )


async def _failures(ctx: CommandContext) -> tuple[KeyValue, list[datetime]]:
    row = await ctx.session.get(KeyValue, (FAILURES, ctx.identity.key))
    if row is None:
        row = KeyValue(scope=FAILURES, key=ctx.identity.key, value={"at": []}, updated_at=ctx.now)
    times = [datetime.fromisoformat(t) for t in row.value.get("at", [])]
    return row, [t for t in times if t > ctx.now - WINDOW]


async def _refuse(ctx: CommandContext, row: KeyValue, recent: list[datetime], text: str) -> Reply:
    """A failed redemption is recorded (so it counts toward the limit): the reply carries the error
    instead of raising, because raising would roll the record back."""
    row.value = {"at": [t.isoformat() for t in [*recent, ctx.now]]}
    row.updated_at = ctx.now
    ctx.session.add(row)
    return Reply(text=text, private=True, error="invalid")


async def _redeem(ctx: CommandContext, word: str) -> Reply:
    await _take_turn(ctx, col(IdentityLink.key), ctx.identity.key)
    row, recent = await _failures(ctx)
    limit = ctx.settings.link.failures_per_hour
    if len(recent) >= limit:
        wait = _minutes(min(recent) + WINDOW - ctx.now)
        raise UserError(say(ctx.locale, "link.too_many_failures", limit=limit, minutes=wait))
    code = await ctx.session.get(LinkCode, word.strip().casefold())
    if code is None:
        return await _refuse(ctx, row, recent, say(ctx.locale, "link.no_code", code=word[:20]))
    if code.used:
        return await _refuse(ctx, row, recent, say(ctx.locale, "link.used"))
    if code.expires_at <= ctx.now:
        ago = _minutes(ctx.now - code.expires_at)
        return await _refuse(ctx, row, recent, say(ctx.locale, "link.expired", ago=ago))
    code.used = True
    ctx.session.add(code)
    if code.person_id == ctx.person.id:
        return Reply(
            text=say(ctx.locale, "link.already", a=ctx.identity.key, b=code.identity_key),
            private=True,
            result={"kind": "link", "identities": [code.identity_key, ctx.identity.key]},
        )
    survivor = await ctx.session.get(Person, code.person_id)
    if survivor is None:
        return await _refuse(ctx, row, recent, say(ctx.locale, "link.gone"))
    await merge_persons(ctx, survivor, ctx.person)
    identities = (
        await ctx.session.exec(
            select(IdentityLink.key)
            .where(col(IdentityLink.person_id) == survivor.id)
            .order_by(col(IdentityLink.key))
        )
    ).all()
    names = (
        await ctx.session.exec(
            select(Character.name).where(col(Character.owner_id) == survivor.id).order_by(col(Character.id))
        )
    ).all()
    active = (
        await ctx.session.get(Character, survivor.active_character_id)
        if survivor.active_character_id
        else None
    )
    await ctx.audit("link", field_name=ctx.identity.key, new=code.identity_key)
    return Reply(
        text=say(
            ctx.locale,
            "link.done",
            identities=", ".join(identities),
            names=", ".join(names) or say(ctx.locale, "link.no_characters"),
            active=active.name if active else say(ctx.locale, "link.no_active"),
            storyteller=say(ctx.locale, "link.storyteller") if survivor.storyteller else "",
        ),
        private=True,
        result={
            "kind": "link",
            "identities": list(identities),
            "characters": list(names),
            "active": active.name if active else None,
            "storyteller": survivor.storyteller,
        },
    )


async def merge_persons(ctx: CommandContext, survivor: Person, merged: Person) -> None:
    """Move everything of ``merged`` to ``survivor`` and delete ``merged``.

    Identities, characters, link codes and the history rows (roll log, Storyteller log, audit) move; the
    survivor keeps its active character (else takes the other's), its locale (else the other's), and is a
    Storyteller if either was.
    """
    session = ctx.session
    old, new = merged.id, survivor.id
    assert old is not None and new is not None
    moves: list[tuple[Any, Any]] = [
        (IdentityLink, IdentityLink.person_id),
        (Character, Character.owner_id),
        (LinkCode, LinkCode.person_id),
        (RollLog, RollLog.person_id),
        (StlogEntry, StlogEntry.person_id),
        (Audit, Audit.actor_id),
    ]
    for model, column in moves:
        await session.exec(update(model).where(col(column) == old).values({column: new}))  # type: ignore[call-overload]
    await macro_store.merge(session, old, new)  # macros are keyed by person, as "person:<id>"
    survivor.storyteller = survivor.storyteller or merged.storyteller
    survivor.active_character_id = survivor.active_character_id or merged.active_character_id
    survivor.locale = survivor.locale or merged.locale
    session.add(survivor)
    await session.flush()
    await session.exec(delete(Person).where(col(Person.id) == old))  # type: ignore[call-overload]
    session.expunge(merged)
    ctx.sender.move_to(survivor)


async def unlink_command(ctx: CommandContext, inv: Invocation) -> Reply:
    word = str(inv.args["identity"]).strip()
    mine = list(
        (
            await ctx.session.exec(
                select(IdentityLink)
                .where(col(IdentityLink.person_id) == ctx.person.id)
                .order_by(col(IdentityLink.key))
            )
        ).all()
    )
    folded = word.casefold()
    if ":" in word:
        platform, _, ident = word.partition(":")
        matches = [i for i in mine if i.key == f"{platform.casefold()}:{ident}"]
    else:
        matches = [i for i in mine if i.platform == folded]
    if not matches:
        raise UserError(
            say(ctx.locale, "unlink.none", platform=word[:40], mine=", ".join(i.key for i in mine))
        )
    if len(matches) > 1:
        keys = ", ".join(i.key for i in matches)
        raise UserError(say(ctx.locale, "unlink.many", n=len(matches), platform=word[:40], keys=keys))
    if len(mine) == 1:
        raise UserError(say(ctx.locale, "unlink.only", key=matches[0].key))
    target = matches[0]
    person = Person(display_name=target.display_name, locale=ctx.person.locale)
    ctx.session.add(person)
    await ctx.session.flush()
    target.person_id = person.id  # type: ignore[assignment]
    ctx.session.add(target)
    await ctx.audit("unlink", field_name=target.key, old=ctx.person.id, new=person.id)
    return Reply(
        text=say(
            ctx.locale, "unlink.done", key=target.key, rest=", ".join(i.key for i in mine if i is not target)
        ),
        private=True,
        result={"kind": "unlink", "identity": target.key},
    )


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "link",
            link_command,
            "join your identities on several platforms into one person",
            "link | link CODE",
            params=PARAMS["link"],
            private=True,
            texts={
                "cs": ("propojí vaše identity z několika platforem v jednu osobu", "link | link KÓD"),
                "ru": (
                    "объединить ваши учётные записи с разных платформ в одного человека",
                    "link | link КОД",
                ),
            },
        )
    )
    register(
        Command(
            "unlink",
            unlink_command,
            "split one platform's identity off your person",
            "unlink PLATFORM | unlink PLATFORM:ID",
            params=PARAMS["unlink"],
            private=True,
            texts={
                "cs": (
                    "odpojí identitu jedné platformy od vaší osoby",
                    "unlink PLATFORMA | unlink PLATFORMA:ID",
                ),
                "ru": ("отвязать учётную запись одной платформы", "unlink ПЛАТФОРМА | unlink ПЛАТФОРМА:ID"),
            },
        )
    )
