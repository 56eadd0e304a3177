"""Night Wanderers' commands as registered: each handler reads its option words in Russian too
(``words.translate`` before the handler runs, so no handler knows Russian option words), and
``help`` has each command in Russian (``helptexts``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gateway import Command, CommandContext, CommandSet, Handler, Invocation, ParamError, bind
from plugins.nightwanderers.helptexts import RU
from plugins.nightwanderers.words import translate


def translated(command: Command) -> Command:
    """The command with its words translated at entry and its Russian help (its own, if it has one)."""
    handler: Handler = command.handler

    async def entered(ctx: CommandContext, inv: Invocation) -> Any:
        words = translate(command.name, inv.words)
        return await handler(
            ctx, Invocation(name=inv.name, words=words, raw=inv.raw, args=args_of(command, words, inv))
        )

    texts = {"ru": RU[command.name], **command.texts} if command.name in RU else dict(command.texts)
    return dataclasses.replace(command, handler=entered, texts=texts)


def args_of(command: Command, words: tuple[str, ...], inv: Invocation) -> Mapping[str, Any]:
    """The typed parameters read again from the translated words: the router bound the words as
    typed, where a Russian ``против`` or ``глубокие`` is not yet the keyword it stands for."""
    if not inv.args:
        return inv.args
    try:
        return bind(command.params, words)
    except ParamError:  # the words as typed fitted, so this is not the player's mistake
        return inv.args


class EntrySet(CommandSet):
    """A ``CommandSet`` whose commands are ``translated``."""

    def commands(self) -> list[Command]:
        return [translated(command) for command in super().commands()]
