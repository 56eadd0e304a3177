"""``macro add|list|show|remove``: a person's macros, and with ``--chronicle`` (Storytellers) the
channel's, for the channel's rule system. Every change is audited."""

from __future__ import annotations

import re
from collections.abc import Callable

from gateway.core.commands import Command, CommandContext
from gateway.core.core_messages import say as core_say
from gateway.core.core_params import PARAMS
from gateway.core.errors import PermissionDenied, UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.spec import Handler
from gateway.core.types import Invocation, Reply
from gateway.features.macros import store
from gateway.features.macros.expand import MacroError, check_name, parse_body, split_commands
from gateway.features.macros.messages import say
from gateway.features.macros.seam import command_words, refusal
from gateway.features.notation.parse import looks_like_notation

CHRONICLE = "--chronicle"
# ``macro add`` (any case), then the rest as typed: the body keeps its quotes, spaces and braces.
_HEAD = re.compile(r"\s*\S+\s+\S+\s*(?P<rest>.*)\Z", re.DOTALL)
_NAMED = re.compile(r"(?P<name>[^\s=]+)\s*=\s*(?P<body>.*)\Z", re.DOTALL)


def _owner(ctx: CommandContext, chronicle: bool, verb: str) -> str:
    if not chronicle:
        return store.person_owner(ctx.sender.person_id)
    if not ctx.storyteller:
        raise PermissionDenied(core_say(ctx.locale, "need.storyteller", command=f"macro {verb} {CHRONICLE}"))
    return store.channel_owner(ctx.sender.channel_key)


def _name(ctx: CommandContext, word: str) -> str:
    name = check_name(word)
    if name is None:
        raise UserError(say(ctx.locale, "name.bad", name=word[:40]))
    return name


def _run_hint(ctx: CommandContext, name: str, clashes: bool) -> str:
    prefix = ctx.settings.gateway.prefix if ctx.message.prefixed else ""
    return f"{prefix}macro {name}" if clashes else f"{prefix}{name}"


def _notation_rolls(body: str) -> str:
    """``body`` with each of its commands that is bare dice notation rolled (``6x 4d6kh3`` is saved as
    ``roll 6x 4d6kh3``): a notation line is not a command by itself, but what the macro means."""
    commands = split_commands(body)
    rolled = [f"roll {c}" if looks_like_notation(c.split()[:1]) else c for c in commands]
    return body if rolled == commands else "; ".join(rolled)


async def add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    head = _HEAD.match(inv.raw)
    rest = head.group("rest") if head else ""
    chronicle = rest.split(None, 1)[:1] == [CHRONICLE] or rest.casefold().startswith(CHRONICLE + " ")
    if chronicle:
        rest = rest[len(CHRONICLE) :].lstrip()
    named = _NAMED.match(rest)
    if named is None or not named.group("body").strip():
        raise UserError(say(ctx.locale, "usage.add"))
    name, body = _name(ctx, named.group("name")), _notation_rolls(named.group("body").strip())
    owner = _owner(ctx, chronicle, "add")
    try:
        parse_body(name, body)
    except MacroError as error:
        raise refusal(ctx.locale, error) from None
    system = ctx.system.name
    session = ctx.session
    new = await store.get(session, owner, system, name) is None
    if new and await store.count(session, owner, system) >= store.MAX_PER_OWNER:
        raise UserError(say(ctx.locale, "full", most=store.MAX_PER_OWNER, system=ctx.system.title))
    old = await store.put(session, owner, system, name, body, ctx.now)
    await ctx.audit("macro add", field_name=f"{owner} {system} {name}", old=old, new=body)
    clashes = name in command_words(ctx.services.plugins.registry, system)
    key = "added.chronicle" if chronicle else "added.mine"
    text = say(
        ctx.locale, key, name=name, system=ctx.system.title, body=body, run=_run_hint(ctx, name, clashes)
    )
    if old is not None:
        text += say(ctx.locale, "added.was", old=old)
    if clashes:
        text += say(ctx.locale, "added.command", name=name)
    seen = await store.seen(session, ctx.sender.person_id, ctx.sender.channel_key, system)
    if name in seen and seen[name].shadows:
        text += say(ctx.locale, "added.shadows", name=name)
    result = {"kind": "macro.add", "name": name, "body": body, "chronicle": chronicle, "system": system}
    return Reply(text=text, private=not chronicle, result=result)


async def list_command(ctx: CommandContext, inv: Invocation) -> Reply:
    seen = await store.seen(ctx.session, ctx.sender.person_id, ctx.sender.channel_key, ctx.system.name)
    title = ctx.system.title
    macros = [{"name": s.name, "chronicle": s.chronicle, "shadows": s.shadows} for s in seen.values()]
    result = {"kind": "macro.list", "system": ctx.system.name, "macros": macros}
    if not seen:
        return Reply(text=say(ctx.locale, "list.empty", system=title), private=True, result=result)
    entries = [
        say(
            ctx.locale,
            "list.shadows" if s.shadows else "list.chronicle" if s.chronicle else "list.mine",
            name=s.name,
        )
        for s in seen.values()
    ]
    text = say(ctx.locale, "list", system=title, n=len(seen), entries=", ".join(entries))
    return Reply(text=text, private=True, result=result)


