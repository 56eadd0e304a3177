"""What the router asks before it gives up on a line: does it call a macro? If so, the commands it
stands for (each then found, authorised and run by the router exactly as typed text)."""

from __future__ import annotations

from collections.abc import Sequence

from gateway.core.errors import PermissionDenied, UserError
from gateway.core.registry import Registry
from gateway.features.macros import store
from gateway.features.macros.expand import Expanded, MacroError, expand, macro_call
from gateway.features.macros.messages import say
from gateway.vault.sender import Sender
from gateway.vault.unit import Unit


def command_words(registry: Registry, system: str) -> frozenset[str]:
    """The first words of the commands (and aliases) a channel of ``system`` has: a macro of such a
    name runs only as ``macro NAME``."""
    return frozenset(
        name.split(" ", 1)[0]
        for command in registry.visible(system)
        for name in (command.name, *command.aliases)
    )


def refusal(locale: str, error: MacroError) -> UserError:
    return UserError(say(locale, error.key, macro=error.macro, **error.params), code="macro")


async def plan(
    unit: Unit, sender: Sender, registry: Registry, system: str, words: Sequence[str], locale: str
) -> list[Expanded] | None:
    """The commands ``words`` stand for when they call a macro of this person or channel; None when
    they call none (the router's unknown command). A macro that cannot expand is one ``UserError``."""
    first = words[0].casefold() if words else ""
    commands = command_words(registry, system)
    if first != "macro" and first in commands:
        return None
    bodies = {
        name: seen.body
        for name, seen in (
            await store.seen(unit.session, sender.person_id, sender.channel_key, system)
        ).items()
    }
    call = macro_call(words, bodies, commands.__contains__)
    wanted = call[0] if call is not None else first
    if call is None or wanted not in bodies:
        owners = [store.person_owner(sender.person_id), store.channel_owner(sender.channel_key)]
        elsewhere = [s for s in await store.systems_with(unit.session, owners, wanted) if s != system]
        if elsewhere:
            titles = [registry.systems[s].title if s in registry.systems else s for s in elsewhere]
            here = registry.systems[system].title
            message = say(locale, "other.system", macro=wanted, other=", ".join(titles), system=here)
            raise UserError(message, code="macro")
    if call is None:
        return None
    try:
        return expand(call[0], call[1], bodies, commands.__contains__)
    except MacroError as error:
        raise refusal(locale, error) from None


def macro_error(locale: str, macro: str, error: UserError) -> UserError:
    """A refusal of one of a macro's commands as the macro's line, of the same kind (a permission
    refusal stays one)."""
    text = say(locale, "inner", macro=macro, error=error.message)
    if isinstance(error, PermissionDenied):
        return PermissionDenied(text)
    return UserError(text, code=error.code)
