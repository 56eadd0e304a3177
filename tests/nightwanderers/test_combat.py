"""Initiative, melee and ranged combat, soak, sunlight and fire, hunting and stealth."""

from __future__ import annotations

from gateway.testing import Chat


async def setup(nw: Chat) -> None:
    """Maxina (vampire, Brawl 3, Strength 2, Defence 2, Dodge 1, Shooting 3) and Ivan (human)."""
    assert (await nw.one("char new Maxina dragazhar", as_="olga")).error is None
    for field, value in {
        "brawl": 3,
        "strength": 2,
        "defence": 2,
        "dodge": 1,
        "shooting": 3,
        "mind": 2,
        "sneak": 2,
    }.items():
        assert (await nw.one(f"st set Maxina {field} {value}", as_="st", st=True)).error is None
    assert (await nw.one("char new Ivan human", as_="ivan")).error is None
    for field, value in {"defence": 1, "inspection": 2, "brawl": 2, "strength": 3}.items():
        assert (await nw.one(f"st set Ivan {field} {value}", as_="st", st=True)).error is None
    await nw.one("lang en", as_="olga")
    await nw.one("lang en", as_="ivan")
    await nw.one("lang en", as_="st")


async def test_initiative_powers_then_2d6_lower_first_then_1d6(nw: Chat) -> None:
    for line in (
        "init add Slow",
        "init add Rat celerity basic",
        "init add Bat celerity advanced",
        "init add Wolf hunting",
        "init add Cat",
        "init add Dog",
    ):
        assert (await nw.one(line, as_="st", st=True)).error is None
    # Slow, Cat, Dog tie on powers: 2d6 each. Slow 3+4=7, Cat 2+2=4, Dog 5+2=7 -> Cat, then Slow/Dog
    # tied on 7: 1d6 lower first: 4 and 4 again, then 5 and 2 -> Dog, Slow.
    nw.dice.extend([3, 4, 2, 2, 5, 2, 4, 4, 5, 2])
    reply = await nw.one("init roll", as_="st", st=True)
    assert reply.result["order"] == ["Wolf", "Bat", "Rat", "Cat", "Dog", "Slow"]
    assert reply.result["rolls"] == {"Slow": [3, 4, 4, 5], "Cat": [2, 2], "Dog": [5, 2, 4, 2]}
    assert reply.result["extra"] == [["Bat", "Rat"], ["Bat"]]
    assert reply.text == (
        "Инициатива: 1. Wolf, 2. Bat, 3. Rat, 4. Cat, 5. Dog, 6. Slow. Дополнительные действия (Быстрота),"
        " после первых действий всех: Bat, Rat; Bat. Кубики (меньшая сумма ходит первой): Slow 3 4 4 5,"
        f" Cat 2 2, Dog 5 2 4 2. #{reply.result['id']}"
    )
    assert reply.result["dice"] == [3, 4, 2, 2, 5, 2, 4, 4, 5, 2]
    assert (await nw.one("init")).result["order"][0] == "Wolf"


async def test_init_join_checks_the_sheet(nw: Chat) -> None:
    await setup(nw)
    assert (await nw.one("init join celerity basic", as_="olga")).error is not None
    await nw.one("st set Maxina celerity 1", as_="st", st=True)
    joined = await nw.one("init join celerity basic", as_="olga")
    assert joined.text == "Maxina joins the initiative, switched on: Basic Celerity."


async def test_melee_hit_damage_is_strength_plus_one_with_a_weapon_and_soak_halves(nw: Chat) -> None:
    await setup(nw)
    # Ivan (Brawl 2, Strength 3) with a knife at Maxina (Defence 2): 4 5 -> 2 against 4 1 -> 1: a hit,
    # 3 + 1 = 4 damage; Maxina soaks with Defence at 5: 5 1 -> one success, halved to 2.
    nw.dice.extend([4, 5, 4, 1, 5, 1])
    reply = await nw.one("attack Maxina weapon", as_="ivan")
    result = reply.result
    assert result["kind"] == "contest" and result["action"] == "melee" and result["hit"] is True
    assert [s["successes"] for s in result["sides"]] == [2, 1] and result["winner"] == 0
    assert result["soak"]["difficulty"] == 5 and result["soak"]["successes"] == 1
    assert result["damage"] == 2 and result["target"]["hp"] == 23
    assert reply.text == (
        "Ivan (Brawl 2) attacks Maxina (Defence 2) at difficulty 4: 4 5 → 2 against 4 1 → 1. A hit: 4 damage."
        " Maxina soaks (Defence 2) at difficulty 5: 5 1 → 1, the damage is halved to 2. Maxina: Health 23 of"
        f" 25 (Optimal). #{result['id']}"
    )


