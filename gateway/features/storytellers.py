"""Storyteller management and logs, for every rule system: ``st add/remove PERSON``, ``st list``, ``st log``,
``st history``, and ``st`` alone (the list of Storyteller commands).

The vault owner (``[vault] owner``, an identity key such as ``discord:1234``) is always a Storyteller,
on every platform the owner has linked. Others are people with ``Person.storyteller`` set; the role
belongs to the person, so it follows every linked identity.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import col, select

from gateway.core.commands import Command, CommandContext
from gateway.core.core_messages import listing, say
from gateway.core.core_params import LOG_MAX, PARAMS
from gateway.core.errors import UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.types import Invocation, Reply
from gateway.features.characters import find_character
from gateway.features.since import parse_since
from gateway.rules.numbers import is_digits
from gateway.vault import repo
from gateway.vault.models import Audit, IdentityLink, Person

IDENTITY = re.compile(r"^(?P<platform>[a-z][a-z0-9_-]{0,39}):(?P<id>\S{1,250})$")
LOG_PAGE = 20


def parse_identity(word: str, locale: str = "en") -> tuple[str, str]:
    """``discord:1234`` -> (``discord``, ``1234``); the platform is lower-cased."""
    platform, sep, ident = word.partition(":")
    key = f"{platform.casefold()}{sep}{ident}"
    match = IDENTITY.match(key)
    if not match:
        raise UserError(say(locale, "st.identity", word=word[:60]))
    return match.group("platform"), match.group("id")


def local_time(moment: datetime, zone: str) -> str:
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M %Z")


async def identities_of(ctx: CommandContext, person_id: int) -> list[str]:
    found = await ctx.session.exec(
        select(IdentityLink.key)
        .where(col(IdentityLink.person_id) == person_id)
        .order_by(col(IdentityLink.key))
    )
    return list(found.all())


async def st_command(ctx: CommandContext, inv: Invocation) -> Reply:
    registry = ctx.services.plugins.registry
    names = [c.name for c in registry.visible(ctx.system.name) if c.name.startswith("st ")]
    prefix = ""
    if inv.words:
        word = inv.words[0][:20]
        typed = f"st {word.casefold()}"
        close = difflib.get_close_matches(typed, names, n=1, cutoff=0.75)
        options = listing(ctx.locale, close, "or")
        prefix = say(ctx.locale, "st.unknown.suggest" if close else "st.unknown", word=word, options=options)
    return Reply(
        text=prefix + say(ctx.locale, "st.commands", names=", ".join(names)),
        private=True,
        error="unknown_command" if inv.words else None,
        result={"kind": "help", "commands": names},
    )


async def st_add(ctx: CommandContext, inv: Invocation) -> Reply:
    platform, ident = parse_identity(inv.args["identity"], ctx.locale)
    key = f"{platform}:{ident}"
    link = await ctx.session.get(IdentityLink, key)
    if link is None:
        # Not seen yet: make the person now, so the role is waiting when they first speak.
        person = Person(display_name=ident[:80])
        ctx.session.add(person)
        await ctx.session.flush()
        assert person.id is not None
        link = IdentityLink(key=key, person_id=person.id, platform=platform, display_name=ident[:80])
        ctx.session.add(link)
    else:
        found = await ctx.session.get(Person, link.person_id)
        assert found is not None
        person = found
    if person.storyteller or key == ctx.settings.vault.owner:
        raise UserError(say(ctx.locale, "st.already", key=key))
    person.storyteller = True
    ctx.session.add(person)
    await ctx.audit("st.add", field_name=key, old=False, new=True)
    line = say(ctx.locale, "st.added.log", name=ctx.name, key=key)
    await ctx.stlog(line, kind="st_manage", result={"identity": key})
    return Reply(
        text=say(ctx.locale, "st.added", key=key, name=link.display_name),
        result={"kind": "storyteller", "identity": key, "storyteller": True},
    )


async def st_remove(ctx: CommandContext, inv: Invocation) -> Reply:
    platform, ident = parse_identity(inv.args["identity"], ctx.locale)
    key = f"{platform}:{ident}"
    link = await ctx.session.get(IdentityLink, key)
    person = await ctx.session.get(Person, link.person_id) if link is not None else None
    owner = ctx.settings.vault.owner
    if person is None:
        raise UserError(say(ctx.locale, "st.not", key=key))
    assert person.id is not None
    if owner and owner in await identities_of(ctx, person.id):
        raise UserError(say(ctx.locale, "st.owner", key=key, owner=owner))
    if not person.storyteller:
        raise UserError(say(ctx.locale, "st.not", key=key))
    person.storyteller = False
    ctx.session.add(person)
    await ctx.audit("st.remove", field_name=key, old=True, new=False)
    line = say(ctx.locale, "st.removed.log", name=ctx.name, key=key)
    await ctx.stlog(line, kind="st_manage", result={"identity": key})
    return Reply(
        text=say(ctx.locale, "st.removed", key=key),
        result={"kind": "storyteller", "identity": key, "storyteller": False},
    )


async def st_list(ctx: CommandContext, inv: Invocation) -> Reply:
    owner = ctx.settings.vault.owner
    found = await ctx.session.exec(
        select(Person).where(col(Person.storyteller).is_(True)).order_by(col(Person.id))
    )
    people: list[dict[str, Any]] = []
    for person in found.all():
        assert person.id is not None
        people.append({"name": person.display_name, "identities": await identities_of(ctx, person.id)})
    locale = ctx.locale
    none = say(locale, "st.list.no_identity")
    parts = [f"{p['name']} ({', '.join(p['identities']) or none})" for p in people]
    head = say(locale, "st.list.owner", owner=owner) if owner else say(locale, "st.list.no_owner")
    body = say(locale, "st.list.others", people="; ".join(parts)) if parts else say(locale, "st.list.none")
    return Reply(
        text=head + body,
        private=True,
        result={"kind": "storytellers", "owner": owner, "storytellers": people},
    )


def _split_flags(
    words: tuple[str, ...], flags: tuple[str, ...], locale: str = "en"
) -> tuple[list[str], dict[str, str]]:
    rest: list[str] = []
    values: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i].casefold()
        name, eq, _ = word.partition("=")
        if name in flags:
            if eq:
                values[name] = words[i][len(name) + 1 :]
            elif i + 1 < len(words):
                values[name] = words[i + 1]
                i += 1
            else:
                raise UserError(say(locale, "st.flag_value", flag=name))
        else:
            rest.append(words[i])
        i += 1
    return rest, values


async def st_log(ctx: CommandContext, inv: Invocation) -> Reply:
    """``st log [NAME] [--since WHEN] [--limit N]``: the Storyteller log from the vault, oldest first."""
    rest, flags = _split_flags(inv.words, ("--since", "--limit"), ctx.locale)
    zone = ctx.settings.gateway.timezone
    character = None
    if rest:
        character = await find_character(ctx.session, ctx.system.name, " ".join(rest))
        if character is None:
            name = " ".join(rest)[:60]
            raise UserError(say(ctx.locale, "st.log.no_character", system=ctx.system.title, name=name))
    since = parse_since(flags["--since"], ctx.now, zone, ctx.locale) if "--since" in flags else None
    limit = _limit(ctx, flags)
    rows = await repo.stlog_entries(
        ctx.session, character_id=character.id if character else None, since=since, limit=limit
    )
    entries = [
        {
            "when": r.created_at.isoformat(),
            "kind": r.kind,
            "text": r.text,
            "where": r.channel_key,
            "character_id": r.character_id,
            "result": r.result,
        }
        for r in rows
    ]
    scope = say(ctx.locale, "st.log.for", name=character.name) if character else ""
    scope += say(ctx.locale, "st.log.since", when=local_time(since, zone)) if since else ""
    if not rows:
        text = say(ctx.locale, "st.log.empty", scope=scope)
    else:
        lines = [f"{local_time(r.created_at, zone)} [{r.kind}] {r.text}" for r in rows]
        text = say(ctx.locale, "st.log.head", scope=scope, n=len(rows)) + "\n" + "\n".join(lines)
    return Reply(text=text, private=True, result={"kind": "stlog", "entries": entries})


async def st_history(ctx: CommandContext, inv: Invocation) -> Reply:
    """``st history NAME [--limit N]``: a character's audit rows, oldest first."""
    rest, flags = _split_flags(inv.words, ("--limit",), ctx.locale)
    if not rest:
        raise UserError(say(ctx.locale, "st.history.usage"))
    character = await find_character(ctx.session, ctx.system.name, " ".join(rest))
    if character is None:
        name = " ".join(rest)[:60]
        raise UserError(say(ctx.locale, "st.history.no_character", system=ctx.system.title, name=name))
    limit = _limit(ctx, flags)
    query = (
        select(Audit)
        .where(col(Audit.character_id) == character.id)
        .order_by(col(Audit.id).desc())
        .limit(limit)
    )
    rows = list((await ctx.session.exec(query)).all())
    rows.reverse()
    zone = ctx.settings.gateway.timezone
    entries = [
        {
            "when": r.created_at.isoformat(),
            "who": r.actor_key,
            "action": r.action,
            "field": r.field_name,
            "old": r.old_value,
            "new": r.new_value,
        }
        for r in rows
    ]
    lines = [
        f"{local_time(r.created_at, zone)} {r.actor_key} {r.action}"
        + (f" {r.field_name}" if r.field_name else "")
        + f": {_shown(r.old_value)} → {_shown(r.new_value)}"
        for r in rows
    ]
    text = (
        say(ctx.locale, "st.history.head", name=character.name, n=len(rows)) + "\n" + "\n".join(lines)
        if rows
        else say(ctx.locale, "st.history.empty", name=character.name)
    )
    return Reply(
        text=text, private=True, result={"kind": "history", "character": character.name, "entries": entries}
    )


