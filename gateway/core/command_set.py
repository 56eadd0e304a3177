"""Declarative command registration: a plugin's commands gathered by decorators into one set.

    commands = CommandSet("decanter")

    @commands.command("roll", "roll Attribute + Skill against a DC", ROLL_USAGE, role="anyone")
    async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply: ...

    gateway_register_commands = commands.hookimpl()  # in the plugin's module

A set may ``include`` other sets (one per module of a larger plugin) and ready-made ``Command``
objects (the shared sheet commands of ``gateway.rules``). ``Command`` and the
``gateway_register_commands`` hook stay the lower-level API a plugin may use directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict, TypeVar, Unpack

from gateway.core.hookspecs import hookimpl
from gateway.core.params import Param
from gateway.core.spec import Command, Handler, Role

H = TypeVar("H", bound=Handler)


class CommandOptions(TypedDict, total=False):
    """``Command``'s optional fields: who may run it, other names, whether it runs unprefixed, its
    help in other languages, its typed parameters and whether it always answers privately."""

    role: Role
    aliases: tuple[str, ...]
    bare: bool
    texts: Mapping[str, tuple[str, str]]
    params: tuple[Param, ...]
    private: bool


class CommandSet:
    """Commands of one rule system (``system=None``: commands that work in every channel)."""

    def __init__(self, system: str | None) -> None:
        self.system = system
        self._parts: list[Command | CommandSet] = []

    def command(
        self, name: str, summary: str, usage: str = "", **options: Unpack[CommandOptions]
    ) -> Callable[[H], H]:
        """Register the decorated handler as ``name``; the handler is returned unchanged, so one
        handler may carry several of these (a command and its alias with its own help line).
        ``usage`` defaults to the name."""

        def decorate(handler: H) -> H:
            self.add(name, handler, summary, usage, **options)
            return handler

        return decorate

    def add(
        self, name: str, handler: Handler, summary: str, usage: str = "", **options: Unpack[CommandOptions]
    ) -> None:
        """The same without a decorator, for a handler defined elsewhere (a bound method)."""
        fallback = "" if options.get("params") else name  # typed parameters write their own usage
        self._parts.append(Command(name, handler, summary, usage or fallback, self.system, **options))

    def include(self, *parts: CommandSet | Iterable[Command]) -> CommandSet:
        """Add other sets (read when registering, so their decorators may run later) or commands."""
        for part in parts:
            if isinstance(part, CommandSet):
                if part.system != self.system:
                    raise ValueError(f"command set of {part.system!r} included in {self.system!r}")
                self._parts.append(part)
            else:
                self._parts.extend(part)
        return self

    def commands(self) -> list[Command]:
        found: list[Command] = []
        for part in self._parts:
            found.extend(part.commands() if isinstance(part, CommandSet) else [part])
        return found

    def register(self, register: Callable[[Command], None]) -> None:
        for command in self.commands():
            register(command)

    def hookimpl(self) -> Callable[[Callable[[Command], None]], None]:
        """A ``gateway_register_commands`` implementation registering this set: assign it to that
        name in the plugin module (pluggy finds hook implementations by attribute name)."""

        def gateway_register_commands(register: Callable[[Command], None]) -> None:
            self.register(register)

        return hookimpl(gateway_register_commands)
