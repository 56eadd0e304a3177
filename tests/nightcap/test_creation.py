"""Creation through the router: every budget refusal with its exact text, submit, approve, prove, play."""

from __future__ import annotations

from gateway.testing import Chat
from tests.nightcap.helpers import audit_rows, build, character, ok, pools, refused


async def test_full_cycle_creation_submit_approve_play(chat: Chat) -> None:
    reply = await ok(chat, "char new Mira Vance")
    assert reply.private and reply.result == {"kind": "character", "name": "Mira Vance", "status": "creation"}
    for line in ("trait phys 3", "trait MENTAL 3", "trait so 2", "trait spi 2"):
        await ok(chat, line)
    await ok(chat, "power add Shadow Step adept physical")
    await ok(chat, "power add Ward basic spirit")
    await ok(chat, "char set origin Mage")
    await ok(chat, "char set subgroup Virtual Adept")
    await ok(chat, "char set apt locks")
    budget = await ok(chat, "char budget")
    assert budget.result is not None
    assert (budget.result["trait_points_left"], budget.result["power_dots_left"]) == (0, 0)
    assert budget.text.endswith("Ready: char submit.")

    # Prove is for approved sheets only.
    assert await refused(chat, "prove") == (
        "Mira Vance is not approved yet: prove works once a Storyteller approves the sheet"
        " (char submit when it is ready)."
    )
    submit = await ok(chat, "char submit")
    assert submit.text == "Mira Vance is submitted: a Storyteller will read the sheet and approve it."
    roster = await ok(chat, "st roster unlocked", "ana", st=True)
    assert roster.text == "Unlocked characters (1): Mira Vance (submitted, Mira)."
    approve = await ok(chat, "st approve Mira Vance", "ana", st=True)
    assert approve.text == (
        "Mira Vance is approved and locked; Willpower and Essence are full."
        " The sheet goes to the Storyteller log."
    )
    assert approve.result is not None
    assert approve.result["sheet"] == {
        "name": "Mira Vance",
        "status": "approved",
        "owner": "Mira",
        "fields": {
            "origin": "Mage",
            "subgroup": "Virtual Adept",
            "aptitude": "locks",
            "advantage": "",
            "weakness": "",
        },
        "traits": {"physical": 3, "mental": 3, "social": 2, "spirit": 2},
        "powers": [
            {"name": "Shadow Step", "tier": "adept", "trait": "physical"},
            {"name": "Ward", "tier": "basic", "trait": "spirit"},
        ],
        "pools": {
            "willpower": {"current": 5, "max": 5},
            "essence": {"current": 10, "max": 10},
            "damage": {"current": 0, "max": 10},
        },
    }
    assert await pools(chat, "Mira Vance") == {"willpower": (5, 5), "essence": (10, 10), "damage": (0, 10)}

    proof = await ok(chat, "+prove")
    assert not proof.private
    assert (
        proof.text == "Mira Vance: Physical 3, Mental 3, Social 2, Spirit 2 · Willpower 5/5 · Essence 10/10"
    )
    assert (await ok(chat, "prove")).text == proof.text

    # Play: a trait roll with Willpower, a power, the sheet.
    chat.dice.extend([9, 5, 10])
    roll = await ok(chat, "roll physical wp")
    assert roll.result is not None
    assert (roll.result["total"], roll.result["willpower"], roll.result["trait"]) == (4, True, "physical")
    assert roll.text == f"Mira Vance rolls Physical 3: 9 5 10 +1 WP → 4 (Strong) #{roll.result['id']}"
    chat.dice.extend([7, 2, 2])
    power = await ok(chat, "power use shadow")
    assert power.text.startswith(
        "Mira Vance uses Shadow Step at Adept (1 Essence, 9 left) and rolls Physical 3"
    )
    sheet = await ok(chat, "sheet")
    assert sheet.private
    assert sheet.text.splitlines() == [
        "Mira Vance (Nightcap, approved; player Mira)",
        "Origin: Mage · Subgroup: Virtual Adept · Aptitude: locks · Advantage: — · Weakness: —",
        "Traits: Physical 3, Mental 3, Social 2, Spirit 2",
        "Powers: Shadow Step (Adept, Physical); Ward (Basic, Spirit)",
        "Willpower 4/5, Essence 9/10, Health □□□□□□□□□□ 0/10",
    ]
    # Locked now.
    locked = "Mira Vance is approved and locked: changes go through a Storyteller."
    assert await refused(chat, "trait social 3") == locked
    assert await refused(chat, "char set origin Human") == locked
    assert await refused(chat, "power add Fog basic spirit") == locked
    assert await refused(chat, "power remove ward") == locked