async def test_melee_equal_successes_hit_and_zero_misses(nw: Chat) -> None:
    await setup(nw)
    nw.dice.extend([4, 1, 4, 1, 1, 1])  # 1 against 1: a hit; Ivan is human: no soak
    hit = (await nw.one("attack Ivan", as_="olga")).result
    assert hit["hit"] is True and hit["damage"] == 2 and "soak" not in hit and hit["target"]["hp"] == 8
    nw.dice.extend([1, 1, 1, 1])
    miss = (await nw.one("attack Ivan", as_="olga")).result
    assert miss["hit"] is False and miss["damage"] == 0


async def test_vampire_claws_are_deep_and_need_fortitude_to_soak(nw: Chat) -> None:
    await setup(nw)
    nw.dice.extend([6, 6, 6, 1, 1])  # an NPC vampire, 3 dice, Strength 2, claws: 3 successes to 0
    deep = await nw.one("attack pool 3 str 2 claws Maxina", as_="st", st=True)
    assert deep.result["deep"] is True and deep.result["damage"] == 3 and "soak" not in deep.result
    assert "Deep damage: no soaking without Fortitude." in deep.text
    await nw.one("st set Maxina fortitude yes", as_="st", st=True)
    nw.dice.extend([6, 6, 6, 1, 1, 1, 6])
    soaked = (await nw.one("attack pool 3 str 2 claws Maxina", as_="st", st=True)).result
    assert soaked["soak"]["successes"] == 1 and soaked["damage"] == 1  # 3 halved = 1


async def test_dodge_gives_two_dice_and_better_initiative(nw: Chat) -> None:
    await setup(nw)
    # Maxina dodges: Dodge 1 + 2 = 3 dice; Ivan 4 1 -> 1; Maxina 5 5 1 -> 2: a miss, she out-dodged him.
    nw.dice.extend([4, 1, 5, 5, 1])
    reply = await nw.one("attack Maxina dodge", as_="ivan")
    assert reply.result["sides"][1]["pool"] == 3 and reply.result["hit"] is False
    assert reply.result["dodge_initiative"] is True and "better initiative next turn" in reply.text


async def test_ranged_difficulty_by_range_and_missile_damage(nw: Chat) -> None:
    await setup(nw)
    nw.dice.extend([5, 5, 4])  # long range: difficulty 5, 2 successes; arrows +3 = 5; Ivan cannot soak
    arrow = (await nw.one("shoot Ivan long arrow", as_="olga")).result
    assert (arrow["difficulty"], arrow["successes"], arrow["damage"]) == (5, 2, 5)
    assert arrow["kind"] == "roll" and arrow["target"]["hp"] == 5
    nw.dice.extend([3, 1, 1])  # point-blank throw: difficulty 3, 1 success, +1 = 2
    thrown = (await nw.one("shoot Ivan point thrown", as_="olga")).result
    assert (thrown["difficulty"], thrown["damage"]) == (3, 2)
    refused = await nw.one("shoot Ivan point arrow", as_="olga")
    assert refused.error is not None and "point-blank" in refused.text
    await nw.one("st set Ivan hp 10", as_="st", st=True)  # no pain for the dodge below
    nw.dice.extend([4, 4, 1, 4, 4, 6])  # medium, Ivan dodges with Dodge 1+2: 2 against 3: a miss
    dodged = (await nw.one("shoot Ivan medium thrown dodge", as_="olga")).result
    assert dodged["kind"] == "contest" and dodged["hit"] is False and dodged["winner"] == 1


