"""Issue 31, Dramatic Systems: a pool of no dice, a word said twice and a character resisting itself
are refused with the reason (and the usage line), nothing rolled or spent. Scripted dice throughout."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from gateway.vault.models import Pool
from plugins.dramatic.parse import ROLL_USAGE
from plugins.dramatic.rolls_commands import ODDS_USAGE
from tests.dramatic.test_commands import mira, refused, roll
from tests.helpers.chat import rows

DICE_POOL = "Roll a number of d10's equal to your dice pool."
RESISTED = "Resisted rolls: Two characters roll, successes cancel 1:1, defender wins ties."


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("roll -1", "-1 makes -1"),
        ("roll 0 diff 7", "0 makes 0"),
        ("roll 2-3", "2-3 makes -1"),
        ("roll 3 vs 0", "0 makes 0"),
        ("roll 3 vs 1-4", "1-4 makes -3"),
    ],
)
async def test_no_dice_is_refused_with_the_usage_line(dra: Chat, line: str, shown: str) -> None:
    """DICE_POOL: a pool of no dice is no roll ("0 dice → 0 successes (Failure)" before)."""
    text = await refused(dra, line)
    assert text == f"A pool needs at least one die; {shown}. Write {ROLL_USAGE}."


async def test_no_dice_from_the_sheet_and_in_odds(dra: Chat) -> None:
    """DICE_POOL: an Ability rated 0 alone is no pool either; ``odds`` says its own usage."""
    await mira(dra)
    assert (
        await refused(dra, "roll brawl")
        == f"A pool needs at least one die; Brawl 0 makes 0. Write {ROLL_USAGE}."
    )
    odds = await refused(dra, "odds -2")
    assert odds == f"A pool needs at least one die; -2 makes -2. Write {ODDS_USAGE}."
    assert (await refused(dra, "odds 3 vs 0")).endswith(f"Write {ODDS_USAGE}.")
    assert (await roll(dra, "roll dex+brawl", [6]))["pool"] == 1  # Dexterity 1 + Brawl 0: one die


async def test_no_dice_spends_no_willpower(dra: Chat) -> None:
    """A refused roll leaves the Willpower declared on it where it was."""
    await mira(dra)
    await refused(dra, "roll 4 wp vs 0")
    (wp,) = [p for p in await rows(dra, Pool) if p.name == "willpower"]
    assert wp.current == 5


@pytest.mark.parametrize("line", ["roll 3 spec spec", "roll 3 spec specialty", "roll 3 vs 2 spec spec"])
async def test_a_word_said_twice_is_refused(dra: Chat, line: str) -> None:
    """``roll 3 spec spec`` was accepted silently as one specialty: a slip, said back."""
    assert await refused(dra, line) == "spec is said once per side: write it one time."


async def test_reflex_and_secret_twice_are_refused(dra: Chat) -> None:
    assert await refused(dra, "roll 3 reflex reflex") == "reflex is said once per side: write it one time."
    assert await refused(dra, "roll 3 secret secret") == "secret is said once per side: write it one time."
    # once on each side of a resisted roll is one word per side
    assert (await roll(dra, "roll 1 spec vs 1 spec", [6, 2]))["kind"] == "contest"


async def test_a_character_does_not_resist_itself(dra: Chat) -> None:
    """RESISTED: two characters. Mira against Mira was rolled as a contest of one character."""
    await mira(dra, dexterity=3)
    text = await refused(dra, "roll dex vs Mira dex")
    assert text == (
        "Mira cannot resist Mira: a resisted roll is two characters. Name the other one, or give the"
        " defender's pool: vs POOL [diff N] [spec] or vs CHARACTER POOL, e.g. vs 4 or vs Bob dex+dodge."
    )
    assert (await refused(dra, "odds dex vs mira dex")).startswith("Mira cannot resist Mira")
    await mira(dra, as_="bob", name="Bob", dexterity=2)
    result = await roll(dra, "roll dex vs Bob dex", [7, 2, 2, 2, 2])
    assert [s["who"] for s in result["sides"]] == ["Mira", "Bob"]


async def test_char_list_exists(dra: Chat) -> None:
    """``char retire``'s refusal names ``char list``: it lists, as ``char`` does; ``char banana`` does not."""
    await mira(dra)
    listed = await dra.one("char list")
    assert listed.text == "Your Dramatic Systems characters: Mira. Active: Mira."
    assert (await dra.one("char")).text == listed.text
    wrong = await dra.one("char banana")
    assert wrong.error is not None and wrong.text.startswith(
        "Write char or char list to list your characters"
    )
