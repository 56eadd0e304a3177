"""Commands every channel has, whatever its rule system: help, verify, system."""

from __future__ import annotations

from collections.abc import Callable

from gateway.commands import Command, CommandContext
from gateway.errors import PermissionDenied, UserError
from gateway.hookspecs import hookimpl
from gateway.i18n import LANGUAGES
from gateway.types import Invocation, Reply
from gateway.vault import repo


async def help_command(ctx: CommandContext, inv: Invocation) -> Reply:
    registry = ctx.services.plugins.registry
    commands = registry.visible(ctx.system.name)
    if inv.words:
        found = registry.find(ctx.system.name, list(inv.words))
        if found is None:
            raise UserError(f"No command {' '.join(inv.words)[:40]!r}. Type help for the list.")
        command = found[0]
        usage_text = command.usage_in(ctx.locale)
        usage = f" Usage: {usage_text}" if usage_text else ""
        return Reply(text=f"{command.name}: {command.summary_in(ctx.locale)}.{usage}", private=True)
    names = ", ".join(c.name for c in commands if ctx.storyteller or c.role != "storyteller")
    return Reply(
        text=f"{ctx.system.title} commands: {names}. Type help COMMAND for one.",
        private=True,
        result={"kind": "help", "system": ctx.system.name, "commands": [c.name for c in commands]},
    )


async def verify_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if len(inv.words) != 1:
        raise UserError(
            "Write verify ID, with the id shown at the end of a roll (for example verify k3f9m2x)."
        )
    row = await repo.find_roll(ctx.session, inv.words[0])
    if row is None:
        raise UserError(f"No roll with id {inv.words[0][:20]!r} in the log.")
    dice = " ".join(str(d) for d in row.dice) or "no dice"
    when = row.created_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    text = (
        f"#{row.public_id}: {row.display_name} ({row.identity_key}) rolled {row.system} in {row.channel_key}"
        f" at {when}: {dice} → {row.total} ({row.degree})"
    )
    result = {
        "kind": "verify",
        "id": row.public_id,
        "who": row.display_name,
        "identity": row.identity_key,
        "where": row.channel_key,
        "when": row.created_at.isoformat(),
        "roll": row.result,
    }
    return Reply(text=text, result=result)


async def system_command(ctx: CommandContext, inv: Invocation) -> Reply:
    systems = ctx.services.plugins.registry.systems
    if not inv.words:
        listing = ", ".join(f"{s.name} ({s.title})" for s in sorted(systems.values(), key=lambda s: s.name))
        return Reply(
            text=f"This channel plays {ctx.system.title}. Installed: {listing}.",
            result={"kind": "systems", "current": ctx.system.name, "installed": sorted(systems)},
        )
    if not ctx.storyteller:
        raise PermissionDenied("system NAME needs the Storyteller role, which you do not have.")
    wanted = inv.words[0].casefold()
    if wanted not in systems:
        raise UserError(f"No rule system {wanted[:40]!r}. Installed: {', '.join(sorted(systems))}.")
    old = ctx.channel.system
    ctx.channel.system = wanted
    ctx.session.add(ctx.channel)
    await ctx.audit("channel.system", field_name=ctx.channel.key, old=old, new=wanted)
    return Reply(
        text=f"This channel now plays {systems[wanted].title}.",
        result={"kind": "systems", "current": wanted, "installed": sorted(systems)},
    )


async def lang_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``lang`` shows, ``lang CODE`` sets the caller's language, ``lang channel CODE`` the channel's."""
    words = [w.casefold() for w in inv.words]
    known = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    if not words:
        return Reply(
            text=f"Language here: {ctx.locale}. Available: {known}.",
            private=True,
            result={"kind": "lang", "locale": ctx.locale},
        )
    scope = "person"
    if words[0] == "channel":
        scope, words = "channel", words[1:]
        if not ctx.storyteller:
            raise PermissionDenied("lang channel CODE needs the Storyteller role, which you do not have.")
    if len(words) != 1 or words[0] not in LANGUAGES:
        raise UserError(f"Write lang CODE or lang channel CODE, with CODE one of {known}.")
    code = words[0]
    if scope == "channel":
        ctx.channel.locale = code
        ctx.session.add(ctx.channel)
        await ctx.audit("channel.locale", field_name=ctx.channel.key, new=code)
    else:
        ctx.person.locale = code
        ctx.session.add(ctx.person)
    where = "this channel" if scope == "channel" else "you"
    return Reply(
        text=f"Language for {where}: {LANGUAGES[code]}.",
        private=True,
        result={"kind": "lang", "locale": code},
    )


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(Command("help", help_command, "list commands, or explain one", "help [COMMAND]", role="anyone"))
    register(Command("lang", lang_command, "show or set the language", "lang [channel] [en|cs|ru]"))
    register(
        Command("verify", verify_command, "look a roll up in the log by its id", "verify ID", role="anyone")
    )
    register(
        Command(
            "system", system_command, "show or (Storytellers) set this channel's rule system", "system [NAME]"
        )
    )
