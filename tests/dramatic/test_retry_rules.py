"""Dramatic Systems' retry rules (``plugins/dramatic/retries.py``), pure: what a roll asks of the roller's
record and what the record becomes; the handlers keep the record in ``store.py``."""

from __future__ import annotations

import pytest

from gateway import UserError
from plugins.dramatic import retries
from plugins.dramatic.parse import SideRequest

SIDE = SideRequest(("wits", "+streetwise"))
FAILED = {
    "failures": 1,
    "difficulty": 6,
    "action": "a",
    "text": "wits+streetwise",
    "words": ["wits", "+streetwise"],
}


def test_a_first_roll_is_no_retry() -> None:
    plan = retries.plan(FAILED, SIDE, False, "Mira")
    assert (plan.failures, plan.base, plan.recorded) == (0, None, FAILED)


def test_a_retry_repeats_the_recorded_action_at_its_difficulty() -> None:
    plan = retries.plan(FAILED, SideRequest(()), True, "Mira")
    assert (plan.failures, plan.base, plan.side.words) == (1, 6, ("wits", "+streetwise"))


@pytest.mark.parametrize(
    ("recorded", "side", "says"),
    [
        (None, SIDE, "Nothing to retry"),
        ({"botched": True}, SIDE, "botched"),
        (FAILED, SideRequest(SIDE.words, difficulty=8), "at its difficulty, 6"),
    ],
)
def test_a_retry_that_is_none_says_why(
    recorded: dict[str, object] | None, side: SideRequest, says: str
) -> None:
    with pytest.raises(UserError, match=says):
        retries.plan(recorded, side, True, "Mira")


def test_another_pool_is_another_action() -> None:
    retries.check_same("Mira", FAILED, "a", SIDE)
    with pytest.raises(UserError, match="is another action"):
        retries.check_same("Mira", FAILED, "b", SideRequest(("dex",)))


def test_the_record_after_a_roll() -> None:
    plan = retries.plan(FAILED, SideRequest(()), True, "Mira")
    assert retries.after(plan, "success", "Mira", 6, "a") is None
    assert retries.after(plan, "botch", "Mira", 6, "a") == {"botched": True, "name": "Mira"}
    failed = retries.after(plan, "failure", "Mira", 6, "a")
    assert failed is not None and failed["failures"] == 2 and failed["text"] == "wits+streetwise"
