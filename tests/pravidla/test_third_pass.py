"""Issue 31, Pravidla: a character does not contest itself, and the Czech reads as written: the
book's words in ``house``, "Pravidla" and no undeclined "proti" in ``verify``, a number out of range
said so, "ukončeno", quoted value words, and ``char list``. Scripted dice throughout."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from gateway.vault.models import RollLog
from tests.helpers.chat import count, make_character

CONTEST = (
    "Někdy musí být výkon postavy porovnán s výkonem jiného upíra nebo člověka. Tyto situace nazýváme"
    " měření sil."
)
TARGET = (
    "Vypravěč Kláře řekl, že cílové číslo je 4 ... mohl by Vypravěč zvednout cílové číslo na 5 (nebo 6)"
    " nebo by mohl požadovat 2 úspěchy"
)
SELF = (
    "Postava Maxin nemůže měřit síly sama se sebou: podle knihy se výkon postavy porovnává s výkonem jiného"
    " upíra nebo člověka. Za vs napište jméno jiné postavy, nebo počet kostek."
)
SELF_TUG = (
    "Postava Maxin se nemůže přetlačovat sama se sebou: přetlačování je měření sil s jiným upírem nebo"
    " člověkem. Napište tug start a jméno protivníka."
)


@pytest.mark.parametrize("line", ["roll šarm vs Maxin", "roll sarm+1 vs maxin", "odds šarm vs Maxin"])
async def test_a_character_does_not_contest_itself(pr: Chat, line: str) -> None:
    """CONTEST: "s výkonem jiného upíra nebo člověka"; Maxin against Maxin was rolled."""
    await make_character(pr, "klara", "Maxin", šarm=2)
    before = await count(pr, RollLog)
    reply = await pr.one(line, as_="klara")
    assert (reply.error, reply.text) == ("invalid", SELF)
    assert await count(pr, RollLog) == before


async def test_a_character_does_not_tug_against_itself(pr: Chat) -> None:
    """CONTEST, and the book's tug of war is one ("Maxin ... soupeří v páce s jistým Nosferatem")."""
    await make_character(pr, "klara", "Maxin", kondice=4)
    for line in ("tug start Maxin 3", "tug start maxin 3 kondice", "tug start Maxin 3 4 vs 4"):
        reply = await pr.one(line, as_="klara")
        assert (reply.error, reply.text) == ("invalid", SELF_TUG), line
    assert (await pr.one("tug")).text.startswith("V tomto kanálu neprobíhá žádné přetlačování.")
    await make_character(pr, "nina", "Nosferatu", kondice=4)
    assert (await pr.one("tug start Nosferatu 3 kondice", as_="klara")).error is None
    # another character's contest against Maxin is a contest of two
    pr.dice.extend([4, 5, 1, 2, 6, 1, 1, 1])
    other = await pr.one("roll kondice vs Maxin", as_="nina")
    assert other.error is None and [s["who"] for s in other.result["sides"]] == ["Nosferatu", "Maxin"]
    # rolling against one's own character without it active is still oneself: the roller is the active one
    assert (await pr.one("lang en", as_="klara")).error is None
    english = await pr.one("roll kondice vs Maxin", as_="klara")
    assert english.text == (
        "Maxin cannot contest Maxin: a contest compares a character with another vampire or a human."
        " Write another character's name after vs, or a number of dice."
    )


async def test_house_quotes_the_book_in_czech(pr: Chat) -> None:
    """TARGET: ``house`` gave "the target number is usually 4 (the Storyteller may set 5 or 6)"."""
    shown = (await pr.one("house")).text
    assert (
        'default_target = 4 (kniha: 4; "Množství úspěchů": cílové číslo je obvykle 4 (Vypravěč může určit'
        " 5 nebo 6)): cílové číslo hodu, který žádné neuvádí" in shown
    )
    assert (
        '"Množství úspěchů": ve většině případů stačí jen jeden úspěch (Vypravěč může požadovat 2)' in shown
    )
    assert "the Storyteller" not in shown and "usually" not in shown


