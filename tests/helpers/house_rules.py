"""House rules in a test chat: a Storyteller's ``house set`` lines, and a roll with scripted dice."""

from __future__ import annotations

from typing import Any

from gateway.testing import Chat


async def house(chat: Chat, *lines: str, st: str = "gm") -> None:
    """``house set LINE`` for each line, said by the Storyteller ``st``."""
    for line in lines:
        reply = await chat.one(f"house set {line}", as_=st, st=True)
        assert reply.error is None, reply.text


async def rolled(chat: Chat, text: str, faces: list[int], as_: str = "alice") -> tuple[dict[str, Any], str]:
    """``text`` said with ``faces`` scripted, every one used: the roll's result and its line."""
    chat.dice.extend(faces)
    reply = await chat.one(text, as_=as_)
    assert reply.error is None, reply.text
    assert chat.dice.remaining == 0 and reply.result is not None
    return reply.result, reply.text
