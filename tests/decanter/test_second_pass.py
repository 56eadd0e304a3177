"""Decanter, second pass (issue 19): Conditions that change rolls, every use of Story Points with its
cost, and sloppy input read kindly or refused. Scripted dice; each test quotes the book."""

from __future__ import annotations

from typing import Any

from gateway.testing import Chat
from gateway.vault.models import Character, Pool
from tests.decanter.test_commands import mira, refused, roll
from tests.helpers.chat import rows


async def points(chat: Chat, name: str = "Mira") -> int:
    chars = {c.id: c.name for c in await rows(chat, Character)}
    return next(
        p.current
        for p in await rows(chat, Pool)
        if p.name == "story_points" and chars[p.character_id] == name
    )


async def sheet_of(chat: Chat, name: str = "Mira") -> dict[str, Any]:
    return next(c.sheet for c in await rows(chat, Character) if c.name == name)


# ---------------------------------------------------------------- 1. Conditions impose a penalty


async def test_a_condition_gives_disadvantage_on_its_rolls(dec: Chat) -> None:
    """The book: "Penalty: Conditions impose some kind of penalty on your character, such as
    Disadvantage on a type of roll"; "Disadvantage: Roll twice and use the worse result"."""
    await mira(dec, composure=2, wits=2)
    added = await dec.one("cond add Shaken scene penalty Disadvantage on Composure rolls")
    assert added.text == (
        "Mira takes the Condition Shaken (until the scene ends). Effect: Disadvantage on Composure rolls."
    )
    shaken = await roll(dec, "roll composure dc 1 force", [6, 6, 1, 2])
    assert (shaken["quality"], shaken["results"], shaken["successes"]) == ("disadvantage", [2, -1], -1)
    assert shaken["conditions"] == [{"name": "Shaken", "quality": -1, "dice": 0}]
    assert shaken["_text"].startswith(
        "Mira rolls Composure 2 = 2 dice with Disadvantage (Condition Shaken: Disadvantage) vs DC 1 (Easy): "
    )
    # Another type of roll is untouched.
    plain = await roll(dec, "roll wits dc 1 force", [6, 6])
    assert plain["quality"] is None and plain["conditions"] == []
    # Typed Advantage and the Condition's Disadvantage cancel ("Dice qualities can stack or cancel").
    cancelled = await roll(dec, "roll composure dc 1 force adv", [6, 1])
    assert cancelled["quality"] is None and cancelled["conditions"][0]["name"] == "Shaken"


async def test_odds_apply_the_condition(dec: Chat) -> None:
    """The odds of a roll are the odds of the roll the character would make, Conditions included."""
    await mira(dec, composure=2)
    await dec.one("cond add Shaken scene effect dis on composure")
    odds = await dec.one("odds composure dc 1 force")
    assert odds.result is not None and odds.result["quality"] == "disadvantage"
    assert "with Disadvantage (Condition Shaken: Disadvantage)" in odds.text
    await dec.one("cond resolve Shaken")
    assert (await dec.one("odds composure dc 1 force")).result["quality"] is None  # type: ignore[index]


async def test_a_dice_penalty_on_named_traits(dec: Chat) -> None:
    """The book: Conditions "can also impose a dice penalty on certain rolls"."""
    await mira(dec, dexterity=3, firearms=2, strength=2)
    added = await dec.one("cond add Winged effect -2 dice on dex, firearms penalty Shot in the arm")
    assert "Effect: -2 dice on Dexterity, Firearms rolls." in added.text
    hurt = await roll(dec, "roll dex+firearms dc 2", [6, 6, 2])
    assert hurt["pool"] == 3 and hurt["conditions"] == [{"name": "Winged", "quality": 0, "dice": -2}]
    assert hurt["_text"].startswith(
        "Mira rolls Dexterity 3 + Firearms 2 - 2 = 3 dice (Condition Winged: -2 dice) vs DC 2 (Routine): "
    )
    # The penalty counts before the automatic success: 5 dice against DC 2 would need no roll.
    assert hurt["automatic"] is False
    assert (await roll(dec, "roll strength dc 1", [6, 2]))["conditions"] == []


