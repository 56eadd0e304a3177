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
    assert (await roll(dec, "roll composure dc 1 force", [6, 6, 6, 6]))["quality"] == "disadvantage"
    assert (await dec.one("* * *")).text == "The scene ends here. Expired: Shaken (Mira)."
    assert (await roll(dec, "roll composure dc 1 force", [6, 6]))["quality"] is None
    await dec.one("cond add Rattled effect mdis on composure")
    assert (await roll(dec, "roll composure dc 1 force", [6, 6, 6, 6]))["quality"] == "major_disadvantage"
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


# ---------------------------------------------------------------- 2. Story Points: every use, its cost


async def test_roll_bonus_takes_a_side_cost_per_point(dec: Chat) -> None:
    """The book, Roll Bonus: "Cost: 1 Story Point per extra success, plus pick one of the following
    costs per Story Point ... You incur +1 Stain ... You pay 2 XP"."""
    await mira(dec)
    await dec.one("sp give Mira 5", as_="gm", st=True)
    await dec.one("st set Mira xp 4", as_="gm", st=True)
    first = await roll(dec, "roll 4 dc 3", [6, 6, 2, 2])
    bonus = await dec.one("sp bonus 1 stain")
    assert bonus.error is None and bonus.result is not None
    assert bonus.result["successes"] == 3 and bonus.result["bonus_costs"] == ["stain"]
    assert bonus.text == (
        f"Mira adds 1 success to #{first['id']} for 1 Story Point, +1 Stain (now 1): 2 successes (Setback)"
        f" → 3 successes (Success) (4 Story Points left) #{bonus.result['id']}"
    )
    mixed = await dec.one("sp bonus 2 stain xp")
    assert mixed.error is None and "2 Story Points, +1 Stain (now 2), 2 XP (2 left)" in mixed.text
    assert (await sheet_of(dec))["stains"] == 2 and (await sheet_of(dec))["xp"] == 2
    assert await points(dec) == 2
    need = await dec.one("sp bonus 1")
    assert need.error is not None and "needs a cost per Story Point" in need.text
    assert (
        "Give one cost for all 2 Story Points, or one for each (3 given)"
        in (await dec.one("sp bonus 2 stain xp xp")).text
    )
    assert "That costs 4 XP; the sheet has 2" in (await dec.one("sp bonus 2 xp")).text
    assert "Did you mean stain" in (await dec.one("sp bonus 1 stian")).text
    assert await points(dec) == 2  # nothing refused was spent


async def test_roll_bonus_injured_hunger_and_a_condition(dec: Chat) -> None:
    """The book: "You take Injured -1 (mortals and ghouls only) • You take +1 Hunger or Craving
    (vampires and ghouls only) ... • You incur a Condition that costs equal Story Points to resist"."""
    await mira(dec, dexterity=3)
    await dec.one("sp give Mira 6", as_="gm", st=True)
    await dec.one("set kind mortal")
    await roll(dec, "roll 4 dc 3", [6, 6, 2, 2])
    assert (
        "Hunger or Craving is a cost for vampires and ghouls only"
        in (await dec.one("sp bonus 1 hunger")).text
    )
    hurt = await dec.one("sp bonus 1 injured")
    assert "Injured -1 (the Condition Injured, now -1 die)" in hurt.text
    # Injured is -1 die on every roll until it is resolved.
    injured = await roll(dec, "roll dex dc 1 force", [6, 6])
    assert injured["pool"] == 2 and injured["conditions"] == [{"name": "Injured", "quality": 0, "dice": -1}]
    pushed = await dec.one("sp bonus 2 condition Winded")
    assert "the Condition Winded (now 2 Story Points to resist)" in pushed.text
    winded = next(c for c in (await sheet_of(dec))["conditions"] if c["name"] == "Winded")
    assert winded["resist"] == 2 and winded["duration"] == "resolved"
    assert (await dec.one("cond")).text.endswith("Winded (until resolved; resist: 2 Story Points).")
    resisted = await dec.one("sp spend resist Winded")
    assert resisted.text == "Mira spends 2 Story Points on resisting Winded; 1 Story Point left."
    await dec.one("st set Mira kind ghoul", as_="gm", st=True)
    await roll(dec, "roll 4 dc 3", [6, 6, 2])  # Injured: 3 dice
    assert "+1 Craving (now 1)" in (await dec.one("sp bonus 1 craving")).text


