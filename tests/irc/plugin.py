"""Commands the IRC tests add through ``extra_plugins`` (character commands are Nightcap's own)."""

from __future__ import annotations

from collections.abc import Callable

from gateway.core.commands import Command, CommandContext
from gateway.core.hookspecs import hookimpl
from gateway.core.types import Invocation, Reply

# About 3,000 bytes of UTF-8: ASCII, two-, three- and four-byte characters, and one 700-byte word
# with no space in it, which has to be cut between characters.
WORDS = ["dice", "Würfel", "サイコロ", "𝄞𝄞", "nightcap", "é", "✓done"]
LONG_WORD = "ß" * 350  # 700 bytes, no spaces
LONG_TEXT = " ".join(WORDS[i % len(WORDS)] for i in range(290)) + " " + LONG_WORD + " end"


async def long_reply(ctx: CommandContext, inv: Invocation) -> Reply:
    return Reply(text=LONG_TEXT)


async def whoami(ctx: CommandContext, inv: Invocation) -> Reply:
    return Reply(text=f"you are {ctx.identity.key} verified={ctx.message.sender.verified}")


async def secret(ctx: CommandContext, inv: Invocation) -> Reply:
    return Reply(text=f"only for {ctx.name}", private=True)


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(Command("long", long_reply, "a 3,000-byte reply", role="anyone"))
    register(Command("whoami", whoami, "show the identity", role="anyone"))
    register(Command("secret", secret, "a private reply", role="anyone"))
