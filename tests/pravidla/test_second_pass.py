"""Issue 19, Pravidla: the tug of war's POOL vs POOL with a trait on both sides, and every Czech
reply mended (grammar, plurals, the book's terms, no English). Scripted dice throughout."""

from __future__ import annotations

from gateway.testing import Chat
from plugins.pravidla import COMMANDS
from plugins.pravidla.help import CS
from tests.helpers.chat import make_character

EXAMPLE_3 = (
    "Příklad 3: Brujah Maxin (Kondice 4) soupeří v páce s jistým Nosferatem (Kondice také 4). ..."
    " V prvním kole Maxin získal dva úspěchy a jeho oponent jeden."
)
CONTEST = "hází si i protivník a to stejnou Vlastností proti stejnému cílovému číslu"


async def test_tug_start_pool_vs_pool_with_traits(pr: Chat) -> None:
    """EXAMPLE_3, written as the README's POOL vs POOL: kondice vs kondice rolls each side's Kondice."""
    await make_character(pr, "klara", "Maxin", kondice=4)
    await make_character(pr, "nina", "Nosferatu", kondice=4)
    start = await pr.one("tug start Nosferatu 3 kondice vs kondice", as_="klara")
    assert start.error is None, start.text
    assert start.result is not None and start.result["tug"]["pools"] == [4, 4]
    pr.dice.extend([4, 5, 1, 2, 6, 1, 1, 1])
    one = await pr.one("tug roll", as_="klara")
    assert [s["successes"] for s in one.result["sides"]] == [2, 1]
    pr.dice.extend([1, 1, 2, 3, 5, 6, 1, 1])
    two = await pr.one("tug roll kondice vs kondice", as_="klara")  # at roll time too
    assert two.error is None, two.text
    assert two.result["balance"] == -1


async def test_tug_trait_against_an_npc_or_another_trait_is_refused_in_czech(pr: Chat) -> None:
    """CONTEST: the opponent rolls the same trait; an NPC has no sheet to read it from."""
    await make_character(pr, "klara", "Maxin", kondice=4)
    npc = await pr.one("tug start Nosferatu 3 kondice vs kondice", as_="klara")
    assert npc.text == (
        "Postava Nosferatu v Pravidlech není, takže hodnotu vlastnosti Kondice nelze zjistit: napište za vs"
        " počet kostek (tug start Nosferatu 3 kondice vs 4)."
    )
    await make_character(pr, "nina", "Nosferatu", kondice=4)
    other = await pr.one("tug start Nosferatu 3 kondice vs šarm", as_="klara")
    assert other.error is not None and "stejnou vlastností" in other.text
    bare = await pr.one("roll kondice vs kondice", as_="klara")
    assert bare.error is not None and bare.text.startswith("Za vs patří jméno postavy")
    assert (await pr.one("tug start Nosferatu 3 kondice vs 4", as_="klara")).error is None


async def test_storyteller_values_out_of_range_in_czech(pr: Chat) -> None:
    """ "šarm bere 0-10; 11 mezi tím není." -> "Šarm může být 0–10; 11 je mimo rozsah."."""
    await make_character(pr, "klara", "Maxin")
    st = {"as_": "st", "st": True}
    assert (await pr.one("st set Maxin šarm 11", **st)).text == "Šarm může být 0–10; 11 je mimo rozsah."
    assert (await pr.one("st set Maxin sarm abc", **st)).text == "Šarm může být 0–10; „abc“ není číslo."
    assert (await pr.one("st set Maxin lovecký možná", **st)).text == (
        "Lovecký instinkt může být jen ano, nebo ne; hodnotu „možná“ nelze použít."
    )
    assert (await pr.one("st set Maxin celerita 3", **st)).text == (
        "Celerita může být 0–2 (žádná, základní, pokročilá); „3“ mezi nimi není."
    )


async def test_storyteller_edits_of_powers_use_the_books_terms(pr: Chat) -> None:
    """ "hunting ne → ano", "celerity 0 → 1" -> the book's Lovecký instinkt and Celerita."""
    await make_character(pr, "klara", "Maxin")
    st = {"as_": "st", "st": True}
    assert (await pr.one("st set Maxin hunting ano", **st)).text == "Maxin: Lovecký instinkt ne → ano."
    assert (await pr.one("st set Maxin celerity 1", **st)).text == "Maxin: Celerita žádná → základní."
    assert (await pr.one("st set Maxin potence 2", **st)).text == "Maxin: Potence žádná → pokročilá."
    await pr.one("lang en", as_="st")
    assert (await pr.one("st set Maxin celerity 2", **st)).text == "Maxin: Celerity basic → advanced."


