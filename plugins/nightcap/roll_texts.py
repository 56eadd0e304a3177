"""Texts of Nightcap's roll-side commands that count things or are shared by several commands: one
catalogue, so a number and its noun agree (``{n:plural:roll:rolls}``, gateway/core/i18n)."""

from __future__ import annotations

from typing import Any

from gateway.core.i18n import Catalogue

TEXTS = Catalogue(
    {
        "en": {
            "rolls_left": "{n} {n:plural:roll:rolls} left",
            "extended.started": "{name} starts an extended action{what}: {target}"
            " {target:plural:success:successes} in {rolls} {rolls:plural:roll:rolls}.",
            "extended.status": "{name}'s extended action: {accumulated}/{target}"
            " {target:plural:success:successes} after {made} of {rolls} {rolls:plural:roll:rolls}"
            " ({left} left).{comp}",
            "extended.done": "Done: {accumulated}/{target} after {made} {made:plural:roll:rolls}.",
            "incapacitated": "{name} is Incapacitated ({damage}/{levels} damage) and can take no actions:"
            " their fate is in the scene's hands.",
            "incapacitated.heal": "{name} is Incapacitated ({damage}/{levels} damage) and can take no"
            " actions, healing included: their fate is in the scene's hands. A Storyteller lifts it with"
            " st pool {name} damage N (another's healing, first aid, the scene's turn).",
            "st_roll.no_willpower": "An NPC's pool is just dice and has no Willpower to spend;"
            " st rollstat NAME TRAIT wp spends a character's.",
            "st_roll.usage": "st roll N [+N|-N ...] [LABEL] [vs N [+N|-N ...] [LABEL]] [secret],"
            " e.g. st roll 4 +1 ghoul or st roll 6 vs 3",
            "st_roll.needs_number": "A Storyteller roll starts each side with a number of dice."
            " Write {usage}.",
            "st_roll.one_vs": "A contest has two sides: write one vs.",
            "st_roll.line": "NPC roll by Storyteller {st}: {who} rolls {body} #{id}",
            "st_roll.contest": "NPC contest by Storyteller {st}: {line}",
            "st_rollstat.usage": "st rollstat NAME TRAIT [+N|-N ...] [wp] [secret],"
            " e.g. st rollstat Mira physical -1 wp",
        }
    }
)


def say(key: str, /, **params: Any) -> str:
    """A Nightcap text; Nightcap speaks English only so far."""
    return TEXTS.t("en", key, **params)