async def test_verify_names_pravidla_and_declines_nothing(pr: Chat) -> None:
    """ "hod v systému pravidla" and "proti protivník": the system's name, and "vs." (nominative)."""
    pr.dice.extend([5, 6, 2, 1])
    rolled = await pr.one("roll 2 vs 2")
    assert rolled.result is not None, rolled.text
    shown = (await pr.one(f"verify {rolled.result['id']}")).text
    assert "– hod v systému Pravidla, kanál" in shown
    assert shown.endswith("Alice 5 6 → 2 (podařilo se) vs. protivník 2 1 → 0 (nepodařilo se): vítězí Alice")
    assert " proti " not in shown


async def test_out_of_range_and_quoted_values(pr: Chat) -> None:
    """ "„-1“ není číslo" -> "je mimo rozsah"; a word where a value goes is quoted ("ne „ne“")."""
    await make_character(pr, "klara", "Maxin")
    st = {"as_": "st", "st": True}
    assert (await pr.one("st set Maxin šarm -1", **st)).text == "Šarm může být 0–10; -1 je mimo rozsah."
    assert (await pr.one("st set Maxin šarm ne", **st)).text == "Šarm může být 0–10; „ne“ není číslo."
    assert (await pr.one("house set default_target ne", **st)).text == (
        "default_target musí být celé číslo od 2 do 6, ne „ne“."
    )
    assert (await pr.one("roll kouzlo")).text.startswith("Neznámá vlastnost „kouzlo“.")
    assert (await pr.one("roll 2+x")).text.startswith("„2+x“ nelze přečíst jako počet kostek")


async def test_char_list_exists(pr: Chat) -> None:
    """ "své postavy vypíšete příkazem char list" (char retire's refusal): the command it names."""
    assert (await pr.one("char list", as_="klara")).text == (
        "Zatím nemáte žádnou postavu v Pravidlech: vytvoříte ji příkazem char new JMÉNO."
    )
    await make_character(pr, "klara", "Maxin")
    assert (await pr.one("char list", as_="klara")).text == "Vaše postavy v Pravidlech: Maxin *."
    assert (await pr.one("char retire Nikdo", as_="klara")).text == (
        "Postavu se jménem Nikdo (Pravidla) nemáte: své postavy vypíšete příkazem char list."
    )
    assert (await pr.one("help char list", as_="klara")).text.startswith(
        "char list: seznam vašich postav v Pravidlech."
    )


@pytest.mark.parametrize(
    ("line", "word"),
    [("roll 3 tn 5 tn 6", "tn"), ("roll 3 tn 5 cc 6", "cc"), ("roll 3 need 1 need 2", "need"),
     ("roll 3 secret secret", "secret"), ("odds 3 tn 5 tn 6", "tn"), ("tug start Vlk 3 tn 5 cc 6", "tn")],
)  # fmt: skip
async def test_an_option_said_twice_is_refused(pr: Chat, line: str, word: str) -> None:
    """``roll 3 tn 5 tn 6`` rolled against 6, the first tn dropped without a word."""
    reply = await pr.one(line)
    assert (reply.error, reply.text) == ("invalid", f"Napište {word} jen jednou.")
    assert (await pr.one("tug")).text.startswith("V tomto kanálu neprobíhá žádné přetlačování.")


async def test_a_tug_round_reads_each_sides_own_sheet(pr: Chat) -> None:
    """EXAMPLE 3's arm-wrestling: Maxin's Kondice, whoever types the round (a third player's was used)."""
    await make_character(pr, "klara", "Maxin", kondice=4)
    await make_character(pr, "nina", "Nosferatu", kondice=3)
    await make_character(pr, "ivo", "Ivo", kondice=1)
    assert (await pr.one("tug start Nosferatu 3", as_="klara")).error is None
    pr.dice.extend([4, 5, 1, 2, 6, 1, 1])
    rolled = await pr.one("tug roll kondice vs kondice", as_="ivo")
    assert rolled.error is None, rolled.text
    assert [s["pool"] for s in rolled.result["sides"]] == [4, 3]
