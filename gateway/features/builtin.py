"""Commands every channel has, whatever its rule system: help, verify, system, lang.

Their replies come from the core catalogue (``gateway.core.core_messages``) in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gateway.core.commands import Command, CommandContext
from gateway.core.core_messages import language_notice, listing, locale_for, say
from gateway.core.core_params import PARAMS
from gateway.core.errors import PermissionDenied, UserError
from gateway.core.help_topics import group, pages
from gateway.core.hookspecs import hookimpl
from gateway.core.i18n import LANGUAGES
from gateway.core.param_text import param_lines
from gateway.core.spec import Handler, Role
from gateway.core.suggest import closest_commands, runnable_names
from gateway.core.types import Invocation, Reply
from gateway.features.verify import may_see, not_found, secret_answer, verify_answer
from gateway.vault import repo


def help_word(ctx: CommandContext) -> str:
    """``help`` as the reader types it there: ``!help`` in a chat room, ``help`` elsewhere."""
    message = ctx.message
    prefix = message.prefix or (ctx.services.settings.gateway.prefix if message.prefixed else "")
    return f"{prefix}help"


def page_budget(ctx: CommandContext) -> int:
    """Bytes one help answer may take: the platform's (an IRC line) or, elsewhere, a whole topic."""
    return ctx.message.page_bytes or 1_000_000


async def help_command(ctx: CommandContext, inv: Invocation) -> Reply:
    registry = ctx.services.plugins.registry
    typed = help_word(ctx)
    commands = registry.visible(ctx.system.name)
    locale = ctx.locale
    topic = help_topic(ctx, commands, list(inv.words))
    if topic is not None:
        return topic
    if inv.words and not (len(inv.words) == 1 and inv.words[0].isdigit()):
        found = registry.find(ctx.system.name, list(inv.words))
        if found is None:
            options = closest_commands(inv.words, runnable_names(commands, ctx.storyteller))
            name = " ".join(inv.words)[:40]
            if not options:
                raise UserError(say(locale, "help.none", name=name, help=typed))
            raise UserError(
                say(
                    locale, "help.none.suggest", name=name, options=listing(locale, options, "or"), help=typed
                )
            )
        return help_one(ctx, *found, list(inv.words))
    shown = [c for c in commands if ctx.storyteller or c.role != "storyteller"]
    groups = group(shown)
    topics = ", ".join(f"{word} ({len(cs)})" for word, cs in groups.topics.items())
    key = "help.index" if topics else "help.list"

    def frame(body: str, page: int, count: int) -> str:
        text = say(locale, key, system=ctx.system.title_in(locale), names=body, topics=topics, help=typed)
        return text + page_footer(locale, page, count, typed)

    wanted = int(inv.words[0]) if inv.words else 1
    listed = [c.name for c in commands]
    all_pages = pages(groups.top, frame, page_budget(ctx), sep=", ")
    return page_reply(ctx, all_pages, wanted, "help", {"commands": listed})


def help_one(ctx: CommandContext, command: Command, used: int, words: list[str]) -> Reply:
    """``help COMMAND [PAGE]``: its summary and usage line, then one line per typed parameter
    (``gateway.core.param_text``); paged where the platform's lines are short (IRC), a line a page
    entry there, one line each elsewhere."""
    locale = ctx.locale
    usage_text = command.usage_in(locale)
    usage = say(locale, "help.usage", usage=usage_text) if usage_text else ""
    head = say(locale, "help.one", name=command.name, summary=command.summary_in(locale)) + usage
    lines = param_lines(locale, command)
    rest = words[used:]
    wanted = int(rest[0]) if len(rest) == 1 and rest[0].isdigit() else 1
    extra: dict[str, object] = {"command": command.name, "params": [p.name for p in command.params]}
    if ctx.message.page_bytes is None:
        return page_reply(ctx, ["\n".join([head, *lines])], wanted, f"help {command.name}", extra)
    typed = f"{help_word(ctx)} {command.name}"

    def frame(body: str, page: int, count: int) -> str:
        return body + page_footer(locale, page, count, typed)

    return page_reply(
        ctx, pages([head, *lines], frame, page_budget(ctx)), wanted, f"help {command.name}", extra
    )


