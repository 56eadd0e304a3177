"""Decanter's rules that left the command modules, tested without a vault: ``cond add``'s words, a pool's
Conditions, and how a Story Point amends a logged roll or contest."""

from __future__ import annotations

import pytest

from gateway import UserError
from gateway.rules.pool_sum import Pool
from plugins.decanter.conditions import parse_condition
from plugins.decanter.parse import parse_roll
from plugins.decanter.rolls import resolve_pool, with_conditions
from plugins.decanter.story_points import contest_bonus, reread


def test_cond_add_words() -> None:
    read = parse_condition(("Shaken", "scene", "resist", "2"))
    assert (read.name, read.duration, read.resist) == ("Shaken", "scene", 2)
    with pytest.raises(UserError, match="Which Condition"):
        parse_condition(())


def test_a_pool_without_a_sheet_is_its_numbers_and_no_condition_reaches_it() -> None:
    expr = parse_roll(("3+2", "dc", "2")).pool
    side = with_conditions(expr, resolve_pool(expr, None), None, ())
    assert side.pool == Pool(5, side.pool.label) and side.applied.dice == 0


def test_a_story_point_rereads_the_degree() -> None:
    result = {"dc": 3, "successes": 5, "shortfall": 1}
    reread(result)
    assert result == {"dc": 3, "successes": 5, "total": 5, "degree": "extra", "extra_successes": 2}


def test_a_contest_bonus_rejudges_and_refuses_a_tie_of_equal_pools() -> None:
    sides = [{"successes": 2, "pool": 4}, {"successes": 3, "pool": 4}]
    assert contest_bonus({"sides": sides}, 2)["winner"] == 0
    with pytest.raises(UserError, match="would tie equal pools"):
        contest_bonus({"sides": sides}, 1)