async def test_roll_bonus_virtue_and_vice(dec: Chat) -> None:
    """The book: "If an action is in line with your PC's Virtue, you can choose to only pay a Story
    Point or XP cost. If an action is line with your Vice, you can choose to only pay a Stain or XP
    cost. You still can't add more successes than your remaining Story Points."""
    await mira(dec)
    await dec.one("sp give Mira 2", as_="gm", st=True)
    await roll(dec, "roll 4 dc 5", [6, 6, 2, 2])
    virtue = await dec.one("sp bonus 1 virtue")
    assert virtue.error is None and "for 1 Story Point:" in virtue.text and await points(dec) == 1
    vice = await dec.one("sp bonus 1 vice stain")
    assert vice.error is None and "for +1 Stain (now 1):" in vice.text and await points(dec) == 1
    assert "has 1 Story Points, not 2" in (await dec.one("sp bonus 2 vice stain")).text
    assert "pay only a Stain or XP" in (await dec.one("sp bonus 1 vice injured")).text


async def test_every_other_use_of_story_points(dec: Chat) -> None:
    """The book's uses and costs: Declaration "1-5 Story Points or 2-10 XP depending on the
    Declaration's scope"; Get Advice "1 Story Point or 2 XP per Discord message"; Get a Clue "1 Story
    Point or 2 XP per clue"; Initiate Flashback "1 Story Point or 2 XP"."""
    await mira(dec)
    await dec.one("sp give Mira 10", as_="gm", st=True)
    await dec.one("st set Mira xp 10", as_="gm", st=True)
    declared = await dec.one("sp spend declaration 2 I know a guy who can get rid of this hot car")
    assert declared.text == (
        "Mira spends 2 Story Points on a Declaration (scope 2): I know a guy who can get rid of this hot"
        " car; 8 Story Points left. If the Storyteller can give nothing useful or vetoes it, sp refund"
        " gives it back."
    )
    assert declared.result is not None and declared.result["use"] == "declaration"
    assert "2 Story Points on advice (2 messages)" in (await dec.one("sp spend advice 2")).text
    clue = await dec.one("sp spend get a clue")
    assert "1 Story Point on 1 clue; 5 Story Points left. If the Storyteller can give nothing" in clue.text
    assert (await dec.one("sp spend flashback xp")).text == "Mira spends 2 XP on a flashback; 8 XP left."
    assert "1-5 Story Points by its scope" in (await dec.one("sp spend declaration")).text
    assert "stops at 5" in (await dec.one("sp spend declaration 6")).text
    assert await points(dec) == 5
    stlog = [s.text for s in await dec.stlog() if s.kind == "story_points"]
    assert any("a Declaration" in line for line in stlog)


async def test_debts_and_secrets_cost_status_plus_earlier_purchases(dec: Chat) -> None:
    """The book, Hold Debt: "1 Story Points or 2 XP per debtor's highest Status, plus an additional 1
    Story Point or 2 XP per previous Debt you've purchased from them in the same story arc"; Know
    Secret the same per NPC."""
    await mira(dec)
    await dec.one("sp give Mira 10", as_="gm", st=True)
    first = await dec.one("sp spend debt The Prince 2")
    assert first.text.startswith(
        "Mira spends 2 Story Points on a Debt from The Prince (Status 2, 0 earlier this story); 8 Story"
        " Points left."
    )
    second = await dec.one("sp spend hold debt the prince 2")
    assert "3 Story Points on a Debt from the prince (Status 2, 1 earlier this story)" in second.text
    secret = await dec.one("sp spend secret The Prince 2")
    assert "2 Story Points on a secret about The Prince" in secret.text  # secrets count apart
    assert (
        "has 3 Story Points, not 4 (or pay 8 XP: add xp)"
        in (await dec.one("sp spend debt the prince 2")).text
    )
    assert "Only" not in (await dec.one("story end", as_="gm", st=True)).text
    assert (
        "2 Story Points on a Debt from the prince (Status 2, 0 earlier"
        in (await dec.one("sp spend debt the prince 2")).text
    )


