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

from gateway.commands import ID_ALPHABET, Command, CommandContext
from gateway.errors import UserError
from gateway.hookspecs import hookimpl
from gateway.types import Invocation, Reply
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
    if not inv.words:
        return await _issue(ctx)
    if len(inv.words) != 1:
        raise UserError("Write link to get a code, or link CODE with the code from your other platform.")
    return await _redeem(ctx, inv.words[0])


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
        raise UserError(
            f"You have asked for {len(recent)} link codes in the last hour; the next can be made in"
            f" {_minutes(opens - now)} min."
        )
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
        text=(
            f"Your link code is {code}. On your other platform, type link {code} within"
            f" {settings.code_ttl_minutes} minutes; it works once, and joins that identity to this one"
            f" ({ctx.identity.key}) with all your characters."
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
        raise UserError(
            f"Too many wrong link codes from this identity ({limit} in an hour); try again in {wait} min."
        )
    code = await ctx.session.get(LinkCode, word.strip().casefold())
    if code is None:
        return await _refuse(
            ctx,
            row,
            recent,
            f"No link code {word[:20]!r}: check it, or type link on your other platform for a new one.",
        )
    if code.used:
        return await _refuse(
            ctx,
            row,
            recent,
            "That link code has been used already; type link on your other platform for a new one.",
        )
    if code.expires_at <= ctx.now:
        ago = _minutes(ctx.now - code.expires_at)
        return await _refuse(
            ctx,
            row,
            recent,
            f"That link code expired {ago} min ago; type link on your other platform for a new one.",
        )
    code.used = True
    ctx.session.add(code)
    if code.person_id == ctx.person.id:
        return Reply(
            text=f"{ctx.identity.key} and {code.identity_key} are already one person.",
            private=True,
            result={"kind": "link", "identities": [code.identity_key, ctx.identity.key]},
        )
    survivor = await ctx.session.get(Person, code.person_id)
    if survivor is None:
        return await _refuse(
            ctx, row, recent, "The person behind that link code is gone; ask for a new code."
        )
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
        text=(
            f"Linked: {', '.join(identities)} are now one person. Characters: {', '.join(names) or 'none'};"
            f" active: {active.name if active else 'none'}."
            + (" Storyteller role: yes." if survivor.storyteller else "")
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
    survivor.storyteller = survivor.storyteller or merged.storyteller
    survivor.active_character_id = survivor.active_character_id or merged.active_character_id
    survivor.locale = survivor.locale or merged.locale
    session.add(survivor)
    await session.flush()
    await session.exec(delete(Person).where(col(Person.id) == old))  # type: ignore[call-overload]
    session.expunge(merged)
    ctx.sender.move_to(survivor)


async def unlink_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if len(inv.words) != 1:
        raise UserError("Write unlink PLATFORM (e.g. unlink discord) or unlink PLATFORM:ID.")
    word = inv.words[0].strip()
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
        raise UserError(f"You have no {word[:40]} identity linked. Yours: {', '.join(i.key for i in mine)}.")
    if len(matches) > 1:
        raise UserError(
            f"You have {len(matches)} {word[:40]} identities ({', '.join(i.key for i in matches)}):"
            " write unlink PLATFORM:ID for one."
        )
    if len(mine) == 1:
        raise UserError(f"{matches[0].key} is your only identity: there is nothing to unlink it from.")
    target = matches[0]
    person = Person(display_name=target.display_name, locale=ctx.person.locale)
    ctx.session.add(person)
    await ctx.session.flush()
    target.person_id = person.id  # type: ignore[assignment]
    ctx.session.add(target)
    await ctx.audit("unlink", field_name=target.key, old=ctx.person.id, new=person.id)
    return Reply(
        text=(
            f"{target.key} is now a person of its own, with no characters; they stay with"
            f" {', '.join(i.key for i in mine if i is not target)}."
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
        )
    )
    register(
        Command(
            "unlink",
            unlink_command,
            "split one platform's identity off your person",
            "unlink PLATFORM | unlink PLATFORM:ID",
        )
    )
