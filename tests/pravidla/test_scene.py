"""Tug of war, initiative, characters and Storyteller edits for Pravidla."""

from __future__ import annotations

from pathlib import Path

from gateway.testing import Chat, start_chat
from gateway.vault.models import Audit
from tests.helpers.chat import make_character, rows


async def test_maxin_arm_wrestling_tug_of_war(pr: Chat) -> None:
    """Example 3: Maxin (Kondice 4) against a Nosferatu (Kondice 4), first to lead by three. Round 1:
    Maxin 2, Nosferatu 1; round 2: Nosferatu 2, Maxin 0, so the Nosferatu leads by one."""
    await make_character(pr, "klara", "Maxin", kondice=4)
    start = await pr.one("tug start Nosferatu 3 kondice vs 4", as_="klara")
    assert start.error is None, start.text
    assert start.text == (
        "Přetlačují se Maxin a Nosferatu; vyhrává ten, kdo jako první získá náskok 3. Každé kolo se hází"
        " příkazem tug roll."
    )
    pr.dice.extend([4, 5, 1, 2, 6, 1, 1, 1])
    one = await pr.one("tug roll", as_="klara")
    assert one.result["balance"] == 1 and one.result["difference"] == 1 and one.result["winner"] is None
    assert [s["successes"] for s in one.result["sides"]] == [2, 1]
    assert "Vede Maxin o 1 (k vítězství je potřeba náskok 3)" in one.text
    pr.dice.extend([1, 1, 2, 3, 5, 6, 1, 1])
    two = await pr.one("tug roll", as_="mira")  # anyone at the table may roll the round
    assert two.result["balance"] == -1 and two.result["kind"] == "contest"
    assert "Vede Nosferatu o 1 (k vítězství" in two.text
    status = await pr.one("tug")
    assert status.text == "Přetlačují se Maxin a Nosferatu (na náskok 3): po 2 kolech vede Nosferatu o 1."
    pr.dice.extend([1, 1, 1, 1, 6, 6, 1, 1])
    assert (await pr.one("tug roll")).result["balance"] == -3
    assert (await pr.one("tug")).result["tug"] is None  # won: the tug is over


async def test_tug_even_round_and_pools_at_roll_time(pr: Chat) -> None:
    await pr.one("lang en")
    assert (await pr.one("tug start Bear 2")).error is None
    missing = await pr.one("tug roll")
    assert missing.error is not None and "Which pools" in missing.text
    pr.dice.extend([6, 1, 6])
    even = await pr.one("tug roll 2 vs 1")
    assert even.result["balance"] == 0 and "Back to even" in even.text
    pr.dice.extend([6, 6, 1])
    won = await pr.one("tug roll 2 vs 1")
    assert won.result["winner"] == 0 and "Alice wins the tug of war, leading by 2" in won.text


async def test_tug_target_number_and_one_at_a_time(pr: Chat) -> None:
    assert (await pr.one("tug start Bear 2 3 vs 3 tn 6")).error is None
    again = await pr.one("tug start Wolf 2")
    assert again.error is not None and "už přetlačují" in again.text
    pr.dice.extend([5, 5, 6, 1, 1, 1])
    assert (await pr.one("tug roll")).result["sides"][0]["successes"] == 1  # only the 6 counts at tn 6
    refused = await pr.one("tug stop", as_="mira")
    assert refused.error == "forbidden"
    assert (await pr.one("tug stop")).error is None


async def test_tug_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    first = await start_chat(url)
    await first.one("system pravidla", as_="st", st=True)
    await first.one("tug start Bear 3 2 vs 2")
    first.dice.extend([6, 6, 1, 1])
    await first.one("tug roll")
    await first.gateway.stop()
    second = await start_chat(url)
    try:
        state = (await second.one("tug")).result["tug"]
        assert (state["balance"], state["round"], state["pools"]) == (2, 1, [2, 2])
    finally:
        await second.gateway.stop()


async def test_initiative_jack_against_the_sabbat_gangrel(pr: Chat) -> None:
    """Both have Hunting Instinct on, neither Celerity, both Kondice 4: Wits decide, Jack (3) first."""
    await pr.one("init add Sabbatový Gangrel 4 1 hunting", as_="st", st=True)
    await pr.one("init add Ďábelský Jack 4 3 lovecký", as_="st", st=True)
    reply = await pr.one("init roll", as_="st", st=True)
    assert reply.result["order"] == ["Ďábelský Jack", "Sabbatový Gangrel"]
    assert reply.result["rolls"] == {}
    assert reply.text == "Iniciativa: 1. Ďábelský Jack, 2. Sabbatový Gangrel."


async def test_initiative_full_tie_goes_to_a_die_rerolled_while_tied(pr: Chat) -> None:
    """Had the Sabbat vampire Wits 3 as well, a die decides: higher first, re-rolled on a tie."""
    await pr.one("init add Jack 4 3 hunting", as_="st", st=True)
    await pr.one("init add Gangrel 4 3 hunting", as_="st", st=True)
    pr.dice.extend([3, 3, 2, 5])
    reply = await pr.one("init roll", as_="st", st=True)
    assert reply.result["order"] == ["Gangrel", "Jack"]
    assert reply.result["rolls"] == {"Jack": [3, 2], "Gangrel": [3, 5]}
    assert reply.result["dice"] == [3, 3, 2, 5]
    assert (await pr.one(f"verify {reply.result['id']}")).result["roll"]["order"] == ["Gangrel", "Jack"]
    assert (await pr.one("init")).result["order"] == ["Gangrel", "Jack"]  # kept in the channel


