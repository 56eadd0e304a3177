"""Arbitrary command lines in a Decanter channel: every one is answered, none escapes as an error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.testing import Chat
from tests.helpers.chat import always_answered

WORDS = st.sampled_from(
    [
        "roll", "odds", "dc", "vs", "npc", "adv", "dis", "madv", "mdis", "half", "force", "aid", "ext",
        "secret", "hard", "very", "3", "0", "12", "-2", "+1", "3+2", "dex+firearms", "x", "*", "sp",
        "bonus", "give", "downgrade", "cond", "add", "resolve", "for", "scene", "night", "end", "Mira",
        "char", "new", "use", "sheet", "set", "st", "wits", "stop", "penalty", "'",
        "spend", "refund", "stain", "injured", "hunger", "xp", "virtue", "vice", "condition", "effect",
        "resist", "shortfall", "major", "advantage", "take", "story", "debt", "secret", "declaration",
        "clue", "kind", "vampire", "***", "on", "composure", "social",
    ]
)  # fmt: skip
LINES = st.lists(WORDS, min_size=1, max_size=9).map(" ".join) | st.text(max_size=40)


@pytest.mark.parametrize("vault_url", ["sqlite"], indirect=True)  # the engines are tested elsewhere
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=LINES)
async def test_no_exception_escapes(dec: Chat, line: str) -> None:
    dec.dice.extend([6, 2, 10, 1, 7] * 40)
    await always_answered(dec, line)