async def test_missing_power_in_the_accusative(pr: Chat) -> None:
    """ "Maxin nemá v deníku Pokročilá Celerita." -> "…Pokročilou Celeritu."."""
    await make_character(pr, "klara", "Maxin", celerity=1)
    advanced = await pr.one("init join celerita pokročilá", as_="klara")
    assert advanced.text == "Maxin nemá v deníku Pokročilou Celeritu."
    await make_character(pr, "ivo", "Ivo")
    assert (await pr.one("init join celerita základní", as_="ivo")).text == (
        "Ivo nemá v deníku Základní Celeritu."
    )
    assert (await pr.one("init join lovecký", as_="ivo")).text == "Ivo nemá v deníku Lovecký instinkt."


async def test_rerolled_contest_and_initiative_die_in_czech(pr: Chat) -> None:
    """ "předtím 3× shoda a hod znovu" -> "předtím 3× shoda, házelo se znovu"; "Shody rozhodla kostka"
    -> "Shodu rozhodl hod kostkou"; and a contest line without a preposition before the names."""
    pr.dice.extend([4, 1, 5, 2, 6, 6, 1, 1])
    contest = await pr.one("roll 2 vs 2")
    assert contest.text == (
        "Měření sil, cílové číslo 4: Alice (2 kostky) 6 6 → 2 úspěchy; protivník (2 kostky) 1 1 → 0"
        f" úspěchů; předtím 1× shoda, házelo se znovu. Vítězí Alice. #{contest.result['id']}"
    )
    await pr.one("init add Jack 4 3", as_="st", st=True)
    await pr.one("init add Gangrel 4 3", as_="st", st=True)
    pr.dice.extend([3, 5])
    order = await pr.one("init roll", as_="st", st=True)
    assert "Shodu rozhodl hod kostkou: Jack 3, Gangrel 5." in order.text
    await pr.one("init add Ghúl 1 1", as_="st", st=True)  # a new entry: the order is to be rolled again
    assert (await pr.one("init")).text.endswith("Pořadí určí Vypravěč příkazem init roll.")


async def test_tug_lines_need_no_declined_names(pr: Chat) -> None:
    """ "mezi Maxin a Nosferatu" -> the names in the nominative, as subjects: "Přetlačují se Maxin a
    Nosferatu"; the status before any round, and the refusal to call off someone else's tug."""
    await make_character(pr, "klara", "Maxin")
    await pr.one("tug start Nosferatu 3 2 vs 2", as_="klara")
    assert (await pr.one("tug")).text == (
        "Přetlačují se Maxin a Nosferatu (na náskok 3); zatím se nehodilo žádné kolo, první se hází"
        " příkazem tug roll."
    )
    running = await pr.one("tug start Vlk 2", as_="klara")
    assert running.text == (
        "Tady se už přetlačují Maxin a Nosferatu: tug roll hodí další kolo, tug stop přetlačování ukončí."
    )
    assert (await pr.one("tug stop", as_="mira")).text == (
        "Přetlačování může ukončit jen ten, kdo ho začal, nebo Vypravěč."
    )
    assert (await pr.one("tug stop", as_="klara")).text == (
        "Přetlačování je ukončeno: Maxin a Nosferatu se už nepřetlačují."
    )


async def test_every_command_has_czech_help(pr: Chat) -> None:
    """ "st set: Storyteller: set a sheet field (audited)." -> Czech help for every Pravidla command."""
    names = {c.name for c in COMMANDS.commands()}
    assert names == set(CS)
    assert all("cs" in c.texts for c in COMMANDS.commands())
    st_set = await pr.one("help st set", as_="st", st=True)
    assert st_set.text.startswith("st set: Vypravěč: nastaví pole deníku (zapisuje se do auditu).")
    assert "Storyteller" not in st_set.text
    await pr.one("lang en")
    assert (await pr.one("help st set", as_="alice")).text.startswith("st set: Storyteller: set a sheet")