async def test_human_at_zero_is_unconscious_and_dies_at_minus_ten(nw: Chat) -> None:
    await setup(nw)
    down = await nw.one("damage 12 Ivan", as_="st", st=True)
    assert down.result["target"]["hp"] == -2 and down.result["target"]["status"] == "unconscious"
    assert "unconscious and loses 1 HP a turn" in down.text
    assert (await nw.one("roll brawl", as_="ivan")).error is not None
    dead = await nw.one("damage 8 Ivan", as_="st", st=True)
    assert dead.result["target"]["status"] == "dead" and "final death" in dead.text


async def test_sunlight_and_fire(nw: Chat) -> None:
    await setup(nw)
    direct = await nw.one("sun direct 3", as_="olga")
    assert direct.result["damage"] == 3 and direct.result["target"]["hp"] == 22
    assert "frenzy check" in direct.text
    assert (await nw.one("sun indirect 3", as_="olga")).result["damage"] == 1
    assert (await nw.one("fire small surprise", as_="olga")).result["damage"] == 1
    assert (await nw.one("fire large surprise", as_="olga")).result["damage"] == 2
    assert (await nw.one("fire small 4", as_="olga")).result["damage"] == 2
    assert (await nw.one("fire large 2", as_="olga")).result["damage"] == 2
    assert (await nw.one("sun direct 1 Ivan", as_="olga")).error == "invalid"  # not hers
    # 25 - 3 - 1 - 1 - 2 - 2 - 2 = 14; with Fortitude the large surprise burn (2) soaks to 1.
    await nw.one("st set Maxina fortitude yes", as_="st", st=True)
    nw.dice.extend([5, 1])
    soaked = (await nw.one("fire large surprise", as_="olga")).result
    assert soaked["soak"]["successes"] == 1 and soaked["damage"] == 1 and soaked["target"]["hp"] == 13


async def test_deep_damage_destroys_a_vampire_in_torpor(nw: Chat) -> None:
    await setup(nw)
    torpor = await nw.one("damage 25 Maxina", as_="st", st=True)
    assert torpor.result["target"]["status"] == "torpor" and torpor.result["target"]["hp"] == 0
    blunt = await nw.one("damage 3 Maxina", as_="st", st=True)
    assert blunt.result["target"]["status"] == "torpor"  # ordinary damage cannot go below 0
    burnt = await nw.one("sun direct 1 Maxina", as_="st", st=True)
    assert burnt.result["target"]["status"] == "dead"


async def test_hunting_difficulty_by_ground(nw: Chat) -> None:
    await setup(nw)
    for ground, diff in [
        ("slums", 4),
        ("feeding", 2),
        ("business", 3),
        ("residential", 4),
        ("suburbs", 4),
        ("countryside", 5),
        ("wilderness", 6),
        ("трущобы", 4),
    ]:
        nw.dice.extend([4, 1])
        result = (await nw.one(f"hunt {ground}", as_="olga")).result
        assert result["difficulty"] == diff and result["pool"] == 2 and result["trait"] == "mind"
        assert result["found"] is (diff <= 4)
    nw.dice.extend([1, 1])
    reply = await nw.one("hunt slums", as_="olga")
    assert reply.text.endswith(f"No prey turns up. #{reply.result['id']}")
    assert (await nw.one("hunt moon", as_="olga")).error is not None


async def test_stealth_tie_means_heard_something_and_next_detection_at_three(nw: Chat) -> None:
    await setup(nw)
    nw.dice.extend([4, 1, 4, 1])  # Maxina Sneak 2: 1; Ivan Inspection 2: 1 -> tie
    tie = await nw.one("sneak vs Ivan", as_="olga")
    assert tie.result["outcome"] == "heard" and tie.result["winner"] is None
    assert "Ivan heard something: the next roll to find Maxina is at difficulty 3." in tie.text
    nw.dice.extend([4, 1, 3, 3])  # now Ivan's 3s count: 1 against 2
    noticed = await nw.one("sneak vs Ivan", as_="olga")
    assert noticed.result["sides"][1]["difficulty"] == 3 and noticed.result["outcome"] == "noticed"
    nw.dice.extend([4, 4, 3, 3])  # back to difficulty 4
    unseen = await nw.one("sneak vs Ivan", as_="olga")
    assert unseen.result["sides"][1]["difficulty"] == 4 and unseen.result["outcome"] == "unseen"
