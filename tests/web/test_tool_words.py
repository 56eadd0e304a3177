"""The web adapter knows no rule system's words: a tool page's degrees, contest bands, traits and
tiers come from the system's own catalogue (``PracticeRoller.words``, ``BudgetCalculator.words``),
and no catalogue of the adapter holds any."""

from __future__ import annotations

import importlib

import pytest

from adapters.web.tools.pages import SYSTEM_WORDS, sayer
from gateway.core.i18n import Catalogue
from plugins.nightcap.web_tools import BUDGET, ROLLER

ADAPTER_CATALOGUES = (
    "adapters.web.texts",
    "adapters.web.tools_texts",
    "adapters.web.account.texts",
    "adapters.web.account.sheets_texts",
    "adapters.web.account.macro_texts",
)
# A rule system's words: its degrees, contests, traits, tiers, pools and sheet fields.
RULE_WORDS = (*SYSTEM_WORDS, "pool.", "field.")


@pytest.mark.parametrize("module", ADAPTER_CATALOGUES)
def test_no_catalogue_of_the_web_adapter_holds_a_rule_system_s_words(module: str) -> None:
    found = {
        key
        for value in vars(importlib.import_module(module)).values()
        if isinstance(value, Catalogue)
        for table in value.messages.values()
        for key in table
        if key.startswith(RULE_WORDS)
    }
    assert found == set(), f"{module} holds rule words: {sorted(found)}"


def test_a_tool_page_says_the_system_s_words_from_its_catalogue() -> None:
    words = Catalogue(
        {"en": {"trait.grace": "Grace", "band.narrow": "by a hair"}, "cs": {"trait.grace": "Půvab"}}
    )
    assert sayer("cs", words)("trait.grace") == "Půvab"
    assert sayer("en", words)("band.narrow") == "by a hair"
    assert sayer("en", None)("trait.grace") == "grace"  # a system without words: the word itself
    assert (
        sayer("cs", words)("budget.title") == sayer("cs")("budget.title") != "budget.title"
    )  # the page's own


@pytest.mark.parametrize("locale", ["en", "cs", "ru"])
def test_nightcap_s_tools_bring_every_word_their_pages_say(locale: str) -> None:
    """The budget form's traits and tiers and the practice table's contest line, in each language."""
    budget, roller = sayer(locale, BUDGET.words), sayer(locale, ROLLER.words)
    for key in (*(f"trait.{t}" for t in BUDGET.traits), *(f"tier.{t}" for t, _ in BUDGET.tiers)):
        assert BUDGET.words is not None and key in BUDGET.words.messages[locale], key
        assert budget(key) and budget(key) != key.partition(".")[2]
    for key in ("outcome.deadlock", "outcome.both_botch", "band.narrow", "band.clear", "band.decisive"):
        assert key in ROLLER.words.messages[locale], key
    assert roller("outcome.left", margin=2, band=roller("band.clear"))
