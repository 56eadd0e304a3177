"""The core's replies in every language the gateway ships (issue 15, "Console, CLI and core text";
issue 19, Pravidla and Night Wanderers: "English leaks: ... 'Unknown command 'tug'…', help headers").

Issue 15: "`lang cs` on a Nightcap channel answers "Language for you: čeština." and goes on in
English. Core replies (help, errors, unknown command, `lang`, `system`, `verify`, `link`) come in
every language the gateway ships; a system that has no catalogue for a language says so instead of
pretending." and "An unknown command or trait suggests the closest one (`rol` → `roll`)."
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from gateway.core.core_messages import CORE, language_notice, listing
from gateway.core.i18n import LANGUAGES
from gateway.core.suggest import closest_commands
from gateway.testing import Chat, start_chat
from tests.helpers.chat import play
from tests.nightcap.helpers import ok, refused

NIGHTCAP_IN_CZECH = (
    " Systém Nightcap umí jen anglicky, jeho příkazy proto odpovídají v angličtině; help, lang, verify,"
    " link a ostatní obecné odpovědi budou v češtině."
)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_core_catalogue_speaks_every_shipped_language_with_the_same_fields() -> None:
    assert set(CORE.locales) == set(LANGUAGES)
    english = CORE.messages["en"]
    for locale in LANGUAGES:
        table = CORE.messages[locale]
        assert set(table) == set(english), locale
        for key, template in table.items():
            assert fields(template) == fields(english[key]), (locale, key)


@pytest.mark.parametrize(
    ("locale", "n", "expected"),
    [
        ("cs", 1, "Za poslední hodinu byl vydán 1 kód k propojení"),
        ("cs", 3, "Za poslední hodinu byly vydány 3 kódy k propojení"),
        ("cs", 5, "Za poslední hodinu bylo vydáno 5 kódů k propojení"),
        ("ru", 1, "За последний час вы запросили 1 код для связывания"),
        ("ru", 3, "За последний час вы запросили 3 кода для связывания"),
        ("ru", 5, "За последний час вы запросили 5 кодов для связывания"),
        ("ru", 21, "За последний час вы запросили 21 код для связывания"),
    ],
)
def test_plural_forms_follow_the_number(locale: str, n: int, expected: str) -> None:
    assert CORE.t(locale, "link.too_many_codes", n=n, minutes=3).startswith(expected)


def test_lists_join_with_the_locales_conjunction() -> None:
    assert listing("en", ["a", "b", "c"], "or") == "a, b or c"
    assert listing("cs", ["tug roll", "tug stop"], "or") == "tug roll nebo tug stop"
    assert listing("ru", ["по-чешски", "по-английски"]) == "по-чешски и по-английски"
    assert listing("cs", ["roll"], "or") == "roll"


def test_a_system_without_the_language_says_so_in_that_language() -> None:
    assert language_notice("cs", "Nightcap", ("en",)) == NIGHTCAP_IN_CZECH
    assert language_notice("cs", "Pravidla", ("cs", "en")) == ""
    assert language_notice("ru", "Pravidla", ("cs", "en")) == (
        " Система Pravidla говорит только по-чешски и по-английски, поэтому её команды отвечают на"
        " английском; help, lang, verify, link и другие общие ответы будут на русском."
    )
    assert language_notice("en", "Noční", ("cs",)) == (
        " Noční speaks only Czech, so its commands answer in Czech; help, lang, verify, link and the"
        " other common replies will be in English."
    )


def test_closest_commands() -> None:
    names = ["roll", "help", "tug", "tug roll", "tug stop", "char new", "char use", "st approve", "st"]
    assert closest_commands(["rol", "3"], names) == ["roll"]
    assert closest_commands(["ROLL"], ["roll"]) == ["roll"]
    assert closest_commands(["hepl"], names) == ["help"]
    assert closest_commands(["frobnicate"], names) == []
    # A first word that only begins longer names offers them, the nearest to the second word first.
    assert closest_commands(["chra", "nwe", "Mira"], names) == ["char new", "char use"]
    assert closest_commands(["char"], names) == ["char new", "char use"]
    assert closest_commands([], names) == []


async def test_lang_cs_on_nightcap_says_nightcap_stays_english_and_the_core_follows(chat: Chat) -> None:
    """Issue 15: `lang cs` on a Nightcap channel "goes on in English"; now it says so, and the core's
    own replies switch while Nightcap's rolls stay in English."""
    reply = await ok(chat, "lang cs")
    assert reply.text == "Jazyk pro vás: čeština." + NIGHTCAP_IN_CZECH
    assert reply.result == {"kind": "lang", "locale": "cs", "system_locales": ["en"]}
    listing_reply = await ok(chat, "help")
    assert listing_reply.text.startswith("Příkazy (Nightcap): ")
    assert ". Nápovědu k jednomu z nich vypíše help PŘÍKAZ." in listing_reply.text  # then the page, if paged
    assert (await ok(chat, "help verify")).text == (
        "verify: vyhledá hod v záznamu podle jeho ID. Použití: verify ID\n"
        "ID: ID hodu, uvedené na konci jeho řádku: k3f9m2x (nutno zadat)"
    )
    assert (
        await refused(chat, "rol 3")
        == "Neznámý příkaz „rol“. Nemysleli jste roll? Seznam příkazů vypíše help."
    )
    chat.dice.extend([9, 5, 10])
    assert (await ok(chat, "roll 3")).text.startswith("Mira rolls 3 dice")  # Nightcap's own words
    shown = await ok(chat, "lang")
    assert shown.text == (
        "Jazyk zde: čeština (cs). K dispozici: en (English), cs (čeština), ru (русский)." + NIGHTCAP_IN_CZECH
    )
    # Someone else on the same channel still reads English.
    assert await refused(chat, "rol 3", "bob") == (
        "Unknown command 'rol'. Did you mean roll? Type help for the list."
    )