def page_reply(
    ctx: CommandContext, all_pages: list[str], wanted: int, command: str, extra: dict[str, object]
) -> Reply:
    """Page ``wanted`` of a help answer, privately; one short line when there is no such page."""
    if not 1 <= wanted <= len(all_pages):
        raise UserError(say(ctx.locale, "help.page.none", command=command, pages=len(all_pages)))
    result = {"kind": "help", "system": ctx.system.name, "page": wanted, "pages": len(all_pages), **extra}
    return Reply(text=all_pages[wanted - 1], private=True, result=result)


def page_footer(locale: str, page: int, count: int, command: str) -> str:
    """`` Page 1 of 3; next: help st 2`` (nothing when there is one page)."""
    if count <= 1:
        return ""
    if page < count:
        return say(locale, "help.page", page=page, pages=count, next=f"{command} {page + 1}")
    return say(locale, "help.page.last", page=page, pages=count)


def help_topic(ctx: CommandContext, commands: list[Command], words: list[str]) -> Reply | None:
    """``help TOPIC [PAGE]``: one page of a topic's commands with their summaries; None when the
    words do not name a topic (then they name a command)."""
    if not words or len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
        return None
    word = words[0].casefold()
    everyone = group(commands).topics.get(word)
    if everyone is None:
        return None
    # Storyteller commands are listed for Storytellers; a topic of only those is shown to all.
    members = [c for c in everyone if ctx.storyteller or c.role != "storyteller"] or everyone
    locale = ctx.locale
    entries = [f"{c.name}: {c.summary_in(locale)}" for c in members]

    typed = help_word(ctx)

    def frame(body: str, page: int, count: int) -> str:
        text = say(locale, "help.topic", topic=word, n=len(members), entries=body)
        return text + page_footer(locale, page, count, f"{typed} {word}")

    wanted = int(words[1]) if len(words) == 2 else 1
    extra: dict[str, object] = {"topic": word, "commands": [c.name for c in members]}
    return page_reply(ctx, pages(entries, frame, page_budget(ctx)), wanted, f"help {word}", extra)


async def verify_command(ctx: CommandContext, inv: Invocation) -> Reply:
    roll_id = str(inv.args["id"])  # the router bound exactly one word
    row = await repo.find_roll(ctx.session, roll_id)
    if row is None:
        raise UserError(not_found(ctx.locale, roll_id))
    sender = ctx.sender
    if not may_see(
        row, person_id=sender.person_id, identity_key=sender.identity_key, storyteller=ctx.storyteller
    ):
        return secret_answer(row, ctx.locale)
    return verify_answer(ctx.services, row, ctx.locale)


async def system_command(ctx: CommandContext, inv: Invocation) -> Reply:
    systems = ctx.services.plugins.registry.systems
    if not inv.words:
        installed = ", ".join(f"{s.name} ({s.title})" for s in sorted(systems.values(), key=lambda s: s.name))
        return Reply(
            text=say(ctx.locale, "system.show", title=ctx.system.title_in(ctx.locale), listing=installed),
            result={"kind": "systems", "current": ctx.system.name, "installed": sorted(systems)},
        )
    if not ctx.storyteller:
        command = say(ctx.locale, "system.command")
        raise PermissionDenied(say(ctx.locale, "need.storyteller", command=command))
    wanted = inv.words[0].casefold()
    if wanted not in systems:
        raise UserError(say(ctx.locale, "system.none", name=wanted[:40], names=", ".join(sorted(systems))))
    old = ctx.channel.system
    ctx.channel.system = wanted
    ctx.session.add(ctx.channel)
    await ctx.audit("channel.system", field_name=ctx.channel.key, old=old, new=wanted)
    # Said in the language the channel speaks from now on (a Pravidla channel's is Czech).
    locale = locale_for(ctx.sender.person_locale, ctx.channel.locale, systems[wanted].default_locale)
    return Reply(
        text=say(locale, "system.set", title=systems[wanted].title_in(locale)),
        result={"kind": "systems", "current": wanted, "installed": sorted(systems)},
    )