async def test_a_group_and_every_roll(dec: Chat) -> None:
    """ "Disadvantage on a type of roll": a group (Social) or every roll."""
    await mira(dec, charisma=2, persuasion=1, wits=1)
    await dec.one("cond add Flustered penalty Disadvantage on Social rolls")
    social = await roll(dec, "roll cha+persuasion dc 3", [6, 6, 6, 2, 2, 2])
    assert social["quality"] == "disadvantage"
    assert (await roll(dec, "roll wits dc 3", [6]))["quality"] is None
    await dec.one("cond add Drained penalty -1 die")
    drained = await roll(dec, "roll wits+1 dc 3", [6])
    assert drained["pool"] == 1 and drained["conditions"][0]["name"] == "Drained"
    # Two Disadvantages stack to Major Disadvantage, on the RULINGS scale.
    await dec.one("cond add Dazed effect dis")
    both = await roll(dec, "roll cha+persuasion dc 3", [6, 6, 1, 2])
    assert both["quality"] == "major_disadvantage" and len(both["conditions"]) == 3


async def test_free_text_stays_text(dec: Chat) -> None:
    """A penalty the gateway cannot apply is kept as the book's text and says so."""
    await mira(dec, composure=2)
    added = await dec.one('cond add Smitten penalty "-2 Story Points if you want to resist"')
    assert added.text.endswith(
        "Its penalty is text only; for one that rolls apply, add e.g. effect dis on composure."
    )
    assert (await roll(dec, "roll composure dc 1 force", [6, 6]))["conditions"] == []
    assert "cannot read 'sometimes' as an effect" in (await dec.one("cond add Odd effect sometimes")).text
    assert "did you mean Composure" in (await dec.one("cond add Odd effect dis on composre")).text


async def test_the_effect_ends_with_the_condition_and_the_scene(dec: Chat) -> None:
    """The book: "A scene is over when the player or GM posts three asterisks (* * *)"; scene-long
    Conditions end with it, and their penalty with them."""
    await mira(dec, composure=2)
    await dec.one("cond add Shaken scene penalty Disadvantage on Composure rolls")
    assert (await dec.one("* * *")).text == "The scene ends here. Expired: Shaken (Mira)."
    assert (await roll(dec, "roll composure dc 1 force", [6, 6]))["quality"] is None
    await dec.one("cond add Rattled effect mdis on composure")
    await dec.one("cond resolve rattled")
    assert (await roll(dec, "roll composure dc 1 force", [6, 6]))["quality"] is None


async def test_take_half_with_a_conditions_disadvantage(dec: Chat) -> None:
    """The book: "If you have Advantage or Disadvantage when you Take Half, you roll normally once"."""
    await mira(dec, composure=4)
    await dec.one("cond add Shaken effect dis on composure")
    half = await roll(dec, "roll composure dc 3 half", [10, 6, 6, 2])
    assert (half["results"], half["successes"]) == ([4, 2], 2)
    await dec.one("cond add Broken effect dis")
    assert "Major qualities need dice to re-roll (Shaken, Broken)" in await refused(
        dec, "roll composure dc 3 half"
    )


async def test_the_opponents_conditions_apply_in_a_contest(dec: Chat) -> None:
    """PC vs PC: each side rolls its own pool, its own Conditions with it."""
    await mira(dec, dexterity=2)
    assert (await dec.one("char new Bob", as_="bob")).error is None
    await dec.one("st set Bob wits 2", as_="gm", st=True)
    await dec.one("cond add Blinded effect dis on wits", as_="bob")
    result = await roll(dec, "roll dex vs Bob wits", [6, 2, 6, 6, 1, 2])
    assert result["sides"][1]["quality"] == "disadvantage"
    assert result["sides"][1]["conditions"] == [{"name": "Blinded", "quality": -1, "dice": 0}]
    assert "Bob Wits 2 = 2 dice with Disadvantage (Condition Blinded: Disadvantage)" in result["_text"]