async def test_a_pravidla_player_reads_czech_core_text(chat: Chat) -> None:
    """Issue 19 (Pravidla): English leaks: "Unknown command 'tug'…", help headers."""
    await play(chat, "pravidla", as_="st")
    listing_reply = await ok(chat, "help", "klara")
    assert listing_reply.text.startswith("Příkazy (Pravidla): ")
    # By topic (issue 14): char and tug are topics, with their counts.
    assert "char (" in listing_reply.text and "tug (4)" in listing_reply.text
    assert "Type help" not in listing_reply.text
    assert (await ok(chat, "help lang", "klara")).text == (
        "lang: ukáže nebo nastaví jazyk. Použití: lang [channel] [en|cs|ru]\n"
        "kanál: nastaví jazyk kanálu místo vašeho; jen Vypravěč (lze vynechat, slovo channel)\n"
        "jazyk: kód jazyka (lze vynechat, en, cs nebo ru)"
    )
    assert (
        await refused(chat, "help frob", "klara") == "Příkaz „frob“ neexistuje. Seznam příkazů vypíše help."
    )
    assert await refused(chat, "help rol", "klara") == (
        "Příkaz „rol“ neexistuje. Nemysleli jste roll? Seznam příkazů vypíše help."
    )
    assert await refused(chat, "frobnicate", "klara") == (
        "Neznámý příkaz „frobnicate“. Seznam příkazů vypíše help."
    )
    assert await refused(chat, "tgu roll", "klara") == (
        "Neznámý příkaz „tgu“. Nemysleli jste tug? Seznam příkazů vypíše help."
    )
    assert await refused(chat, "system nightcap", "klara") == (
        "Příkaz system NÁZEV smí použít jen Vypravěč a tuto roli nemáte."
    )
    assert await refused(chat, "lang channel en", "klara") == (
        "Příkaz lang channel KÓD smí použít jen Vypravěč a tuto roli nemáte."
    )
    assert await refused(chat, "lang xx", "klara") == (
        "lang: parametr „jazyk“ může být jen en, cs nebo ru, ne „xx“. Použití: lang [channel] [en|cs|ru]"
    )
    assert await refused(chat, "char new Maxin", "anon", verified=False) == (
        "Příkaz char new vyžaduje ověřený účet: přihlaste se u služeb sítě (nebo požádejte správce, ať"
        " této síti důvěřuje) a zkuste to znovu."
    )
    assert (await ok(chat, "system", "klara")).text.startswith(
        "Systém pravidel tohoto kanálu: Pravidla. Nainstalované: decanter (Decanter), "
    )
    assert await refused(chat, "verify", "klara") == (
        "verify: chybí parametr „ID“ – ID hodu, uvedené na konci jeho řádku: k3f9m2x. Použití: verify ID"
    )
    assert await refused(chat, "verify zzzzz", "klara") == "V záznamu není žádný hod s ID „zzzzz“."
    # Czech is Pravidla's own language: no notice.
    assert (await ok(chat, "lang cs", "klara")).text == "Jazyk pro vás: čeština."


async def test_switching_a_channel_to_pravidla_is_answered_in_czech(chat: Chat) -> None:
    switched = await ok(chat, "system pravidla", "st", st=True)
    assert switched.text == "Systém pravidel tohoto kanálu je nyní Pravidla."
    assert (await ok(chat, "system nightcap", "st", st=True)).text == "This channel now plays Nightcap."


async def test_a_person_who_chose_english_keeps_it_on_a_pravidla_channel(chat: Chat) -> None:
    await play(chat, "pravidla", as_="st")
    assert (await ok(chat, "lang en", "eva")).text == "Language for you: English."
    assert (await ok(chat, "help", "eva")).text.startswith("Pravidla commands: ")
    assert (
        await refused(chat, "rol", "eva")
        == "Unknown command 'rol'. Did you mean roll? Type help for the list."
    )
    assert (
        await refused(chat, "help tu", "eva") == "No command 'tu'. Did you mean tug? Type help for the list."
    )