def _one_name(ctx: CommandContext, inv: Invocation, verb: str) -> tuple[bool, str]:
    words = list(inv.words)
    chronicle = bool(words) and words[0].casefold() == CHRONICLE
    if chronicle:
        words = words[1:]
    if len(words) != 1:
        raise UserError(say(ctx.locale, "usage.name", verb=verb))
    return chronicle, _name(ctx, words[0])


async def show_command(ctx: CommandContext, inv: Invocation) -> Reply:
    chronicle, name = _one_name(ctx, inv, "show")
    system, title = ctx.system.name, ctx.system.title
    seen = await store.seen(ctx.session, ctx.sender.person_id, ctx.sender.channel_key, system)
    channel = await store.get(ctx.session, store.channel_owner(ctx.sender.channel_key), system, name)
    found = seen.get(name)
    if chronicle:
        found = None if channel is None else store.Seen(name, channel.body, True)
    if found is None:
        raise UserError(say(ctx.locale, "none", name=name, system=title))
    key = "show.chronicle" if found.chronicle else "show.mine"
    text = say(ctx.locale, key, name=name, system=title, body=found.body)
    if found.shadows and channel is not None:
        text += say(ctx.locale, "show.shadows", body=channel.body)
    result = {"kind": "macro.show", "name": name, "body": found.body, "chronicle": found.chronicle}
    return Reply(text=text, private=True, result=result)


async def remove_command(ctx: CommandContext, inv: Invocation) -> Reply:
    chronicle, name = _one_name(ctx, inv, "remove")
    owner = _owner(ctx, chronicle, "remove")
    system = ctx.system.name
    old = await store.remove(ctx.session, owner, system, name)
    if old is None:
        raise UserError(say(ctx.locale, "none", name=name, system=ctx.system.title))
    await ctx.audit("macro remove", field_name=f"{owner} {system} {name}", old=old, new=None)
    key = "removed.chronicle" if chronicle else "removed.mine"
    result = {"kind": "macro.remove", "name": name, "chronicle": chronicle}
    return Reply(text=say(ctx.locale, key, name=name), private=not chronicle, result=result)


# name -> handler, (summary, usage) in en, cs and ru: what ``help macro`` shows.
HELP: dict[str, tuple[Handler, dict[str, tuple[str, str]]]] = {
    "macro add": (
        add_command,
        {
            "en": (
                "save a macro: one or more commands (separated by ;) with {1} or {name=default} values",
                "macro add [--chronicle] NAME = COMMAND; COMMAND",
            ),
            "cs": (
                "uloží makro: jeden či víc příkazů (oddělených ;) s hodnotami {1} nebo {jméno=výchozí}",
                "macro add [--chronicle] JMÉNO = PŘÍKAZ; PŘÍKAZ",
            ),
            "ru": (
                "сохранить макрос: одну или несколько команд (через ;)"
                " со значениями {1} или {имя=по_умолчанию}",
                "macro add [--chronicle] ИМЯ = КОМАНДА; КОМАНДА",
            ),
        },
    ),
    "macro list": (
        list_command,
        {
            "en": ("your macros and the channel's; run one as NAME or macro NAME", "macro list"),
            "cs": ("vaše makra a makra kanálu; spustíte je jako JMÉNO nebo macro JMÉNO", "macro list"),
            "ru": ("ваши макросы и макросы канала; запуск: ИМЯ или macro ИМЯ", "macro list"),
        },
    ),
    "macro show": (
        show_command,
        {
            "en": ("what a macro runs", "macro show [--chronicle] NAME"),
            "cs": ("co makro spouští", "macro show [--chronicle] JMÉNO"),
            "ru": ("что запускает макрос", "macro show [--chronicle] ИМЯ"),
        },
    ),
    "macro remove": (
        remove_command,
        {
            "en": ("delete a macro", "macro remove [--chronicle] NAME"),
            "cs": ("smaže makro", "macro remove [--chronicle] JMÉNO"),
            "ru": ("удалить макрос", "macro remove [--chronicle] ИМЯ"),
        },
    ),
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    for name, (handler, texts) in HELP.items():
        summary, usage = texts["en"]
        texts = {k: v for k, v in texts.items() if k != "en"}
        private = name in ("macro list", "macro show")  # add and remove answer a chronicle macro aloud
        register(Command(name, handler, summary, usage, texts=texts, params=PARAMS[name], private=private))
