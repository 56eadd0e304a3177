"""A decorator that registers a command with its Russian help (``Command.texts``), which
``CommandSet.command`` does not take."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, Unpack

from gateway import CommandSet
from gateway.command_set import CommandOptions
from gateway.spec import Command, Handler

H = TypeVar("H", bound=Handler)


def command(
    commands: CommandSet,
    name: str,
    summary: str,
    usage: str,
    ru: tuple[str, str],
    **options: Unpack[CommandOptions],
) -> Callable[[H], H]:
    """``ru`` is (summary, usage) for ``help`` in Russian."""

    def decorate(handler: H) -> H:
        commands.include(
            [Command(name, handler, summary, usage, commands.system, texts={"ru": ru}, **options)]
        )
        return handler

    return decorate