async def test_spending_says_how(dec: Chat) -> None:
    """`sp spend 1` used to answer "sp NAME needs the Storyteller role"."""
    await mira(dec)
    await dec.one("sp give Mira 3", as_="gm", st=True)
    spend = await dec.one("sp spend 1")
    assert spend.error is not None and spend.text.startswith(
        "Spend Story Points on what? Write sp spend declaration N"
    )
    assert "To spend Story Points write sp spend" in (await dec.one("sp clue")).text
    assert "Did you mean declaration" in (await dec.one("sp spend declaratoin 1")).text
    assert "A Roll Bonus is sp bonus N COST" in (await dec.one("sp spend bonus 1")).text
    assert "to Storytellers only; sp alone shows yours" in (await dec.one("sp Bob")).text
    assert await points(dec) == 3


# ---------------------------------------------------------------- 3. sloppy input


async def test_long_forms_are_read(dec: Chat) -> None:
    """The book names the qualities in full: "Major Advantage", "Advantage", "Disadvantage", "Major
    Disadvantage"; and "Take Half"."""
    assert (await roll(dec, "roll 2 dc 2 advantage", [1, 2, 6, 6]))["quality"] == "advantage"
    assert (await roll(dec, "roll 2 dc 2 Disadvantage", [1, 2, 6, 6]))["quality"] == "disadvantage"
    assert (await roll(dec, "roll 2 dc 2 major advantage", [1, 7, 10]))["quality"] == "major_advantage"
    assert (await roll(dec, "roll 2 dc 1 major disadvantage", [10, 1, 2]))["quality"] == "major_disadvantage"
    assert (await roll(dec, "roll 7 dc 4 take half", []))["take_half"] is True
    odds = await dec.one("odds 2 dc 2 advantage")
    assert odds.result is not None and odds.result["quality"] == "advantage"


async def test_british_spelling_and_near_misses(dec: Chat) -> None:
    """The book's Skill is "Socialize" (Charisma + Socialize); a British hand writes socialise."""
    await mira(dec, charisma=2, socialize=1)
    assert (await roll(dec, "roll cha+socialise dc 2", [6, 6, 2]))["pool"] == 3
    assert (await dec.one("set socialise 2")).error is None
    assert "did you mean Firearms?" in await refused(dec, "roll dex+firarms dc 2")
    assert "Did you mean formidable (4)?" in await refused(dec, "roll 3 dc formidible")
    assert "Did you mean advantage?" in await refused(dec, "roll 3 dc 2 advantge")


async def test_negative_helpers_and_npcs_are_refused(dec: Chat) -> None:
    """ "(1/2 the NPC's [relevant Attribute + Skill dots], rounding down) + 1": dots are never
    negative, so `vs npc -1` is a typo, not an NPC of 0 dice (which made an automatic success)."""
    assert "An NPC's pool cannot be negative (-1)" in await refused(dec, "roll 3 vs npc -1")
    assert "A helper's pool cannot be negative (-2)" in await refused(dec, "roll 3 dc 2 aid -2")
    assert "cannot be negative" in (await dec.one("odds 3 vs npc -1")).text
    assert (await roll(dec, "roll 3 vs npc 4-1", [6, 6, 2]))["dc"] == 2


# ---------------------------------------------------------------- 4. more of the same kind, from a re-read


