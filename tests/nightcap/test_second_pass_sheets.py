"""Issue 19, Nightcap sheets: damage past the track, separate ties, the budget of an ST-edited sheet,
approving what was never submitted."""

from __future__ import annotations

from gateway.testing import Chat
from tests.nightcap.helpers import build, ok, pools, refused


async def test_damage_past_the_track_says_what_was_marked(chat: Chat) -> None:
    """The book: "Wounds Ten levels, then out ... At 10 you are Incapacitated: no more actions"."""
    await build(chat)
    first = await ok(chat, "damage 6")
    assert first.text == "Mira takes 6 damage: Health ■■■■■■□□□□ 6/10."
    over = await ok(chat, "damage 20")
    assert over.text == (
        "Mira takes 4 of the 20 damage: the Health track holds 10 levels and is now full,"
        " ■■■■■■■■■■ 10/10. Mira is Incapacitated."
    )
    assert over.result is not None and (over.result["amount"], over.result["marked"]) == (20, 4)
    assert (await pools(chat, "Mira"))["damage"] == (10, 10)
    assert await refused(chat, "damage 1") == (
        "Mira's Health track is already full (10/10): Mira is Incapacitated and no more damage is marked."
    )


async def test_two_ties_at_one_total_are_marked_each_on_its_own(chat: Chat) -> None:
    """The book, Combat turn order: "Ties are broken by the higher Physical rating, and then by the
    Storyteller." Two pairs at total 1, one pair at Physical 3 and one at Physical 2, are two ties."""
    st = {"as_": "ana", "st": True}
    await ok(chat, "init start", **st)
    for name, physical in (("Ash", 2), ("Bex", 2), ("Cole", 3), ("Dee", 3)):
        await ok(chat, f"init join {name} {physical}", **st)
    chat.dice.extend([7, 3, 8, 2, 7, 3, 4, 9, 2, 2])  # every total 1
    await ok(chat, "init roll", **st)
    listing = await ok(chat, "init list", **st)
    assert listing.text == (
        "Round 1: 1. ▶ Cole (1, tied with Dee), 2. Dee (1, tied with Cole), 3. Ash (1, tied with Bex),"
        " 4. Bex (1, tied with Ash). Ties are for the Storyteller: init move NAME POS."
    )
    assert listing.result is not None
    assert [e["tied_with"] for e in listing.result["order"]] == [["Dee"], ["Cole"], ["Bex"], ["Ash"]]
    moved = await ok(chat, "init move Ash 4", **st)  # settles the Physical 2 tie only
    assert moved.text == (
        "Round 1: 1. ▶ Cole (1, tied with Dee), 2. Dee (1, tied with Cole), 3. Bex (1), 4. Ash (1)."
        " Ties are for the Storyteller: init move NAME POS."
    )


async def test_a_sheet_past_creation_reads_over_budget_never_a_negative_left(chat: Chat) -> None:
    """The book: "The ST HUD enforces no limits: traits above 4, more powers than a player could
    buy"; and "Traits Six points to place". Unapprove keeps the Storyteller's edits and says the
    sheet is outside the budget; the player may lower a trait back into it and submit again."""
    await build(chat)
    await ok(chat, "st trait Mira physical 100", "ana", st=True)
    back = await ok(chat, "st unapprove Mira", "ana", st=True)
    assert back.text == (
        "Mira is back in creation: the player can edit the sheet again. The sheet keeps the"
        " Storyteller's edits, which are outside the creation budget (Physical 100 is above 4;"
        " 97 trait points too many): char submit refuses it until it fits, or st approve Mira force"
        " approves it as it stands."
    )
    budget = await ok(chat, "char budget")
    assert "-" not in budget.text, budget.text
    assert budget.text.startswith(
        "Mira. Traits: Physical 100, Mental 3, Social 2, Spirit 2. Budget: 97 trait points over the 6,"
        " 0 of 3 power dots left; at 4: Physical (one allowed)."
    )
    assert budget.result is not None
    assert (budget.result["trait_points_left"], budget.result["trait_points_over"]) == (0, 97)
    raised = await refused(chat, "trait mental 4")
    assert raised.startswith("Mental 4 would be a second trait at 4: Physical is already 100.")
    lowered = await ok(chat, "trait mental 1")  # nearer the budget: allowed, and still over
    assert lowered.text == "Mira: Mental 1. 95 trait points over budget."
    assert lowered.result is not None and (lowered.result["left"], lowered.result["over"]) == (0, 95)
    assert (await refused(chat, "trait physical 50")).startswith("Physical 50 is above 4")
    assert (await ok(chat, "trait physical 3")).text == "Mira: Physical 3. 2 trait points left."
    await ok(chat, "trait mental 3")
    await ok(chat, "char submit")


async def test_approving_an_unsubmitted_sheet_with_budget_left_needs_force(chat: Chat) -> None:
    """The book: "When the budget is spent, tell a Storyteller. They read the sheet and lock it." An
    empty sheet nobody submitted is refused, with what it lacks; ``force`` approves it as it stands."""
    await ok(chat, "char new Wren", "wren")
    line = await refused(chat, "st approve Wren", "ana", st=True)
    assert line == (
        "Wren is not submitted and the budget is not spent (6 trait points still to place; 3 power dots"
        " still to spend). The player finishes the sheet and submits it with char submit;"
        " st approve Wren force approves it as it stands."
    )
    assert (await pools(chat, "Wren"))["willpower"] == (0, 2)  # nothing was written
    forced = await ok(chat, "st approve Wren force", "ana", st=True)
    assert forced.text.startswith(
        "Wren is approved and locked (not submitted; outside the creation budget: 6 trait points still"
        " to place; 3 power dots still to spend); Willpower and Essence are full."
    )


async def test_a_storyteller_built_sheet_is_approved_without_submission(chat: Chat) -> None:
    """The book: "The ST HUD enforces no limits". A sheet whose budget a Storyteller spent (and
    more) is approved as the HUD's toggle asks, and the reply says it was not submitted."""
    await build(chat, "Nix", "nix", submit=False, approve=False)
    await ok(chat, "st trait Nix spirit 7", "ana", st=True)
    done = await ok(chat, "st approve Nix", "ana", st=True)
    assert done.text.startswith(
        "Nix is approved and locked (not submitted; outside the creation budget: Spirit 7 is above 4;"
        " 5 trait points too many); Willpower and Essence are full."
    )
    await build(chat, "Pim", "pim", approve=False)
    plain = await ok(chat, "st approve Pim", "ana", st=True)  # submitted: no note
    assert plain.text.startswith("Pim is approved and locked; Willpower and Essence are full.")
