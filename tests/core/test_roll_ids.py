"""Roll ids for decades of play (issue 22): new ids have seven letters, so that at 10 million rolls
a new id clashes less than 0.1% of the time; ids handed out with five letters keep verifying."""

from __future__ import annotations

import re

import pytest
from pydantic import TypeAdapter

from gateway.core import commands
from gateway.core.commands import ID_ALPHABET, PUBLIC_ID_LENGTH, new_public_id
from gateway.features.transfer.format import RollId
from gateway.testing import Chat
from tests.nightcap.helpers import ok

NEW_ID = re.compile(f"[{ID_ALPHABET}]{{7}}")


def test_a_new_id_clashes_under_a_thousandth_of_the_time_at_ten_million_rolls() -> None:
    assert PUBLIC_ID_LENGTH == 7
    assert 10_000_000 / len(ID_ALPHABET) ** PUBLIC_ID_LENGTH < 0.001
    assert 10_000_000 / len(ID_ALPHABET) ** 5 > 0.3  # what five letters gave


def test_new_ids_have_seven_letters_of_the_alphabet() -> None:
    ids = {new_public_id() for _ in range(2000)}
    assert all(NEW_ID.fullmatch(i) for i in ids)
    assert len(ids) == 2000


async def test_a_roll_gets_a_seven_letter_id_that_verifies(any_chat: Chat) -> None:
    any_chat.dice.extend([9, 5, 10])
    roll = await ok(any_chat, "roll 3")
    public_id = (roll.result or {})["id"]
    assert NEW_ID.fullmatch(public_id) and roll.text.endswith(f"#{public_id}")
    found = await ok(any_chat, f"verify #{public_id.upper()}", "someone")
    assert (found.result or {})["id"] == public_id


async def test_an_old_five_letter_id_still_verifies(any_chat: Chat, monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll logged before ids grew (its id made the old way) is found by that id, as typed on
    any platform: bare, with its #, in capitals."""
    monkeypatch.setattr(commands, "new_public_id", lambda length=5: "k3f9m")
    any_chat.dice.extend([9, 5, 10])
    assert (await ok(any_chat, "roll 3")).text.endswith("#k3f9m")
    monkeypatch.undo()
    for typed in ("k3f9m", "#k3f9m", "K3F9M"):
        found = await ok(any_chat, f"verify {typed}", "someone")
        assert found.text.startswith("#k3f9m: Mira (console:mira) rolled Nightcap"), found.text
        assert (found.result or {})["id"] == "k3f9m"
    any_chat.dice.extend([1, 1, 1])
    assert NEW_ID.fullmatch(((await ok(any_chat, "roll 3")).result or {})["id"])


def test_an_export_file_carries_old_and_new_ids() -> None:
    ids = TypeAdapter(RollId)
    assert ids.validate_python("k3f9m") == "k3f9m"
    assert ids.validate_python("k3f9m2x") == "k3f9m2x"
