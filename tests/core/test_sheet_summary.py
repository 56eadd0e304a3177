"""SheetSummary: a JSON round trip, the core's fallback, and each system answering for its own only."""

from __future__ import annotations

import json

from gateway.summary import FreeField, PoolMeter, Power, RatedTrait, SheetSummary, bare_summary
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


async def test_every_system_answers_for_its_own_characters_only(chat: Chat) -> None:
    hook = chat.services.plugins.pm.hook.gateway_sheet_summary
    for system in SYSTEMS:
        answers = [impl.function(character(system), {}, None) for impl in hook.get_hookimpls()]
        mine = [a for a in answers if a is not None]
        assert len(mine) == 1 and mine[0].system == system, (system, answers)
        assert mine[0].name == "Mira" and mine[0].status == "approved"
