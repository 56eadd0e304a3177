from __future__ import annotations

from fractions import Fraction

from gateway.testing import Chat
from plugins.nightcap.odds import contest_odds, roll_odds
from tests.conflict.helpers import make_character


async def test_odds_of_a_pool(chat: Chat) -> None:
    reply = await chat.one("odds 3")
    assert reply.error is None
    r = reply.result
    assert r is not None
    assert r["kind"] == "odds"
    assert r["contest"] is False
    exact = roll_odds(3)
    assert r["degrees"] == {k: float(v) for k, v in exact.degrees.items()}
    assert r["totals"] == {str(k): float(v) for k, v in sorted(exact.totals.items())}
    assert r["at_least_1"] == float(Fraction(341, 500))
    assert reply.text.startswith(
        "Odds for 3 dice: Botch 10.0% · Failure 21.8% · Marginal 28.2% · Solid 34.8% · Strong 5.1%"
    )
    assert reply.text.endswith("at least 1: 68.2%")
    assert chat.dice.remaining == 0  # no dice thrown


async def test_odds_with_modifiers_willpower_and_chance_die(chat: Chat) -> None:
    r = (await chat.one("odds 3 +1 -2 wp")).result
    assert r is not None and r["pool"] == 2 and r["willpower"] is True
    assert r["degrees"] == {k: float(v) for k, v in roll_odds(2, True).degrees.items()}
    chance = await chat.one("odds 1 -3")
    assert chance.result is not None and chance.result["chance_die"] is True
    assert "a chance die" in chance.text
    assert chance.result["degrees"]["marginal"] == 0.1


async def test_odds_of_a_contest(chat: Chat) -> None:
    reply = await chat.one("odds 5 vs 4 +1 wp")
    r = reply.result
    assert r is not None and r["kind"] == "odds" and r["contest"] is True
    exact = contest_odds(roll_odds(5), roll_odds(5, True))
    assert r["outcomes"] == {k: float(v) for k, v in exact.outcomes.items()}
    assert r["margins"] == {s: {b: float(p) for b, p in bands.items()} for s, bands in exact.margins.items()}
    assert r["sides"][1]["modifiers"] == [1]
    assert "left wins" in reply.text and "deadlock" in reply.text and "both botch" in reply.text


async def test_odds_fifty_vs_fifty(chat: Chat) -> None:
    r = (await chat.one("odds 50 vs 50")).result
    assert r is not None
    assert r["outcomes"]["left"] == r["outcomes"]["right"]
    assert abs(sum(r["outcomes"].values()) - 1) < 1e-12


async def test_odds_refusals(chat: Chat) -> None:
    assert (await chat.one("odds 51")).error == "invalid"
    assert "maximum of 50" in (await chat.one("odds 49 +2")).text
    assert (await chat.one("odds 3 vs social")).error == "invalid"
    assert (await chat.one("odds physical")).error == "invalid"  # no character
    assert (await chat.one("odds")).error == "invalid"


async def test_odds_of_a_trait(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", physical=3)
    r = (await chat.one("odds physical +1", as_="mira")).result
    assert r is not None and r["pool"] == 4 and r["trait"] == "physical"


async def test_wound_penalty_shows_in_odds(wounded_chat: Chat) -> None:
    await make_character(wounded_chat, "mira", "Mira", physical=3, damage=4)
    reply = await wounded_chat.one("odds physical", as_="mira")
    assert reply.result is not None and reply.result["pool"] == 2
    assert reply.result["wound_penalty"] == -1
    assert "Physical 3 (wounds -1) (2 dice)" in reply.text


async def test_odds_against_another_characters_trait(wounded_chat: Chat) -> None:
    await make_character(wounded_chat, "dorian", "Dorian", social=4)
    await make_character(wounded_chat, "det", "Detective", mental=3, damage=4)
    r = (await wounded_chat.one("odds social vs Detective mental +1", as_="dorian")).result
    assert r is not None and r["contest"] is True
    assert [s["pool"] for s in r["sides"]] == [4, 3]  # the detective's wounds count
    exact = contest_odds(roll_odds(4), roll_odds(3))
    assert r["outcomes"] == {k: float(v) for k, v in exact.outcomes.items()}
    missing = await wounded_chat.one("odds social vs Nobody mental", as_="dorian")
    assert missing.error == "invalid"
