"""Powers against powers: both pay Essence up front, tier dice, a contest; Essence stays spent whoever
wins; refused before anything is spent when a side cannot pay; a challenge when it is another player's
Essence."""

from __future__ import annotations

from gateway.testing import Chat
from tests.conflict.helpers import make_character, outbox, pool, set_pool

MIND_LOCK = {"name": "Mind Lock", "tier": "adept", "trait": "mental"}
IRON_WILL = {"name": "Iron Will", "tier": "advanced", "trait": "mental"}
SPARK = {"name": "Spark", "tier": "basic", "trait": "spirit"}
DOOM = {"name": "Doom", "tier": "legendary", "trait": "spirit"}
ST = {"st": True}


async def cast(chat: Chat) -> tuple[int, int]:
    mira = await make_character(chat, "mira", "Mira", mental=3, essence=5, powers=[MIND_LOCK, SPARK, DOOM])
    dorian = await make_character(chat, "dorian", "Dorian", mental=2, essence=3, powers=[IRON_WILL])
    return mira, dorian


async def test_both_pay_and_the_loser_stays_paid(chat: Chat) -> None:
    mira, dorian = await cast(chat)
    chat.dice.extend([2, 2, 2, 2, 7, 7, 7, 2])  # Mira 3 + 1 tier = 4 dice; Dorian 2 + 2 tier = 4 dice
    reply = await chat.one("power use Mind Lock vs Dorian Iron Will", as_="mira", **ST)
    r = reply.result
    assert r is not None, reply.text
    assert (r["kind"], r["context"], r["outcome"], r["winner"], r["margin"]) == (
        "contest",
        "power",
        "clear",
        1,
        3,
    )
    assert [s["pool"] for s in r["sides"]] == [4, 4]
    assert r["powers"] == [
        {
            "name": "Mind Lock",
            "learned": "adept",
            "tier": "adept",
            "essence": 1,
            "tier_dice": 1,
            "trait": "mental",
            "essence_left": 4,
        },
        {
            "name": "Iron Will",
            "learned": "advanced",
            "tier": "advanced",
            "essence": 2,
            "tier_dice": 2,
            "trait": "mental",
            "essence_left": 1,
        },
    ]
    assert reply.text == (
        "Mira rolls Mind Lock (Adept): Mental 3 +1 tier = 4 dice: 2 2 2 2 → 0 (Failure) vs Dorian"
        " Iron Will (Advanced): Mental 2 +2 tier = 4 dice: 7 7 7 2 → 3 (Solid): Clear: Dorian wins by 3"
        f" (Mira pays 1 Essence, Dorian pays 2 Essence) #{r['id']}"
    )
    assert (await pool(chat, mira, "essence"), await pool(chat, dorian, "essence")) == (4, 1)


async def test_refused_before_anything_is_spent(chat: Chat) -> None:
    mira, dorian = await cast(chat)
    await set_pool(chat, dorian, "essence", 1)
    chat.dice.extend([7] * 8)
    refused = await chat.one("power use Mind Lock vs Dorian Iron Will", as_="mira", **ST)
    assert refused.error == "invalid"
    assert refused.text == "Iron Will at Advanced costs 2 Essence; Dorian has 1."
    assert (await pool(chat, mira, "essence"), await pool(chat, dorian, "essence")) == (5, 1)
    assert chat.dice.remaining == 8
    await set_pool(chat, mira, "essence", 0)
    basic = await chat.one("power use Spark vs 3", as_="mira")
    assert basic.text == "Spark at Basic is free but needs at least 1 Essence in the pool; Mira has 0."


async def test_lower_tier_costs_less_and_gives_fewer_dice(chat: Chat) -> None:
    _mira, dorian = await cast(chat)
    chat.dice.extend([7, 7, 7, 7, 2, 2, 2])  # Dorian at Adept: 2 + 1 = 3 dice
    r = (await chat.one("power use Mind Lock vs Dorian Iron Will adept", as_="mira", **ST)).result
    assert r is not None and r["sides"][1]["pool"] == 3 and r["powers"][1]["essence"] == 1
    assert await pool(chat, dorian, "essence") == 2
    assert (await chat.one("power use Mind Lock advanced vs 3", as_="mira")).error == "invalid"


