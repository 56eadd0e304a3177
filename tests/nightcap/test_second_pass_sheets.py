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
