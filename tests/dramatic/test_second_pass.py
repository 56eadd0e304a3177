"""Issue 19, Dramatic Systems: retries repeat the action at its difficulty, and Ability substitution
and the lack of an Ability, as book 003 words them. Scripted dice throughout."""

from __future__ import annotations

import pytest

from gateway import UserError
from gateway.rules.pool_sum import parse_pool
from gateway.testing import Chat
from gateway.vault.models import SceneState
from plugins.dramatic.abilities import PRIMARY, SECONDARY, substitute
from plugins.dramatic.pools import read_pool
from plugins.dramatic.sheet import DramaticSheet
from tests.dramatic.test_commands import mira, refused, roll
from tests.helpers.chat import rows

RETRY = (
    "In non-combat situations, trying the same thing again after a failure (not botch) is typically +1"
    " difficulty (cumulative)."
)
SUBSTITUTION = (
    "If a roll is stated in terms of a primary ability, then a relevant secondary ability can be"
    " substituted at -1 difficulty. If a roll is stated in terms of a secondary ability, then a relevant"
    " primary ability can be substituted at +1 difficulty."
)


async def test_retry_keeps_the_actions_difficulty(dra: Chat) -> None:
    """RETRY: the same thing again is the named difficulty plus one, not the default plus one."""
    first = await roll(dra, "roll 3 diff 9", [2, 5, 3])
    assert (first["difficulty"], first["degree"]) == (9, "failure")
    second = await roll(dra, "roll 3 retry", [2, 5, 3])
    assert (second["difficulty"], second["retry"], second["base_difficulty"]) == (10, 1, 9)
    assert "at difficulty 10 (9 +1 for a retry)" in second["_text"]
    same = await roll(dra, "roll 3 diff 9 retry", [10, 5, 3])  # naming the same difficulty is fine
    assert (same["difficulty"], same["retry"], same["degree"]) == (10, 2, "success")


async def test_retry_of_another_pool_or_difficulty_is_refused(dra: Chat) -> None:
    """RETRY: "the same thing": another pool or another difficulty is a new action, said so."""
    await roll(dra, "roll 3 diff 9", [2, 5, 3])
    other_pool = await refused(dra, "roll 4 retry")
    assert other_pool == (
        "retry repeats Alice's latest action here, 3 at difficulty 9; 4 is another action: roll it without"
        " retry."
    )
    other_difficulty = await refused(dra, "roll 3 diff 7 retry")
    assert "at its difficulty, 9" in other_difficulty and "leave diff out" in other_difficulty
    assert (await roll(dra, "roll 3 retry", [2, 2, 2]))["difficulty"] == 10  # the record is intact


async def test_bare_retry_repeats_the_latest_action(dra: Chat) -> None:
    """RETRY: ``roll retry`` alone tries the same thing again: pool, difficulty and specialty."""
    await mira(dra, dexterity=2, brawl=1)
    await roll(dra, "roll dex+brawl diff 7 spec", [2, 5, 3])
    again = await roll(dra, "roll retry", [8, 5, 3])
    assert (again["pool"], again["difficulty"], again["specialty"]) == (3, 8, True)
    assert again["_text"].startswith("Mira rolls Dexterity 2 + Brawl 1 = 3 dice at difficulty 8 (7 +1")


async def test_the_same_traits_in_another_order_are_the_same_action(dra: Chat) -> None:
    await mira(dra, dexterity=2, brawl=1)
    await roll(dra, "roll dex+brawl", [2, 5, 3])
    assert (await roll(dra, "roll brawl + dexterity retry", [2, 5, 3]))["difficulty"] == 7
    assert "another action" in await refused(dra, "roll dex+brawl+1 retry")


async def test_a_new_action_replaces_the_record(dra: Chat) -> None:
    """One record per roller and channel, for the latest action; it lasts until the scene ends."""
    await roll(dra, "roll 3 diff 9", [2, 5, 3])
    await roll(dra, "roll 5", [2, 2, 2, 2, 2])
    assert "latest action here, 5 at difficulty 6" in await refused(dra, "roll 3 retry")
    (record,) = await rows(dra, SceneState)
    assert record.data["action"] == "5" and record.data["failures"] == 1


async def test_odds_of_a_retry_use_the_actions_difficulty(dra: Chat) -> None:
    await roll(dra, "roll 3 diff 8", [2, 5, 3])
    odds = await dra.one("odds 3 retry")
    assert odds.error is None and odds.result is not None
    assert odds.result["difficulty"] == 9
    assert "another action" in (await dra.one("odds 2 retry")).text


async def test_a_secondary_for_a_primary_is_one_easier(dra: Chat) -> None:
    """SUBSTITUTION: a roll stated in Streetwise (primary), rolled with Gang Lore (secondary): -1."""
    await mira(dra, wits=2)
    assert (await dra.one("set secondary gang lore 2")).error is None
    sheet = await dra.one("sheet")
    assert sheet.result is not None and sheet.result["sheet"]["secondary"] == {"gang_lore": 2}
    assert "Secondary Abilities: Gang Lore 2." in sheet.text
    result = await roll(dra, "roll wits+gang_lore for streetwise", [5, 2, 8, 3])
    assert (result["pool"], result["difficulty"], result["substitution"], result["successes"]) == (
        4,
        5,
        -1,
        2,  # the 5 succeeds at 5
    )
    assert (
        "Wits 2 + Gang Lore 2 = 4 dice at difficulty 5 (6 -1 for Gang Lore instead of Streetwise)"
        in (result["_text"])
    )


