"""SheetSummary: a JSON round trip, the core's fallback, and each system answering for its own only."""

from __future__ import annotations

import json

from gateway.core.spec import RuleSystem
from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait, SheetSummary, bare_summary
from gateway.testing import Chat
from gateway.vault.models import Character

SYSTEMS = ("nightcap", "decanter", "dramatic", "pravidla", "nightwanderers")


def character(system: str, sheet: dict[str, object] | None = None) -> Character:
    return Character(
        owner_id=1, system=system, name="Mira", name_key="mira", status="approved", sheet=sheet or {}
    )


def test_a_summary_survives_json() -> None:
    summary = SheetSummary(
        name="Mira",
        system="decanter",
        status="approved",
        traits=(RatedTrait("wits", "Wits", 3, 5, "Attributes"), RatedTrait("brawl", "Brawl", 2)),
        pools=(PoolMeter("story_points", "Story Points", 1, 3),),
        powers=(Power("Veil", "adept", "spirit"), Power("Potence", 2), Power("Hunting Instinct")),
        fields=(FreeField("Notes", "a knife in the boot"),),
    )
    assert SheetSummary.from_json(json.loads(json.dumps(summary.as_json()))) == summary
    assert SheetSummary.from_json(bare_summary("Ana", "x", "creation").as_json()) == SheetSummary(
        "Ana", "x", "creation"
    )


async def test_no_system_answers_for_an_unknown_one_so_the_core_does(chat: Chat) -> None:
    plugins = chat.services.plugins
    assert plugins.sheet_summary(character("homebrew"), {"hp": (3, 5)}) == SheetSummary(
        "Mira", "homebrew", "approved"
    )


async def test_every_system_answers_for_its_own_characters(chat: Chat) -> None:
    """The core dispatches on the character's ``system`` to that system's object."""
    plugins = chat.services.plugins
    for system in SYSTEMS:
        # Derived by the core from the system's declared sheet: no plugin writes a summary by hand.
        assert type(plugins.systems()[system]).summary is RuleSystem.summary, system
        assert plugins.systems()[system].sheet is not None, system
        summary = plugins.sheet_summary(character(system), {})
        assert (summary.name, summary.system, summary.status) == ("Mira", system, "approved")
        assert summary != bare_summary("Mira", system, "approved"), system  # the system's own, not the core's
    # A reader without a language reads the book's (Pravidla's Czech), one with a language reads that.
    pravidla = plugins.systems()["pravidla"]
    sheet = {"traits": {"strength": 3}}
    assert plugins.sheet_summary(character("pravidla", sheet), {}) == pravidla.summary(
        character("pravidla", sheet), {}, "cs"
    )
    assert plugins.sheet_summary(character("pravidla", sheet), {}, "en") != plugins.sheet_summary(
        character("pravidla", sheet), {}
    )
