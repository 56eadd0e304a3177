"""Play on an approved sheet: powers at every tier, damage and healing, the daily check-in, rolls."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from tests.nightcap.conftest import MakeChat
from tests.nightcap.helpers import build, ok, pools, refused, set_pool, stlog_rows


@pytest.fixture
async def mira(chat: Chat) -> Chat:
    await build(chat)
    for power, tier, trait in (
        ("Glamour", "advanced", "social"),
        ("Gaze", "epic", "mental"),
        ("Doom", "legendary", "spirit"),
    ):
        await ok(chat, f"st power Mira add {power} {tier} {trait}", "ana", st=True)
    return chat


@pytest.mark.parametrize(
    ("power", "tier", "cost", "trait_dice"),
    [
        ("Ward", "basic", 0, 2),
        ("Shadow Step", "adept", 1, 3),
        ("Glamour", "advanced", 2, 2),
        ("Gaze", "epic", 3, 3),
        ("Doom", "legendary", 4, 2),
    ],
)
async def test_power_cost_at_each_tier(mira: Chat, power: str, tier: str, cost: int, trait_dice: int) -> None:
    chat = mira
    need = max(cost, 1)
    await set_pool(chat, "Mira", "essence", need - 1)
    text = await refused(chat, f"power use {power}")
    if cost == 0:
        assert text == f"{power} at Basic is free but needs at least 1 Essence in the pool; Mira has 0."
    else:
        assert text == f"{power} at {tier.title()} costs {cost} Essence; Mira has {need - 1}."
    assert (await pools(chat, "Mira"))["essence"][0] == need - 1
    await set_pool(chat, "Mira", "essence", need)
    chat.dice.extend([7] * trait_dice)
    reply = await ok(chat, f"power use {power}")
    assert reply.result is not None
    assert reply.result["power"] == {
        "name": power,
        "learned": tier,
        "tier": tier,
        "essence": cost,
        "essence_left": need - cost,
    }
    assert reply.result["pool"] == trait_dice
    assert reply.result["total"] == trait_dice
    assert (await pools(chat, "Mira"))["essence"][0] == need - cost
    assert chat.dice.remaining == 0


async def test_power_below_its_tier_costs_the_lower_amount(mira: Chat) -> None:
    chat = mira
    await set_pool(chat, "Mira", "essence", 5)
    chat.dice.extend([7, 7])
    reply = await ok(chat, "power use doom adept")
    assert reply.text.startswith("Mira uses Doom at Adept (1 Essence, 4 left) and rolls Spirit 2: 7 7")
    assert await refused(chat, "power use shadow step advanced") == (
        "Shadow Step is learned at Adept; it cannot be used at Advanced. Use it at Adept or below."
    )
    assert await refused(chat, "power use fireball") == (
        "Mira has no power called fireball. Powers: Shadow Step, Ward, Glamour, Gaze, Doom."
    )
    assert (await pools(chat, "Mira"))["essence"][0] == 4


async def test_power_refused_spends_no_willpower(mira: Chat) -> None:
    chat = mira
    await set_pool(chat, "Mira", "essence", 0)
    await refused(chat, "power use shadow step wp")
    assert (await pools(chat, "Mira"))["willpower"] == (5, 5)
    await set_pool(chat, "Mira", "essence", 1)
    chat.dice.extend([1, 1, 1])
    reply = await ok(chat, "power use shadow step +0 wp")
    assert reply.result is not None and reply.result["degree"] == "botch" and reply.result["total"] == -2
    assert (await pools(chat, "Mira"))["willpower"] == (4, 5)


async def test_power_use_needs_approval(chat: Chat) -> None:
    await build(chat, approve=False)
    assert await refused(chat, "power use ward") == (
        "Mira is not approved yet: power use works once a Storyteller approves the sheet"
        " (char submit when it is ready)."
    )


async def test_damage_and_heal(mira: Chat) -> None:
    chat = mira
    assert await refused(chat, "heal") == "Mira has no damage to heal."
    reply = await ok(chat, "damage 3")
    assert reply.text == "Mira takes 3 damage: Health ■■■□□□□□□□ 3/10."
    await set_pool(chat, "Mira", "essence", 2)
    healed = await ok(chat, "heal")
    assert healed.text == "Mira spends 1 Essence (1/10 left) and heals 1 level: Health ■■□□□□□□□□ 2/10."
    assert await refused(chat, "heal 2") == "Healing 2 levels costs 2 Essence; Mira has 1: write heal 1."
    assert await refused(chat, "heal 3") == "Mira has only 2 damage to heal: write heal 2."
    assert await refused(chat, "heal 0") == "Write heal or heal N, with N a number of levels of at least 1."
    await set_pool(chat, "Mira", "essence", 5)
    healed = await ok(chat, "heal 2")
    assert healed.result == {
        "kind": "heal",
        "character": "Mira",
        "healed": 2,
        "essence": 3,
        "damage": 0,
        "levels": 10,
    }
    assert await pools(chat, "Mira") == {"willpower": (5, 5), "essence": (3, 10), "damage": (0, 10)}
    await ok(chat, "damage 4")
    await set_pool(chat, "Mira", "essence", 0)
    assert await refused(chat, "heal") == "Mira has no Essence to heal with: 1 Essence heals 1 level."
    final = await ok(chat, "damage 9")
    assert final.text == (
        "Mira takes 6 of the 9 damage: the Health track holds 10 levels and is now full,"
        " ■■■■■■■■■■ 10/10. Mira is Incapacitated."
    )
    health = await ok(chat, "health")
    assert health.private and health.text == "Mira's Health: ■■■■■■■■■■ 10/10 damage. Incapacitated."
    kinds = [row.kind for row in await stlog_rows(chat)]
    assert kinds.count("heal") == 2 and kinds.count("damage") == 3


async def test_checkin_twice_in_a_day_and_across_the_boundary(mira: Chat) -> None:
    chat = mira  # the clock says 2026-11-30 20:00 UTC: noon in Los Angeles
    await set_pool(chat, "Mira", "essence", 5)
    await set_pool(chat, "Mira", "willpower", 2)
    chat.dice.extend([10, 7])  # Spirit 2: three successes
    first = await ok(chat, "checkin")
    assert first.result is not None
    assert (first.result["essence_gained"], first.result["willpower_gained"]) == (3, 1)
    assert first.text == (
        "Mira checks in for 2026-11-30: Spirit 2: 10 7 → 3 (Solid); regains 3 Essence (8/10) and"
        " 1 Willpower (3/5). Next check-in: midnight America/Los_Angeles (2026-12-01 08:00 UTC),"
        " in 12 h 0 min."
        f" #{first.result['id']}"
    )
    assert await refused(chat, "checkin") == (
        "Mira has already checked in today (2026-11-30, America/Los_Angeles); the next check-in opens at"
        " midnight America/Los_Angeles (2026-12-01 08:00 UTC), in 12 h 0 min."
    )
    chat.clock.advance(hours=11, minutes=59, seconds=59)  # 23:59:59 Pacific
    assert (await refused(chat, "checkin")).endswith("in 1 min.")
    chat.clock.advance(seconds=1)  # midnight Pacific: a new day
    chat.dice.extend([10, 10])  # four successes, capped at 10 Essence
    second = await ok(chat, "checkin")
    assert second.result is not None
    assert (second.result["day"], second.result["essence_gained"]) == ("2026-12-01", 2)
    assert await pools(chat, "Mira") == {"willpower": (4, 5), "essence": (10, 10), "damage": (0, 10)}
    assert [r.kind for r in await stlog_rows(chat)].count("checkin") == 2


async def test_a_failed_checkin_still_gives_willpower(mira: Chat) -> None:
    chat = mira
    await set_pool(chat, "Mira", "essence", 5)
    await set_pool(chat, "Mira", "willpower", 5)
    chat.dice.extend([1, 3])
    reply = await ok(chat, "checkin")
    assert reply.result is not None
    assert (reply.result["degree"], reply.result["essence_gained"], reply.result["willpower_gained"]) == (
        "botch",
        0,
        0,  # already full: capped
    )
    assert await pools(chat, "Mira") == {"willpower": (5, 5), "essence": (5, 10), "damage": (0, 10)}


async def test_checkin_time_zone_is_a_setting(make_chat: MakeChat) -> None:
    chat = await make_chat(nightcap={"timezone": "Europe/Prague"})
    await build(chat)
    chat.clock.advance(hours=2, minutes=30)  # 22:30 UTC = 23:30 in Prague
    chat.dice.extend([2, 2])
    await ok(chat, "checkin")
    assert (await refused(chat, "checkin")).endswith(
        "the next check-in opens at midnight Europe/Prague (2026-11-30 23:00 UTC), in 30 min."
    )
    chat.clock.advance(minutes=30)
    chat.dice.extend([2, 2])
    await ok(chat, "checkin")


async def test_willpower_and_trait_rolls(mira: Chat) -> None:
    chat = mira
    await set_pool(chat, "Mira", "willpower", 1)
    chat.dice.extend([2, 2, 2])
    await ok(chat, "roll physical wp")
    assert await refused(chat, "roll physical wp") == "Mira has no Willpower left to spend."
    chat.dice.extend([7, 7, 2, 2, 2])
    reply = await ok(chat, "roll social vs mental")  # her own Social against her own Mental
    assert reply.result is not None
    assert reply.result["sides"][0]["trait"] == "social" and reply.result["sides"][1]["trait"] == "mental"
    assert reply.result["sides"][1]["pool"] == 3
    assert reply.text == (
        "Mira rolls Social 2: 7 7 → 2 (Solid) vs Mira Mental 3: 2 2 2 → 0 (Failure):"
        f" Clear: Social 2 wins by 2 #{reply.result['id']}"
    )


async def test_contest_against_another_characters_trait(chat: Chat) -> None:
    # Dorian Gray is Mira's player's other character: rolling his dice needs no other player's answer.
    await build(
        chat, "Dorian Gray", "mira", traits=(("physical", 2), ("mental", 4), ("social", 2), ("spirit", 2))
    )
    await build(chat)
    chat.dice.extend([7, 7, 10, 1, 2, 3])  # Mira's Social 2; Dorian's Mental 4
    reply = await ok(chat, "roll social wp vs dorian gray mental")
    assert reply.result is not None
    assert reply.result["opponent"] == "Dorian Gray"
    assert [s["pool"] for s in reply.result["sides"]] == [2, 4]
    assert reply.text == (
        "Mira rolls Social 2: 7 7 +1 WP → 3 (Solid) vs Dorian Gray Mental 4: 10 1 2 3 → 1"
        f" (Marginal): Clear: Mira wins by 2 #{reply.result['id']}"
    )
    assert await refused(chat, "roll social vs Nobody mental") == (
        "No Nightcap character called Nobody: write vs NAME TRAIT for another character,"
        " vs TRAIT for your own,"
        " or vs N for an NPC pool."
    )
    # "Willpower may be spent by either, and is declared before the dice": Dorian's own point.
    chat.dice.extend([7, 2, 10, 1, 2, 3])
    both = await ok(chat, "roll social vs dorian gray mental wp")
    assert both.text == (
        "Mira rolls Social 2: 7 2 → 1 (Marginal) vs Dorian Gray Mental 4: 10 1 2 3 +1 WP → 2 (Solid):"
        f" Narrow: Dorian Gray wins by 1 #{both.result['id']}"  # type: ignore[index]
    )
    assert (await pools(chat, "Dorian Gray"))["willpower"] == (5, 6)
    assert (await pools(chat, "Mira"))["willpower"] == (4, 5)


async def test_secret_roll_goes_privately_to_the_roller_and_to_the_stlog(make_chat: MakeChat) -> None:
    chat = await make_chat(stlog={"targets": ["discord:stlog", "console"]})
    await build(chat)
    chat.clock.advance(seconds=1)  # the log orders by time; at one instant a roll sorts first
    chat.dice.extend([8, 8, 8])
    reply = await ok(chat, "roll physical secret")
    assert reply.private
    assert reply.result is not None and reply.result["secret"] is True
    logged = (await stlog_rows(chat))[-1]
    assert logged.kind == "roll" and logged.text == "(secret) " + reply.text
    from tests.nightcap.helpers import outbox_rows

    rows = [r for r in await outbox_rows(chat) if r.payload.get("stlog_kind") == "roll"]
    assert [(r.platform, r.target) for r in rows] == [("discord", "stlog"), ("console", "")]
    assert all(r.payload["text"] == "(secret) " + reply.text for r in rows)
    assert all(r.payload["result"]["dice"] == [8, 8, 8] for r in rows)