async def test_a_primary_for_a_secondary_is_one_harder(dra: Chat) -> None:
    """SUBSTITUTION: a roll stated in a secondary Ability, rolled with a primary one: +1."""
    await mira(dra, wits=2, streetwise=1)
    result = await roll(dra, "roll wits+streetwise for gang lore diff 6", [7, 6, 2])
    assert (result["difficulty"], result["substitution"], result["successes"]) == (7, 1, 1)
    assert "difficulty 7 (6 +1 for Streetwise instead of Gang Lore)" in result["_text"]


async def test_substitution_goes_between_the_two_kinds_once(dra: Chat) -> None:
    """SUBSTITUTION, and "If a substitution is explicitly mentioned below, then it's reiterating these
    clauses, not stacking with them": one substitution, from one kind to the other."""
    await mira(dra, wits=2, brawl=1, streetwise=1)
    await dra.one("set secondary gang_lore 2")
    both_primary = await refused(dra, "roll wits+brawl for streetwise")
    assert "substitutes a secondary Ability for it (at -1 difficulty), and this pool has none" in both_primary
    assert "leave for out" in await refused(dra, "roll wits+streetwise for streetwise")
    assert "once" in await refused(dra, "roll wits+gang_lore for streetwise for streetwise")
    assert "Attribute" in await refused(dra, "roll wits+gang_lore for wits")
    assert "cannot name a secondary" in (await dra.one("set secondary brawl 2")).text


async def test_a_substituted_retry_adds_to_the_substituted_difficulty(dra: Chat) -> None:
    await mira(dra, wits=2)
    await dra.one("set secondary gang_lore 2")
    await roll(dra, "roll wits+gang_lore for streetwise", [2, 2, 2, 2])
    again = await roll(dra, "roll retry", [2, 2, 2, 2])
    assert again["difficulty"] == 6
    assert "difficulty 6 (6 -1 for Gang Lore instead of Streetwise, +1 for a retry)" in again["_text"]
    assert "another action" in await refused(dra, "roll wits+gang_lore retry")


async def test_rolling_without_the_ability_says_so(dra: Chat) -> None:
    """ "If you don't have the ability at all, then consult the Lack of Ability guidelines." The book
    does not give them, so the roll goes at the named difficulty and says the Storyteller rules on it."""
    await mira(dra, wits=1)
    result = await roll(dra, "roll wits+streetwise", [7])
    assert result["lacking"] == ["streetwise"] and result["difficulty"] == 6
    assert result["_text"] == (
        "Mira rolls Wits 1 + Streetwise 0 = 1 die at difficulty 6 (no Streetwise: the book's Lack of Ability"
        f" guidelines, the Storyteller's call): 7 → 1 success (Success) #{result['id']}"
    )
    rated = await roll(dra, "roll wits", [7])
    assert rated["lacking"] == [] and "Lack of Ability" not in rated["_text"]


async def test_a_reflex_roll_is_no_action(dra: Chat) -> None:
    """ ""Reflex" rolls don't count as actions": a reflex between two tries leaves the retry alone."""
    await roll(dra, "roll 3 diff 8", [2, 5, 3])
    reflex = await roll(dra, "roll 2 reflex", [2, 2])
    assert reflex["reflex"] is True and "(a reflex: no action)" in reflex["_text"]
    assert (await roll(dra, "roll 3 retry", [2, 5, 3]))["difficulty"] == 9
    assert "write retry or reflex" in await refused(dra, "roll 3 retry reflex")


def test_substitution_as_a_pure_function() -> None:
    """SUBSTITUTION, the two clauses and nothing else, as ``abilities.substitute`` reads them."""
    assert substitute("streetwise", PRIMARY, {"gang_lore": SECONDARY}).adjustment == -1
    assert substitute("gang_lore", SECONDARY, {"streetwise": PRIMARY}).adjustment == 1
    with pytest.raises(UserError):
        substitute("streetwise", PRIMARY, {"brawl": PRIMARY})
    with pytest.raises(UserError):
        substitute("streetwise", PRIMARY, {"gang_lore": SECONDARY, "street_lore": SECONDARY})


def test_one_action_whatever_the_order_of_its_traits() -> None:
    sheet = DramaticSheet(abilities={"brawl": 1}, secondary={"gang_lore": 2})
    one = read_pool(parse_pool(["dex+brawl"], ""), sheet)
    other = read_pool(parse_pool(["brawl", "+", "dexterity"], ""), sheet)
    assert one.action == other.action == "brawl+dexterity"
    assert read_pool(parse_pool(["3"], ""), None).action == "3"
    mixed = read_pool(parse_pool(["wits+gang_lore+streetwise"], ""), sheet)
    assert (mixed.dice, mixed.lacking) == (3, ("streetwise",))
    assert mixed.abilities == {"gang_lore": SECONDARY, "streetwise": PRIMARY}