async def lang_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``lang`` shows, ``lang CODE`` sets the caller's language, ``lang channel CODE`` the channel's.

    When the channel's rule system has no catalogue for the language, the reply says so: its
    commands go on in its own language while the core's replies follow the choice."""
    code, channel = inv.args.get("code"), bool(inv.args.get("channel"))
    known = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
    if code is None and not channel:
        locale = ctx.locale
        text = say(locale, "lang.show", language=LANGUAGES.get(locale, locale), code=locale, known=known)
        return Reply(
            text=text + language_notice(locale, ctx.system.title, ctx.system.locales),
            private=True,
            result={"kind": "lang", "locale": locale},
        )
    scope = "channel" if channel else "person"
    if channel and not ctx.storyteller:
        command = say(ctx.locale, "lang.channel_command")
        raise PermissionDenied(say(ctx.locale, "need.storyteller", command=command))
    if code is None:  # ``lang channel`` alone
        raise UserError(say(ctx.locale, "lang.usage", known=known))
    if scope == "channel":
        ctx.channel.locale = code
        ctx.session.add(ctx.channel)
        await ctx.audit("channel.locale", field_name=ctx.channel.key, new=code)
        # A person's own choice still wins over the channel's for them.
        reader = ctx.sender.person_locale or code
    else:
        ctx.person.locale = code
        ctx.session.add(ctx.person)
        reader = code
    text = say(reader, f"lang.set.{scope}", language=LANGUAGES[code])
    return Reply(
        text=text + language_notice(reader, ctx.system.title, ctx.system.locales),
        private=True,
        result={"kind": "lang", "locale": code, "system_locales": list(ctx.system.locales)},
    )


PRIVATE = frozenset({"help", "lang"})  # the commands that always answer privately
Texts = dict[str, tuple[str, str]]
# name -> handler, who may run it, English (summary, usage), the same in Czech and Russian.
COMMANDS: dict[str, tuple[Handler, Role, tuple[str, str], Texts]] = {
    "help": (
        help_command,
        "anyone",
        (
            "list commands and topics, list a topic's commands, or explain one",
            "help [TOPIC [PAGE] | COMMAND]",
        ),
        {
            "cs": (
                "vypíše příkazy a témata, příkazy jednoho tématu, nebo vysvětlí jeden příkaz",
                "help [TÉMA [STRANA] | PŘÍKAZ]",
            ),
            "ru": (
                "список команд и тем, команды одной темы или справка по одной команде",
                "help [ТЕМА [СТРАНИЦА] | КОМАНДА]",
            ),
        },
    ),
    "lang": (
        lang_command,
        "player",
        ("show or set the language", "lang [channel] [en|cs|ru]"),
        {
            "cs": ("ukáže nebo nastaví jazyk", "lang [channel] [en|cs|ru]"),
            "ru": ("показать или выбрать язык", "lang [channel] [en|cs|ru]"),
        },
    ),
    "verify": (
        verify_command,
        "anyone",
        ("look a roll up in the log by its id", "verify ID"),
        {
            "cs": ("vyhledá hod v záznamu podle jeho ID", "verify ID"),
            "ru": ("найти бросок в журнале по его коду", "verify ID"),
        },
    ),
    "system": (
        system_command,
        "player",
        ("show or (Storytellers) set this channel's rule system", "system [NAME]"),
        {
            "cs": ("ukáže systém pravidel tohoto kanálu (Vypravěč ho může změnit)", "system [NÁZEV]"),
            "ru": ("показать систему правил этого канала (Рассказчик может её сменить)", "system [НАЗВАНИЕ]"),
        },
    ),
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    for name, (handler, role, (summary, usage), texts) in COMMANDS.items():
        command = Command(name, handler, summary, usage, role=role, texts=texts, params=PARAMS[name])
        register(replace(command, private=name in PRIVATE))
