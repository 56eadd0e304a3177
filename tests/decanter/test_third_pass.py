"""Issue 31, Decanter: a pool of no dice, a word said twice, a character against itself, and an
extended contest that adds up a botch. Scripted dice throughout."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from plugins.decanter.mechanics import extended_total
from plugins.decanter.parse import ROLL_USAGE
from plugins.decanter.rolls_commands import ODDS_USAGE
from tests.decanter.test_commands import mira, refused, roll

DICE_POOL = (
    "Roll a number of 10-sided dice equal to your total dots in the assigned Attribute + Skill. This is"
    " known as your dice pool."
)
PC_VS_PC = (
    "If two PCs roll dice against each other and get the same result, the PC with the higher dice pool wins."
)
EXTENDED = (
    "Multiply the DC by anywhere from two to five: your character gets to make that many extra dice rolls,"
    " and adds up their total successes to determine if they beat the adjusted DC or not."
)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("roll -2 dc 3", "-2 makes -2"),
        ("roll 0 dc 1", "0 makes 0"),
        ("roll 0 dc 2 half", "0 makes 0"),
        ("roll 1-1 dc 2 aid 3", "1-1 makes 0"),
        ("roll 3 vs 0", "0 makes 0"),
    ],
)
async def test_no_dice_is_refused_with_the_usage_line(dec: Chat, line: str, shown: str) -> None:
    """DICE_POOL: ``roll -2 dc 3`` rolled 0 dice and logged a Botch."""
    assert await refused(dec, line) == f"A pool needs at least one die; {shown}. Write {ROLL_USAGE}."


async def test_no_dice_from_a_condition_and_in_odds(dec: Chat) -> None:
    """A Condition's dice penalty that takes the last die names the Condition; ``odds`` its usage."""
    assert (
        await refused(dec, "odds -1 dc 2")
        == f"A pool needs at least one die; -1 makes -1. Write {ODDS_USAGE}."
    )
    assert (await refused(dec, "odds 2 vs 0")).endswith(f"Write {ODDS_USAGE}.")
    await mira(dec, dexterity=1)
    added = await dec.one("cond add Injured resolved effect -1 dice")
    assert added.error is None, added.text
    text = await refused(dec, "roll dex dc 2")
    assert text == f"A pool needs at least one die; Dexterity 1 - 1 (Injured) makes 0. Write {ROLL_USAGE}."
    assert (await refused(dec, "odds dex dc 2")).startswith("A pool needs at least one die; Dexterity 1 - 1")


async def test_helpers_and_npcs(dec: Chat) -> None:
    """A helper rolls "their dice pool": one of no dice is refused; an NPC's pool is no roll, 0 is DC 1."""
    assert await refused(dec, "roll 3 dc 2 aid 0") == (
        "A helper's pool needs at least one die: aid 4, or aid npc 6 for an NPC."
    )
    assert (await refused(dec, "roll 3 dc 2 aid npc 0")).startswith("A helper's pool needs at least one die")
    assert (await roll(dec, "roll 1 vs npc 0", [6]))["dc"] == 1


@pytest.mark.parametrize("word", ["half", "force", "secret"])
async def test_a_word_said_twice_is_refused(dec: Chat, word: str) -> None:
    assert (
        await refused(dec, f"roll 3 dc 2 {word} {word}")
        == f"{word} is said once per roll: write it one time."
    )


async def test_qualities_still_add_up(dec: Chat) -> None:
    """``adv adv`` is Major Advantage (RULINGS: qualities add), not a slip."""
    result = await roll(dec, "roll 1 dc 1 adv adv force", [2, 6])
    assert result["quality"] == "major_advantage"


async def test_a_character_is_not_its_own_opponent(dec: Chat) -> None:
    """PC_VS_PC: two PCs. Mira against Mira was rolled as a contest."""
    await mira(dec, dexterity=2)
    text = await refused(dec, "roll dex vs Mira dex")
    assert text == (
        "Mira cannot roll against Mira: a contest is two characters. Name the other one, or give their"
        " pool: vs POOL or vs CHARACTER POOL, e.g. vs 4 or vs Bob dex+stealth."
    )
    assert (await refused(dec, "odds dex vs mira dex")).startswith("Mira cannot roll against Mira")


async def test_an_extended_contest_adds_no_negative_roll(dec: Chat) -> None:
    """EXTENDED: "adds up their total successes"; a botch has none, so it adds 0 ("−5 of 4" before)."""
    assert extended_total([-3, 2, -1, 1]) == 3
    assert (await dec.one("ext 2 2")).error is None
    botch = await roll(dec, "roll 3 ext", [1, 1, 2])
    assert (botch["successes"], botch["degree"], botch["extended"]["total"]) == (-2, "botch", 0)
    assert botch["_text"].endswith("Extended: 0 of 4 after 1 of 2 rolls.")
    last = await roll(dec, "roll 3 ext", [10, 6, 7])
    assert (last["extended"]["rolls"], last["extended"]["total"]) == ([-2, 4], 4)
    assert last["_text"].endswith("Extended contest over: 4 of 4 → Success.")


async def test_char_list_exists(dec: Chat) -> None:
    """``char retire``'s refusal names ``char list``: it lists, as ``char`` does."""
    assert (
        await dec.one("char list")
    ).text == "You have no Decanter characters yet: char new NAME makes one."
    await mira(dec)
    assert (await dec.one("char list")).text == "Your Decanter characters: Mira. Active: Mira."
    assert (await dec.one("char retire Nobody")).text == (
        "You have no Decanter character called Nobody: char list shows yours."
    )