def _limit(ctx: CommandContext, flags: dict[str, str]) -> int:
    """``--limit N``: 1 to ``LOG_MAX`` entries, ``LOG_PAGE`` without the flag."""
    if "--limit" not in flags:
        return LOG_PAGE
    if not is_digits(flags["--limit"]) or not 1 <= int(flags["--limit"]) <= LOG_MAX:
        raise UserError(say(ctx.locale, "st.limit", most=LOG_MAX))
    return int(flags["--limit"])


def _shown(value: str | None) -> str:
    return value or "—"


# ``help`` in Czech and Russian: name -> {locale: (summary, usage)}.
HELP_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "st": {"cs": ("vypíše příkazy Vypravěče", "st"), "ru": ("список команд Рассказчика", "st")},
    "st add": {
        "cs": ("dá identitě roli Vypravěče", "st add JMÉNO|PLATFORMA:ID"),
        "ru": ("дать учётной записи роль Рассказчика", "st add ИМЯ|ПЛАТФОРМА:ID"),
    },
    "st remove": {
        "cs": ("odebere identitě roli Vypravěče", "st remove JMÉNO|PLATFORMA:ID"),
        "ru": ("снять с учётной записи роль Рассказчика", "st remove ИМЯ|ПЛАТФОРМА:ID"),
    },
    "st list": {
        "cs": ("vypíše vlastníka úložiště a Vypravěče", "st list"),
        "ru": ("владелец хранилища и Рассказчики", "st list"),
    },
    "st log": {
        "cs": ("přečte záznam Vypravěče", "st log [JMÉNO] [--since 2h|today|2026-11-30] [--limit N]"),
        "ru": ("журнал Рассказчика", "st log [ИМЯ] [--since 2h|today|2026-11-30] [--limit N]"),
    },
    "st history": {
        "cs": ("historie změn postavy", "st history JMÉNO [--limit N]"),
        "ru": ("история изменений персонажа", "st history ИМЯ [--limit N]"),
    },
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    def st(name: str, handler: Any, summary: str, usage: str, *, private: bool = False) -> None:
        command = Command(name, handler, summary, usage, role="storyteller", params=PARAMS[name])
        register(replace(command, texts=HELP_TEXTS[name], private=private))

    st("st", st_command, "list the Storyteller commands", "st", private=True)
    st("st add", st_add, "make an identity a Storyteller", "st add NAME|PLATFORM:ID")
    st("st remove", st_remove, "take the Storyteller role from an identity", "st remove NAME|PLATFORM:ID")
    st("st list", st_list, "list the vault owner and the Storytellers", "st list", private=True)
    st(
        "st log",
        st_log,
        "read the Storyteller log",
        "st log [NAME] [--since 2h|today|2026-11-30] [--limit N]",
        private=True,
    )
    st("st history", st_history, "a character's audit log", "st history NAME [--limit N]", private=True)