async def test_initiative_criteria_in_order_and_celerity_extra_actions(pr: Chat) -> None:
    await pr.one("lang en", as_="st")
    await pr.one("init add Slow 5 5", as_="st", st=True)
    await pr.one("init add Quick 1 1 celerity basic", as_="st", st=True)
    await pr.one("init add Quicker 1 1 celerity advanced", as_="st", st=True)
    await pr.one("init add Hunter 1 1 hunting", as_="st", st=True)
    await pr.one("init add Tough 5 1", as_="st", st=True)
    reply = await pr.one("init roll", as_="st", st=True)
    assert reply.result["order"] == ["Hunter", "Quicker", "Quick", "Slow", "Tough"]
    assert reply.result["extra"] == [["Quicker", "Quick"], ["Quicker"]]
    assert reply.text == (
        "Initiative: 1. Hunter, 2. Quicker, 3. Quick, 4. Slow, 5. Tough. Extra actions (Celerity), after"
        " everyone's first: Quicker, Quick; Quicker."
    )


async def test_init_join_uses_the_sheet_and_checks_powers(pr: Chat) -> None:
    await make_character(pr, "klara", "Maxin", kondice=4, rozum=2, celerity=1)
    refused = await pr.one("init join hunting", as_="klara")
    assert refused.error is not None and "Lovecký instinkt" in refused.text
    too_fast = await pr.one("init join celerity advanced", as_="klara")
    assert too_fast.error is not None
    joined = await pr.one("init join celerity basic", as_="klara")
    assert joined.text == "Maxin je v iniciativě: Kondice 4, Rozum 2, zapnuto: Základní Celerita."
    assert (await pr.one("init roll", as_="klara")).error == "forbidden"
    assert (await pr.one("init clear", as_="st", st=True)).error is None
    assert (await pr.one("init")).result["order"] is None


async def test_characters_sheet_and_audited_storyteller_edits(pr: Chat) -> None:
    made = await pr.one("char new Maxin", as_="klara")
    assert made.error is None and made.result["sheet"]["traits"]["charm"] == 1
    assert (await pr.one("char new maxin", as_="mira")).error is not None  # names are unique per system
    assert (await pr.one("st set Maxin šarm 3", as_="klara")).error == "forbidden"
    edit = await pr.one("st set Maxin šarm 3", as_="st", st=True)
    assert edit.text == "Maxin: Šarm 1 → 3."
    await pr.one("st set Maxin hunting ano", as_="st", st=True)
    await pr.one("st set Maxin celerity advanced", as_="st", st=True)
    sheet = await pr.one("sheet", as_="klara")
    assert (
        "Šarm 3" in sheet.text
        and "Celerita: pokročilá" in sheet.text
        and "Lovecký instinkt: ano" in sheet.text
    )
    audits = [
        (a.field_name, a.old_value, a.new_value) for a in await rows(pr, Audit) if a.action == "sheet.set"
    ]
    assert audits == [("charm", "1", "3"), ("hunting", "false", "true"), ("celerity", "0", "2")]
    assert (await pr.one("sheet Maxin", as_="mira")).error is not None  # not hers
    assert (await pr.one("sheet Maxin", as_="st", st=True)).error is None
    await pr.one("char new Druhý", as_="klara")
    listing = await pr.one("char", as_="klara")
    assert listing.text == "Vaše postavy v Pravidlech: Maxin, Druhý *."
    assert (await pr.one("char use Maxin", as_="klara")).error is None
    assert (await pr.one("char", as_="klara")).text == "Vaše postavy v Pravidlech: Maxin *, Druhý."


async def test_init_add_reads_its_name_and_ratings_typed(pr: Chat) -> None:
    """``init add``'s name takes the words its Stamina and Wits leave; a line it cannot read is refused
    in Czech, and nobody joins the order."""
    added = await pr.one("init add Ďábelský Jack 4 3 celerita základní", as_="st", st=True)
    assert added.error is None, added.text
    entry = next(e for e in added.result["entries"] if e["name"] == "Ďábelský Jack")
    assert (entry["stamina"], entry["wits"], entry["celerity"]) == (4, 3, 1)
    assert (await pr.one("init add Jack 11 2", as_="st", st=True)).text == (
        "Kondice a Rozum mají hodnotu 0 až 10: napište init add Ghúl 3 2."
    )
    assert (await pr.one("init add Jack 4", as_="st", st=True)).text.startswith("Napište init, init join")
    assert (await pr.one("init add Jack 4 3 rychle", as_="st", st=True)).text.startswith("Napište init,")
    shown = await pr.one("init", as_="st", st=True)
    assert [e["name"] for e in shown.result["entries"]] == ["Ďábelský Jack"]


async def test_tug_and_tug_stop_declare_nothing_and_refuse_words_in_czech(pr: Chat) -> None:
    """``tug`` and ``tug stop`` declare ``params=()``: the bare lines answer as before, and words
    after ``tug`` get Pravidla's own usage line, not the core's."""
    none = "V tomto kanálu neprobíhá žádné přetlačování. Začíná se příkazem tug start JMÉNO N."
    assert (await pr.one("tug")).text == none
    stop = await pr.one("tug stop")
    assert stop.error is not None and stop.text == none
    typo = await pr.one("tug strat Mira 3")
    assert typo.error is not None and typo.text.startswith("Napište tug start JMÉNO N"), typo.text