async def test_every_budget_refusal_through_chat(chat: Chat) -> None:
    await ok(chat, "char new Mira")
    await ok(chat, "trait physical 4")
    assert (
        await refused(chat, "trait social 4")
        == "Social 4 would be a second trait at 4: Physical is already 4."
    )
    assert await refused(chat, "trait mental 5") == (
        "Mental 5 is above 4: no trait starts above 4; a Storyteller can raise it after approval."
    )
    assert await refused(chat, "trait spirit 0") == "Spirit 0 is below 1: every trait starts at 1."
    await ok(chat, "trait mental 3")
    assert await refused(chat, "trait social 3") == (
        "Social 3 would spend 7 trait points, 1 more than the 6 you have: lower another trait first."
    )
    assert (
        await refused(chat, "trait social x")
        == "trait: value must be a whole number, not 'x'. Usage: trait NAME N"
    )
    assert (
        await refused(chat, "trait charm 2")
        == "Unknown trait 'charm'. Traits: Physical, Mental, Social, Spirit."
    )
    assert await refused(chat, "trait s 2") == "'s' could be Social or Spirit; write more of it."
    assert await refused(chat, "power add Doom Gaze epic mental") == (
        "Epic powers are beyond starting reach: at creation a power is Basic, Adept or Advanced."
    )
    assert await refused(chat, "power add Doom Gaze legendary mental") == (
        "Legendary powers are beyond starting reach: at creation a power is Basic, Adept or Advanced."
    )
    assert await refused(chat, "power add Doom Gaze mythic mental") == (
        "Unknown tier 'mythic': write Basic, Adept, Advanced, Epic or Legendary."
    )
    await ok(chat, "power add Shadow Step adept physical")
    assert await refused(chat, "power add Fog adept spirit") == (
        "Fog (Adept) would spend 4 power dots, 1 more than the 3 you have:"
        " remove a power or pick a lower tier."
    )
    assert (
        await refused(chat, "power add shadow step basic spirit")
        == "Mira already has a power called Shadow Step."
    )
    assert await refused(chat, "char submit") == (
        "Mira cannot be submitted: 1 trait point still to place; 1 power dot still to spend."
    )
    await ok(chat, "trait social 2")
    assert await refused(chat, "char submit") == "Mira cannot be submitted: 1 power dot still to spend."
    await ok(chat, "power add Fog basic spirit")
    await ok(chat, "char submit")
    assert await refused(chat, "char submit") == "Mira is already submitted and waiting for a Storyteller."
    # Nothing refused was written: the sheet holds exactly what was accepted.
    c = await character(chat, "Mira")
    assert c.sheet["traits"] == {"physical": 4, "mental": 3, "social": 2, "spirit": 1}
    assert [p["name"] for p in c.sheet["powers"]] == ["Shadow Step", "Fog"]


async def test_an_edit_withdraws_a_submission(chat: Chat) -> None:
    await build(chat, approve=False)
    assert (await character(chat, "Mira")).status == "submitted"
    reply = await ok(chat, "char set weakness silver")
    assert (
        reply.text
        == "Mira: Weakness is now silver. Submission withdrawn: char submit again when you are done."
    )
    assert (await character(chat, "Mira")).status == "creation"
    # A refused edit does not withdraw it.
    await ok(chat, "char submit")
    await refused(chat, "trait physical 9")
    assert (await character(chat, "Mira")).status == "submitted"


async def test_several_characters_one_active(chat: Chat) -> None:
    await ok(chat, "char new Mira")
    await ok(chat, "char new Dorian")
    listing = await ok(chat, "char list")
    assert listing.text == "Your characters: Mira (creation), Dorian (creation, active)."
    await ok(chat, "char use mira")
    assert (
        await ok(chat, "char list")
    ).text == "Your characters: Mira (creation, active), Dorian (creation)."
    assert await refused(chat, "char new MIRA") == "There is already a Nightcap character called MIRA."
    assert await refused(chat, "char use Dorian", "bob") == (
        "You have no Nightcap character called Dorian: char list shows yours."
    )
    assert await refused(chat, "trait physical 2", "bob") == (
        "You have no active character here: char new NAME makes one, char use NAME picks one."
    )
    renamed = await ok(chat, "char set name Mira Vance")
    assert renamed.text == "Mira Vance: Name is now Mira Vance."
    assert await refused(chat, "char set name dorian") == "There is already a character called Dorian."


async def test_budget_text_and_power_remove(chat: Chat) -> None:
    await ok(chat, "char new Mira")
    await ok(chat, "trait physical 4")
    await ok(chat, "power add Ward basic spirit")
    budget = await ok(chat, "char budget")
    assert budget.text == (
        "Mira. Traits: Physical 4, Mental 1, Social 1, Spirit 1. Budget: 3 of 6 trait points left, 2 of 3"
        " power dots left; at 4: Physical (one allowed). Before submitting: 3 trait points still to place;"
        " 2 power dots still to spend."
    )
    removed = await ok(chat, "power remove wa")
    assert removed.text == "Mira forgets Ward. 3 power dots left."
    assert await refused(chat, "power remove ward") == "Mira has no power called ward."


async def test_player_edits_are_audited(chat: Chat) -> None:
    await ok(chat, "char new Mira")
    await ok(chat, "trait physical 3")
    rows = [(r.actor_key, r.action, r.field_name, r.old_value, r.new_value) for r in await audit_rows(chat)]
    assert rows == [
        ("console:mira", "char.new", None, None, "Mira"),
        ("console:mira", "char.trait", "physical", "1", "3"),
    ]


async def test_unverified_identities_cannot_make_characters(chat: Chat) -> None:
    text = await refused(chat, "char new Mira", verified=False)
    assert text.startswith("char new needs a verified account")


async def test_the_group_words_declare_nothing_and_answer_as_typed(chat: Chat) -> None:
    """``char``, ``power`` and ``extended`` declare ``params=()`` (each alone takes nothing; the
    router hands ``char new ...`` to ``char new``): the bare lines and the refusals are as before."""
    usage = (
        "char new NAME | char use NAME | char set FIELD TEXT | char submit | char budget | char list"
        " | char retire NAME"
    )
    assert await refused(chat, "char") == f"Write {usage}."
    assert await refused(chat, "char frob") == f"Unknown char command 'frob'. Write {usage}."
    power = "Write power add NAME TIER TRAIT, power remove NAME or power use NAME [TIER]."
    assert await refused(chat, "power") == power
    assert await refused(chat, "power learn Ward") == power
    await ok(chat, "char new Mira Vance")
    shown = await ok(chat, "extended")
    assert shown.text.startswith("No extended action under way for Mira Vance. Start one with extended start")
    assert (await refused(chat, "extended now")).startswith("Write extended start TARGET ROLLS [TRAIT] |")
