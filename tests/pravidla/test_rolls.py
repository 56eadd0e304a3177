"""Pravidla rolls and contests through the router, with scripted dice (RULINGS, "Pravidla")."""

from __future__ import annotations

from gateway.testing import Chat
from gateway.vault.models import RollLog
from tests.helpers.chat import count, make_character, rows


async def test_maxin_example_in_czech(pr: Chat) -> None:
    """The book: Maxin (Šarm 2) rolls against 4, gets 1 and 5: one success, Jack accepts the alibi."""
    await make_character(pr, "klara", "Maxin", sarm=2)
    pr.dice.extend([1, 5])
    reply = await pr.one("roll šarm tn 4", as_="klara")
    assert reply.error is None
    result = reply.result
    assert result is not None
    assert result["kind"] == "roll" and result["system"] == "pravidla"
    assert result["pool"] == 2 and result["dice"] == [1, 5]
    assert result["successes"] == 1 and result["degree"] == "success"
    assert result["target"] == 4 and result["trait"] == "charm"
    assert reply.text == f"Maxin hází Šarmem 2, cílové číslo 4: 1 5 → 1 úspěch (podařilo se) #{result['id']}"


async def test_maxin_example_in_english(pr: Chat) -> None:
    await make_character(pr, "klara", "Maxin", charm=2)
    await pr.one("lang en", as_="klara")
    pr.dice.extend([1, 5])
    reply = await pr.one("roll charm", as_="klara")
    assert reply.text == f"Maxin rolls Charm 2 against 4: 1 5 → 1 success (Success) #{reply.result['id']}"


async def test_storyteller_raises_target_or_asks_two_successes(pr: Chat) -> None:
    """If Jack disliked Maxin: target 5 (or 6), or 2 successes needed. Same faces 1 and 5."""
    pr.dice.extend([1, 5, 1, 5, 1, 5])
    at5 = (await pr.one("roll 2 tn 5")).result
    at6 = (await pr.one("roll 2 tn 6")).result
    two = await pr.one("roll 2 need 2")
    assert (at5["successes"], at5["degree"]) == (1, "success")
    assert (at6["successes"], at6["degree"]) == (0, "failure")
    assert (two.result["successes"], two.result["need"], two.result["degree"]) == (1, 2, "failure")
    assert two.text.startswith("Alice hází 2 kostkami, cílové číslo 4, potřebuje 2 úspěchy: 1 5 → 1 úspěch")


async def test_default_target_is_four_and_six_faces(pr: Chat) -> None:
    pr.dice.extend([3, 4, 6])
    result = (await pr.one("roll 3")).result
    assert result["target"] == 4 and result["successes"] == 2
    pr.dice.extend([7])
    assert (await pr.one("roll 1")).error == "dice_script"  # a d6 cannot show 7


async def test_dhavilland_example_one_vs_character(pr: Chat) -> None:
    """Example 1: d'Havilland (Šarm 4) 1 3 4 6 = 2 against Lady Ravenwood (Šarm 4) 2 5 6 6 = 3."""
    await make_character(pr, "eva", "Baronka d'Havilland", sarm=4)
    await make_character(pr, "ivy", "Lady Ravenwood", sarm=4)
    pr.dice.extend([1, 3, 4, 6, 2, 5, 6, 6])
    reply = await pr.one("roll šarm vs Lady Ravenwood", as_="eva")
    result = reply.result
    assert result["kind"] == "contest" and result["winner"] == 1
    left, right = result["sides"]
    assert (left["dice"], left["successes"], left["who"]) == ([1, 3, 4, 6], 2, "Baronka d'Havilland")
    assert (right["dice"], right["successes"], right["who"]) == ([2, 5, 6, 6], 3, "Lady Ravenwood")
    assert reply.text == (
        "Měření sil, cílové číslo 4: Baronka d'Havilland (Šarm 4) 1 3 4 6 → 2 úspěchy; Lady Ravenwood"
        f" (Šarm 4) 2 5 6 6 → 3 úspěchy. Vítězí Lady Ravenwood. #{result['id']}"
    )