async def test_a_conditions_cost_from_the_shortfall(dec: Chat) -> None:
    """The book: "Many Conditions use a simple format: take a penalty or pay a cost equal to (DC -
    rolled successes) ... you roll 2 successes against a DC of 4 ... -2 Story Points if you want to
    resist"."""
    await mira(dec)
    await dec.one("sp give Mira 3", as_="gm", st=True)
    await roll(dec, "roll 4 dc 4", [6, 6, 2, 2])
    added = await dec.one("cond add Smitten resist shortfall penalty -2 Story Points for resisting")
    assert added.error is None, added.text
    smitten = (await sheet_of(dec))["conditions"][0]
    assert smitten["resist"] == 2 and smitten["penalty"] == "-2 Story Points for resisting"
    assert (await dec.one("sp spend resist smitten")).text.endswith("1 Story Point left.")
    await roll(dec, "roll 2 dc 1", [6, 6])
    assert "fell short of nothing" in (await dec.one("cond add Other resist shortfall")).text


async def test_the_storyteller_gives_a_spend_back(dec: Chat) -> None:
    """The book: "If the GM feels he could give no useful advice, you get the Story Point or XP back";
    "The GM will veto Declarations that are implausible"; "The GM may veto implausible Debts"."""
    await mira(dec)
    await dec.one("sp give Mira 5", as_="gm", st=True)
    await dec.one("st set Mira xp 4", as_="gm", st=True)
    await dec.one("sp spend advice")
    back = await dec.one("sp refund Mira", as_="gm", st=True)
    assert back.text == "Mira gets 1 Story Point back for advice." and await points(dec) == 5
    assert "no sp spend to give back" in (await dec.one("sp refund Mira", as_="gm", st=True)).text
    await dec.one("sp spend debt Prince 2 xp")
    assert (await dec.one("sp refund Mira", as_="gm", st=True)).text == "Mira gets 4 XP back for a Debt."
    data = await sheet_of(dec)
    assert data["xp"] == 4 and data["arc"] == {"debt:prince": 0}
    assert "Storyteller role" in (await dec.one("sp refund Mira")).text


async def test_three_asterisks_without_spaces(dec: Chat) -> None:
    """The book: "A scene is over when the player or GM posts three asterisks (* * *)"."""
    await mira(dec)
    await dec.one("cond add Shaken scene")
    assert (await dec.one("***")).text == "The scene ends here. Expired: Shaken (Mira)."


async def test_for_in_a_penalty_is_text_unless_it_names_a_character(dec: Chat) -> None:
    """A penalty in the book's own words may say "for": "-2 Story Points if you want to resist"."""
    await mira(dec, wits=2)
    gm = await dec.one("cond add Marked penalty Disadvantage on Wits for Mira", as_="gm", st=True)
    assert gm.text.startswith("Mira takes the Condition Marked")
    marked = (await sheet_of(dec))["conditions"][0]
    assert marked["penalty"] == "Disadvantage on Wits" and marked["effect"]["traits"] == ["wits"]
    await dec.one("cond add Owed penalty -1 Story Point for refusing")
    assert (await sheet_of(dec))["conditions"][1]["penalty"] == "-1 Story Point for refusing"


async def test_a_roll_bonus_on_a_contest(dec: Chat) -> None:
    """The book: Roll Bonus, "Add an extra success to any dice roll you've just made"; PC vs. PC: "If
    two PCs roll dice against each other and get the same result, the PC with the higher dice pool
    wins. If the PCs have the same dice pool, the players re-roll"."""
    await mira(dec, dexterity=3)
    await dec.one("sp give Mira 3", as_="gm", st=True)
    lost = await roll(dec, "roll dex vs 2", [6, 2, 2, 6, 6])
    assert lost["winner"] == 1
    bonus = await dec.one("sp bonus 1 stain")
    assert bonus.error is None and bonus.result is not None, bonus.text
    assert (bonus.result["winner"], bonus.result["decided_by"]) == (0, "pool")
    assert bonus.result["sides"][0]["successes"] == 2 and bonus.result["amends"] == lost["id"]
    assert ": Opponent wins (1–2) → Mira wins (2–2)" in bonus.text
    await roll(dec, "roll dex vs 3", [6, 2, 2, 6, 6, 2])
    assert "would tie equal pools" in (await dec.one("sp bonus 1 stain")).text
    assert "is a contest" in (await dec.one("downgrade")).text
    assert await points(dec) == 2
