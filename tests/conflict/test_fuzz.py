"""Arbitrary conflict command lines, from players and Storytellers: every one is answered, and no
exception escapes as an internal error."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.testing import Chat
from tests.conflict.helpers import make_character

WORDS = st.sampled_from(
    [
        "odds", "challenge", "defend", "concede", "cancel", "init", "start", "join", "roll", "next", "list",
        "move", "end", "attack", "as", "vs", "st", "soak", "extended", "status", "abandon", "team", "assist",
        "power", "use", "wp", "secret", "Mira", "Bo", "Ghoul", "Mind", "Lock", "adept", "legendary",
        "physical", "mental", "social", "s", "0", "1", "3", "50", "51", "-2", "+1", "3+2", "'", "x",
    ]
)  # fmt: skip
LINES = st.lists(WORDS, min_size=1, max_size=9).map(" ".join) | st.text(max_size=40)
POWER = {"name": "Mind Lock", "tier": "adept", "trait": "mental"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINES, min_size=1, max_size=4))
async def test_no_exception_escapes(chat: Chat, lines: list[str]) -> None:
    if not chat.services.state.get("fuzz_cast"):
        await make_character(chat, "mira", "Mira", physical=3, mental=3, powers=[POWER])
        await make_character(chat, "bo", "Bo", physical=2, mental=2, powers=[POWER])
        chat.services.state["fuzz_cast"] = True
    chat.dice.extend([6, 2, 10, 1, 7] * 40)
    for line in lines:
        for who, st_role in (("mira", False), ("bo", True), ("nobody", False)):
            for reply in await chat.say(line, as_=who, st=st_role):
                assert reply.error != "internal", (line, who, reply)
                assert reply.text