async def test_night_wanderers_players_read_russian_core_text(chat: Chat) -> None:
    """Issue 19 (Night Wanderers): "help texts and "Unknown command …" in English"."""
    await play(chat, "nightwanderers", as_="st")
    assert (await ok(chat, "help", "olga")).text.startswith("Команды (Ночные скитальцы): ")
    assert await refused(chat, "rol 3", "olga") == (
        "Неизвестная команда «rol». Может быть, вы имели в виду roll? Список команд: help."
    )
    assert (await ok(chat, "help verify", "olga")).text == (
        "verify: найти бросок в журнале по его коду. Как писать: verify ID\n"
        "код: код броска в конце его строки: k3f9m2x (обязательно)"
    )
    assert (await ok(chat, "lang cs", "olga")).text == (
        "Jazyk pro vás: čeština. Systém Night Wanderers umí jen rusky a anglicky, jeho příkazy proto"
        " odpovídají v angličtině; help, lang, verify, link a ostatní obecné odpovědi budou v češtině."
    )


async def test_link_and_unlink_answer_in_the_readers_language(chat: Chat) -> None:
    await play(chat, "pravidla", as_="st")
    code = await ok(chat, "link", "klara")
    assert code.result is not None
    assert code.text == (
        f"Váš kód k propojení je {code.result['code']}. Na druhé platformě napište do 10 minut"
        f" link {code.result['code']}; platí jen jednou a připojí tamní identitu k této (console:klara)"
        " i se všemi vašimi postavami."
    )
    assert (await chat.one("link wrong999", "klara")).text == (
        "Kód „wrong999“ neexistuje: zkontrolujte ho, nebo si na druhé platformě napište link o nový."
    )
    assert await refused(chat, "link a b", "klara") == (
        "link: „b“ tu přebývá, tolik tento příkaz nebere. Použití: link | link KÓD"
    )
    assert await refused(chat, "unlink discord", "klara") == (
        "Nemáte propojenou žádnou identitu discord. Vaše identity: console:klara."
    )
    await ok(chat, "lang ru", "klara")
    assert await refused(chat, "unlink console", "klara") == (
        "console:klara — ваша единственная учётная запись: отвязывать её не от чего."
    )
    linked = await ok(chat, f"link {code.result['code']}", "555", platform="discord", channel="table")
    # discord:555 has no language of its own and its channel plays the default system: English.
    assert linked.text == (
        "Linked: console:klara, discord:555 are now one person. Characters: none; active: none."
    )


async def test_storyteller_commands_answer_in_czech_on_a_pravidla_channel(chat: Chat) -> None:
    """The `st` listing is a help header too; the Storyteller's own refusals follow the language."""
    await play(chat, "pravidla", as_="st")
    listing_reply = await ok(chat, "st", "st", st=True)
    assert listing_reply.text.startswith("Příkazy Vypravěče: st add, ")
    assert (await chat.one("st lsit", "st", st=True)).text.startswith(
        "Neznámý příkaz Vypravěče „lsit“; nemysleli jste st list? Příkazy Vypravěče: "
    )
    assert await refused(chat, "st add bob", "st", st=True) == (
        "Nikoho jménem bob brána zatím neviděla: napište PLATFORMA:ID, např. discord:80351110224678912."
    )
    assert (await ok(chat, "st add discord:5", "st", st=True)).text == (
        "discord:5 (5) má nyní roli Vypravěče, na všech platformách, které si propojí."
    )
    assert await refused(chat, "st add discord:5", "st", st=True) == "discord:5 už má roli Vypravěče."
    assert await refused(chat, "st log --limit 0", "st", st=True) == (
        "st log: parametr „počet“ musí být nejméně 1, ne 0. Použití: st log [JMÉNO]"
        " [--since 2h|today|2026-11-30] [--limit N]"
    )
    assert await refused(chat, "st history Nikdo", "st", st=True) == (
        "Postava Nikdo v systému Pravidla neexistuje."
    )
    assert (await ok(chat, "st log", "st", st=True)).text.startswith("Záznam Vypravěče, poslední 1:\n")
    assert await refused(chat, "st list", "klara") == (
        "Příkaz st list smí použít jen Vypravěč a tuto roli nemáte."
    )


def test_czech_and_russian_counts_of_log_entries() -> None:
    assert CORE.t("cs", "st.log.head", scope="", n=5) == "Záznam Vypravěče, posledních 5:"
    assert CORE.t("ru", "st.log.head", scope="", n=1) == "Журнал Рассказчика, последняя 1 запись:"
    assert CORE.t("ru", "st.log.head", scope="", n=3) == "Журнал Рассказчика, последние 3 записи:"
    assert CORE.t("ru", "st.log.head", scope="", n=25) == "Журнал Рассказчика, последние 25 записей:"


async def test_the_gateway_locale_speaks_where_no_rule_system_does(tmp_path: Path) -> None:
    """``[gateway] locale`` ("fallback message language") answers for a channel whose rule system
    is not installed; a person's own language still wins."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'fallback.db'}"
    chat = await start_chat(url, gateway={"default_system": "chess", "locale": "cs"})
    try:
        assert await refused(chat, "roll 3") == (
            "Tento kanál má nastavený systém pravidel „chess“, který tu není nainstalovaný."
        )
    finally:
        await chat.stop()
