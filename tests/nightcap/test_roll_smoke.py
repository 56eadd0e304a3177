from __future__ import annotations

from gateway.testing import Chat


async def test_mira_worked_example(chat: Chat) -> None:
    chat.dice.extend([9, 5, 10])
    reply = await chat.one("roll 3", as_="mira")
    assert reply.error is None
    assert reply.result is not None
    assert reply.result["dice"] == [9, 5, 10]
    assert reply.result["total"] == 3
    assert reply.result["degree"] == "solid"
    assert reply.text == f"Mira rolls 3 dice: 9 5 10 → 3 (Solid) #{reply.result['id']}"
