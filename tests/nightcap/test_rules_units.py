"""Nightcap's pure rules met directly, without a vault or a router: building a side, reading words,
NPC pools, the Storyteller's rulings, who may act; and the typed declarations, bound as the router
binds them, so a character's name of several words ends where the parameters after it begin."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from gateway import Character, UserError
from gateway.core.params import ParamError, bind
from plugins.nightcap import params as P
from plugins.nightcap.acting import check_in_play
from plugins.nightcap.mechanics import score
from plugins.nightcap.npc_rolls import NpcSide, read_npc_roll
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.rulings import StMod, describe, note, read_st_mod
from plugins.nightcap.sides import build_side, label, pool_words, roll_side_result
from plugins.nightcap.words import split_opponent, split_power_words, split_roll_words


def sheet(status: str = "approved", **traits: int) -> Character:
    return cast(Character, SimpleNamespace(name="Mira", status=status, sheet={"traits": traits}))


# --- sides -------------------------------------------------------------------------------------


def test_a_trait_side_reads_the_rating_and_shows_the_wound_penalty() -> None:
    side = build_side(PoolSpec("phys", (2, -1)), sheet(physical=3), max_pool=20, wound=-1)
    assert (side.pool, side.trait, side.label, side.wound_penalty) == (
        3,
        "physical",
        "Physical 3+2-1 (wounds -1)",
        -1,
    )


def test_a_number_is_the_whole_pool_and_takes_no_wound_penalty() -> None:
    side = build_side(PoolSpec("4", (1,)), None, max_pool=20, wound=-2)
    assert (side.pool, side.trait, side.label, side.wound_penalty) == (5, None, "4+1", 0)
    assert build_side(PoolSpec("4"), None, max_pool=20).label == ""


@pytest.mark.parametrize(
    ("spec", "character", "refusal"),
    [
        (PoolSpec("21"), None, "A pool of 21 is above the maximum of 20 dice."),
        (PoolSpec("mental"), None, "Mental is a trait, and you have no active character"),
        (PoolSpec("strength"), None, "Unknown trait 'strength'."),
    ],
)
def test_a_side_is_refused_with_its_reason(spec: PoolSpec, character: Character | None, refusal: str) -> None:
    with pytest.raises(UserError) as caught:
        build_side(spec, character, max_pool=20)
    assert str(caught.value).startswith(refusal)


def test_the_roll_log_keeps_what_built_the_side() -> None:
    side = build_side(PoolSpec("physical", (1,)), sheet(physical=2), max_pool=20, wound=-1)
    kept = roll_side_result(side, score(side.pool, (8, 3)))
    assert {k: kept[k] for k in ("modifiers", "trait", "wound_penalty", "total")} == {
        "modifiers": [1],
        "trait": "physical",
        "wound_penalty": -1,
        "total": 1,
    }


def test_labels_and_pool_words() -> None:
    assert label("spirit", 3, [1, -2]) == "Spirit 3+1-2"
    assert [pool_words(n) for n in (0, 1, 4)] == ["a chance die", "1 die", "4 dice"]


# --- words -------------------------------------------------------------------------------------


def test_trailing_modifiers_willpower_and_secret_come_off_the_end() -> None:
    assert split_roll_words(["Shadow", "Step", "+1", "-2", "wp", "secret"]) == (
        ["Shadow", "Step"],
        [1, -2],
        True,
        True,
    )
    with pytest.raises(UserError, match="Modifiers stop at 1000"):
        split_roll_words(["x", "+1001"])


def test_a_power_name_keeps_its_words_and_a_last_tier_word_is_the_tier() -> None:
    name, tier, mods, wp, secret = split_power_words(["Mind", "Lock", "adept", "+1", "wp"])
    assert (name, tier.name if tier else None, mods, wp, secret) == (
        ["Mind", "Lock"],
        "adept",
        [1],
        True,
        False,
    )
    assert split_power_words(["Ward"])[:2] == (["Ward"], None)  # one word is the name, even a tier's


def test_an_opponent_named_before_their_trait() -> None:
    assert split_opponent(["social", "vs", "Dorian", "Gray", "mental", "+1"]) == (
        ["social", "vs", "mental", "+1"],
        "Dorian Gray",
    )
    assert split_opponent(["social", "vs", "mental"]) == (["social", "vs", "mental"], None)
    assert split_opponent(["social", "vs", "4"]) == (["social", "vs", "4"], None)


# --- NPC pools ---------------------------------------------------------------------------------


def test_npc_sides_around_vs() -> None:
    assert read_npc_roll("4 +1 the ghoul", "3 guard -1") == [
        NpcSide(4, (1,), "the ghoul"),
        NpcSide(3, (-1,), "guard"),
    ]
    assert read_npc_roll("2", None) == [NpcSide(2, (), "NPC")]
    assert read_npc_roll("2", "3")[1].who == "the opposition"


@pytest.mark.parametrize(
    ("pool", "against", "refusal"),
    [
        ("5 wp", None, "Willpower"),
        ("5", "3 vs 2", "A contest has two sides: write one vs."),
        ("ghoul", None, "st roll"),
    ],
)
def test_npc_pools_refused(pool: str, against: str | None, refusal: str) -> None:
    with pytest.raises(UserError, match=refusal):
        read_npc_roll(pool, against)


# --- rulings and who may act -------------------------------------------------------------------


def test_a_ruling_in_the_roll_line() -> None:
    ruling: dict[str, Any] = {"value": -1, "reason": "rushed", "proposed": [2]}
    assert describe(ruling) == "-1 (rushed)"
    assert note(ruling) == " (Storyteller's ruling -1 (rushed); proposed +2)"
    assert note({"value": 0, "reason": "", "proposed": []}) == " (Storyteller's ruling +0; proposed none)"
    assert note(None) == ""


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Mira Vance -1 rushed by the clock", StMod("Mira Vance", -1, "rushed by the clock")),
        ("Mira +0", StMod("Mira", 0)),
        ("Mira Vance clear", StMod("Mira Vance", clear=True)),
        ("Mira Vance", StMod("Mira Vance")),
    ],
)
def test_st_mod_words(line: str, read: StMod) -> None:
    assert read_st_mod(line.split()) == read


@pytest.mark.parametrize(
    ("line", "refusal"),
    [("", "Write st mod"), ("Mira clear now", "Write st mod"), ("Mira +21", "is -20 to")],
)
def test_st_mod_words_refused(line: str, refusal: str) -> None:
    with pytest.raises(UserError, match=refusal):
        read_st_mod(line.split())


def test_only_an_approved_sheet_acts() -> None:
    check_in_play(sheet(), "roll")
    with pytest.raises(UserError, match="works once a Storyteller approves"):
        check_in_play(sheet("creation"), "roll")
    with pytest.raises(UserError, match="takes no part in play"):
        check_in_play(sheet("submitted"), "roll", own=False)


# --- the declarations, as the router binds them ------------------------------------------------


@pytest.mark.parametrize(
    ("params", "line", "args"),
    [
        (P.ST_TRAIT, "Mira Vance physical 5", {"name": "Mira Vance", "trait": "physical", "value": 5}),
        (
            P.ST_SET,
            "Mira Vance origin Mage of the Sixth",
            {"name": "Mira Vance", "field": "origin", "value": "Mage of the Sixth"},
        ),
        (P.ST_POOL, "Mira Vance willpower 3", {"name": "Mira Vance", "pool": "willpower", "amount": 3}),
        (P.ST_POOL, "Mira Vance essence max 12", {"name": "Mira Vance", "pool": "essence", "max": 12}),
        (
            P.ST_POWER,
            "Mira Vance add Shadow Step adept physical",
            {"name": "Mira Vance", "action": "add", "power": "Shadow Step adept physical"},
        ),
        (P.ST_POWER, "Mira remove Shadow Step", {"name": "Mira", "action": "remove", "power": "Shadow Step"}),
        (
            P.POWER_ADD,
            "Shadow Step adept physical",
            {"name": "Shadow Step", "tier": "adept", "trait": "physical"},
        ),
        (P.ST_APPROVE, "Mira Vance force", {"name": "Mira Vance", "force": True}),
        (P.INIT_MOVE, "Mira Vance 1", {"name": "Mira Vance", "position": 1}),
        (P.ST_SOAK, "Big Ghoul 2", {"name": "Big Ghoul", "soak": 2}),
        (P.INIT_JOIN, "Big Ghoul 4", {"name": "Big Ghoul", "physical": 4}),
        (P.ST_ROLL, "4 +1 ghoul vs 3 secret", {"pool": "4 +1 ghoul", "against": "3", "secret": True}),
        (P.TEAM_ASSIST, "Mira Vance wp", {"name": "Mira Vance", "wp": True}),
        # A number out of a range the handler states: bound, so the handler can say so.
        (P.ST_TRAIT, "Mira physical -1", {"name": "Mira", "trait": "physical", "value": -1}),
    ],
)
def test_a_declaration_binds_a_name_of_several_words(params: Any, line: str, args: dict[str, Any]) -> None:
    assert bind(params, line.split()) == args


@pytest.mark.parametrize(
    ("params", "line", "problem"),
    [
        (P.ST_POOL, "Mira essence max -1", "too_low"),
        (P.ST_POOL, "Mira essence max 1001", "too_high"),
        (P.ST_POWER, "Mira", "missing"),
        (P.DAMAGE, "two", "not_integer"),
    ],
)
def test_a_declaration_refuses_before_the_handler(params: Any, line: str, problem: str) -> None:
    with pytest.raises(ParamError) as caught:
        bind(params, line.split())
    assert caught.value.problem == problem
