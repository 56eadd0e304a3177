"""A logged roll as the web draws it: each side's dice as faces (10s and 1s marked), its total and
its degree, the degree coloured on the one scale every system shares (``RuleSystem.degree_colours``,
from the registry: no rule plugin is imported) and named in the book's own words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway import DegreeColour, RuleSystem

# The shared scale's colours as the stylesheet's classes: no inline style passes the pages' CSP.
TONES = {
    DegreeColour.BOTCH: "botch",
    DegreeColour.FAILURE: "failure",
    DegreeColour.PARTIAL: "partial",
    DegreeColour.SUCCESS: "success",
    DegreeColour.STRONG: "strong",
    DegreeColour.BEST: "best",
}
MAX_DICE = 60  # faces drawn per side; a bigger pool still reads from its line of text


def degree_label(system: RuleSystem | None, word: str) -> str:
    """The degree word in the book's language, when its catalogue names it."""
    if system is not None and system.catalogue is not None:
        try:
            return system.catalogue.t(system.default_locale, f"degree.{word}")
        except KeyError:
            pass
    return word.replace("_", " ").capitalize()


def sides(result: Mapping[str, Any], system: RuleSystem | None) -> list[dict[str, Any]]:
    """The roll's sides (one, or two for a contest) with dice; [] for a line that is not a roll."""
    parts = result.get("sides") if isinstance(result.get("sides"), list) else [result]
    colours = system.degree_colours if system is not None else {}
    shown = []
    for part in parts or ():
        if not isinstance(part, Mapping) or not isinstance(part.get("dice"), list):
            continue
        dice = [int(d) for d in part["dice"][:MAX_DICE] if isinstance(d, int)]
        word = part.get("degree")
        colour = colours.get(word) if isinstance(word, str) else None
        shown.append(
            {
                "dice": dice,
                "total": part.get("total"),
                "degree": word,
                "label": degree_label(system, word) if isinstance(word, str) else None,
                "tone": TONES.get(colour) if colour is not None else None,
            }
        )
    return shown