async def test_legendary_adds_four_dice_and_mundane_sides_none(chat: Chat) -> None:
    mira, dorian = await cast(chat)
    chat.dice.extend([2, 2, 2, 2, 2, 5, 5])  # Doom: Spirit 1 + 4 = 5 dice vs Dorian Mental 2: 2 dice
    # As the Storyteller: another player's resistance is otherwise their answer to a challenge.
    reply = await chat.one("power use Doom vs Dorian mental", as_="mira", **ST)
    r = reply.result
    assert r is not None, reply.text
    assert [s["pool"] for s in r["sides"]] == [5, 2]
    assert r["powers"][1] is None
    assert await pool(chat, mira, "essence") == 1 and await pool(chat, dorian, "essence") == 3
    chat.dice.extend([10, 5, 7, 7, 7])  # Spark at Basic: Spirit 1, no tier dice, vs an NPC's 3+1 dice
    r = (await chat.one("power use Spark vs 3 +1", as_="mira")).result
    assert r is not None and [s["pool"] for s in r["sides"]] == [1, 4]
    assert (r["sides"][0]["total"], r["sides"][1]["total"], r["outcome"], r["winner"]) == (2, 3, "narrow", 1)
    assert await pool(chat, mira, "essence") == 1  # Basic is free


async def test_another_players_essence_needs_their_answer(chat: Chat) -> None:
    mira, dorian = await cast(chat)
    chat.dice.extend([5])
    await chat.say("roll 1", as_="dorian", channel="side-room")  # where Dorian's player is
    refused = await chat.one("power use Mind Lock vs Dorian Iron Will", as_="mira")
    assert refused.error == "forbidden"
    assert "they answer with defend power NAME [TIER]" in refused.text
    pending = await chat.one("power use Mind Lock vs Dorian", as_="mira")
    assert pending.result is not None and pending.result["status"] == "pending"
    assert pending.result["challenger"]["power"]["essence"] == 1
    assert pending.text.startswith("Mira challenges Dorian (Mind Lock (Adept): Mental 3 +1 tier).")
    assert await pool(chat, mira, "essence") == 4  # paid on declaring
    assert [(r.target, r.payload["result"]["status"]) for r in await outbox(chat)] == [
        ("side-room", "pending")
    ]
    chat.dice.extend([10, 7, 7, 2, 2, 2, 2, 2, 2])
    reply = await chat.one("defend power Iron Will +1", as_="dorian", channel="side-room")
    r = reply.result
    assert r is not None, reply.text
    assert [s["pool"] for s in r["sides"]] == [4, 5]
    assert (r["outcome"], r["winner"], r["margin"]) == ("decisive", 0, 4)
    assert [p["essence"] for p in r["powers"]] == [1, 2]
    assert reply.text.endswith(f"(Mira pays 1 Essence, Dorian pays 2 Essence) #{r['id']}")
    rows = await outbox(chat)
    assert [(row.target, row.payload["text"]) for row in rows[1:]] == [("main", reply.text)]
    assert (await pool(chat, mira, "essence"), await pool(chat, dorian, "essence")) == (4, 1)


async def test_a_power_challenge_conceded_gives_the_essence_back(chat: Chat) -> None:
    mira, _ = await cast(chat)
    await chat.one("power use Mind Lock wp vs Dorian", as_="mira")
    assert (await pool(chat, mira, "essence"), await pool(chat, mira, "willpower")) == (4, 3)
    conceded = await chat.one("concede", as_="dorian")
    assert conceded.text == "Dorian concedes to Mira: no dice, Mira wins. Willpower and 1 Essence returned."
    assert (await pool(chat, mira, "essence"), await pool(chat, mira, "willpower")) == (5, 4)


async def test_defending_a_power_with_a_trait_or_refusing_to_pay(chat: Chat) -> None:
    _mira, dorian = await cast(chat)
    await chat.one("power use Mind Lock vs Dorian", as_="mira")
    await set_pool(chat, dorian, "essence", 0)
    chat.dice.extend([7] * 6)
    poor = await chat.one("defend power Iron Will", as_="dorian")
    assert poor.text == "Iron Will at Advanced costs 2 Essence; Dorian has 0."
    assert chat.dice.remaining == 6
    r = (await chat.one("defend mental", as_="dorian")).result  # still pending: a plain trait answers
    assert r is not None and r["powers"][1] is None and [s["pool"] for s in r["sides"]] == [4, 2]


async def test_plain_power_use_still_works(chat: Chat) -> None:
    _mira, _ = await cast(chat)
    chat.dice.extend([9, 9, 9])
    reply = await chat.one("power use Mind Lock", as_="mira")
    assert reply.error is None and reply.result is not None and reply.result["power"]["essence"] == 1