async def test_dhavilland_example_two_vs_npc(pr: Chat) -> None:
    """Example 2: d'Havilland (Šarm 4) 1 3 5 5 = 2 against the mortal (Šarm 2) 3 6 = 1."""
    await make_character(pr, "eva", "Baronka d'Havilland", sarm=4)
    pr.dice.extend([1, 3, 5, 5, 3, 6])
    result = (await pr.one("roll šarm vs 2", as_="eva")).result
    assert result["winner"] == 0
    assert [s["successes"] for s in result["sides"]] == [2, 1]
    assert [s["pool"] for s in result["sides"]] == [4, 2]


async def test_contest_tie_is_rolled_again_and_dice_are_appended(pr: Chat) -> None:
    pr.dice.extend([4, 1, 5, 2, 6, 6, 1, 1])
    reply = await pr.one("roll 2 vs 2")
    result = reply.result
    assert result["winner"] == 0 and result["rerolls"] == 1
    assert result["sides"][0]["dice"] == [4, 1, 6, 6]
    assert result["sides"][1]["dice"] == [5, 2, 1, 1]
    assert [s["successes"] for s in result["sides"]] == [2, 0]
    assert result["rounds"] == [[[4, 1], [5, 2]], [[6, 6], [1, 1]]]
    assert "předtím 1× shoda" in reply.text


async def test_every_roll_is_logged_with_stlog(pr: Chat) -> None:
    pr.dice.extend([6, 6, 1, 1, 4])
    one = await pr.one("roll 2")
    contest = await pr.one("roll 2 vs 1")
    logged = await rows(pr, RollLog)
    assert [r.public_id for r in logged] == [one.result["id"], contest.result["id"]]
    assert logged[0].system == "pravidla" and logged[0].dice == [6, 6] and logged[0].degree == "success"
    assert logged[1].kind == "contest" and logged[1].dice == [1, 1, 4]
    assert [e.text for e in await pr.stlog()][-2:] == [one.text, contest.text]


async def test_secret_roll_is_private(pr: Chat) -> None:
    pr.dice.extend([6])
    reply = await pr.one("roll 1 secret")
    assert reply.private and reply.result["secret"] is True


async def test_bad_input_is_one_line_and_writes_nothing(pr: Chat) -> None:
    before = await count(pr, RollLog)
    for line, needle in [
        ("roll 4 tn 7", "„cílové číslo“ smí být nejvýše 6"),
        ("roll 4 tn", "chybí parametr „cílové číslo“"),
        ("roll šarm", "aktivní postavu"),
        ("roll kouzlo", "Neznámá vlastnost"),
        ("roll 51", "povoleným maximem 50"),
        ("roll 0", "aspoň jednou kostkou"),
        ("roll 2 need 3", "Za need patří počet"),
        ("roll 2 vs 1 vs 1", "vs jen jednou"),
        ("roll 2 vs Nikdo", "neexistuje"),
        ("roll", "Napište roll"),
    ]:
        reply = await pr.one(line)
        assert reply.error is not None, line
        assert needle in reply.text, (line, reply.text)
        assert "\n" not in reply.text
    assert await count(pr, RollLog) == before


async def test_trait_words_match_with_or_without_diacritics_and_in_english(pr: Chat) -> None:
    await make_character(pr, "klara", "Maxin", kondice=4, rozum=3)
    for word in ("kondice", "Kondice", "stamina", "kond"):
        pr.dice.extend([1, 1, 1, 1])
        assert (await pr.one(f"roll {word}", as_="klara")).result["pool"] == 4
    pr.dice.extend([1, 1, 1])
    assert (await pr.one("roll rozum", as_="klara")).result["pool"] == 3
    reply = await pr.one("roll s", as_="klara")  # Síla, Šarm, Strength, Stamina
    assert reply.error == "invalid" and "může být" in reply.text


async def test_modifiers_add_to_the_trait(pr: Chat) -> None:
    await make_character(pr, "klara", "Maxin", sila=3)
    pr.dice.extend([6, 6, 6, 6, 1])
    result = (await pr.one("roll síla +2", as_="klara")).result
    assert result["pool"] == 5 and result["modifiers"] == [2] and result["successes"] == 4


async def test_verify_shows_the_roll_from_the_log(pr: Chat) -> None:
    pr.dice.extend([6, 2, 5])
    roll = await pr.one("roll 3", as_="mira")
    shown = await pr.one(f"verify {roll.result['id']}", as_="someone", platform="irc", channel="#x")
    assert shown.result["roll"]["dice"] == [6, 2, 5]
    assert "rolled Pravidla" in shown.text and "6 2 5 → 2 (Success)" in shown.text
