"""A test-only plugin: commands that produce long or many replies, to exercise size limits."""

from __future__ import annotations

from collections.abc import Callable

from gateway.core.commands import Command, CommandContext
from gateway.core.hookspecs import hookimpl
from gateway.core.types import Invocation, Reply


async def bigtext(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    """``bigtext N [M]``: M replies (default 1) of N bytes each: words of "abcdefghi ", private."""
    size = int(inv.words[0])
    count = int(inv.words[1]) if len(inv.words) > 1 else 1
    text = ("abcdefghi " * (size // 10 + 1))[:size]
    return [Reply(text=f"{i}{text[1:]}", private=True) for i in range(count)]


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(Command("bigtext", bigtext, "test: long replies", "bigtext N [M]", role="anyone"))
