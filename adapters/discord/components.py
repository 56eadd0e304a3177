"""Buttons under replies where the next step is obvious, and what a click on one runs.

A button carries the command line it runs in its ``custom_id`` (``gw:1:<line>`` answered in the
channel, ``gw:p:<line>`` answered to the clicker only); a line too long for Discord's 100 characters
is kept in the vault and the id names it (``gw:k:<key>``). A click runs that line as the user who
clicked, through the router like any command: a button grants nothing the line would not (a Defend
button answers only for the challenged player; anyone else is told they have no challenge).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adapters.discord.texts import t

ACTION_ROW, BUTTON = 1, 2
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4
CUSTOM_ID = 100  # Discord: 1-100 characters, unique within the message
LABEL = 80
ROW_BUTTONS = 5
ROWS = 5
PREFIX = "gw"
PUBLIC, PRIVATE, STORED = "1", "p", "k"
KEY_CHARS = 24

# Defences: rule system -> the traits its characters answer a challenge with (``RuleSystem.defences``);
# a Defend button per trait (four at most), and Concede, fit one row of five.
Defences = Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Action:
    """A button: its label, the command line it runs, and whether its answer is for the clicker only."""

    label: str
    line: str
    private: bool = False
    style: int = SECONDARY


def actions(
    line: str, result: Mapping[str, Any] | None, locale: str = "en", defences: Defences | None = None
) -> list[Action]:
    """The next steps a reply offers: answer a pending challenge (with the traits of ``defences``
    for the challenge's system), or roll the same pool again and see its odds. ``line`` is the
    command line that produced the reply; labels in ``locale``."""
    if not isinstance(result, Mapping):
        return []
    kind = result.get("kind")
    if kind == "challenge" and result.get("status") == "pending":
        traits = (defences or {}).get(str(result.get("system") or ""), ())
        defend = [
            Action(t(locale, "button.defend", trait=trait.title()), f"defend {trait}", style=PRIMARY)
            for trait in traits
        ]
        return [*defend[: ROW_BUTTONS - 1], Action(t(locale, "button.concede"), "concede", style=DANGER)]
    words = line.split()
    if kind in ("roll", "contest") and len(words) > 1 and words[0].casefold() == "roll":
        private = bool(result.get("secret"))
        odds = " ".join(w for w in words[1:] if w.casefold() != "secret")
        return [
            Action(t(locale, "button.roll_again"), " ".join(words), private=private, style=PRIMARY),
            Action(t(locale, "button.odds"), f"odds {odds}", private=True),
        ]
    return []


def key_of(line: str, private: bool) -> str:
    return hashlib.sha256(f"{int(private)}:{line}".encode()).hexdigest()[:KEY_CHARS]


def encode(action: Action) -> tuple[str, str | None]:
    """(custom_id, key): the key is set when the line must be stored under it (too long to carry)."""
    custom_id = f"{PREFIX}:{PRIVATE if action.private else PUBLIC}:{action.line}"
    if len(custom_id) <= CUSTOM_ID:
        return custom_id, None
    key = key_of(action.line, action.private)
    return f"{PREFIX}:{STORED}:{key}", key


@dataclass(frozen=True)
class Click:
    """What a custom_id asks for: a line (or the key of a stored one) and the answer's privacy."""

    line: str | None
    private: bool
    key: str | None = None


def decode(custom_id: Any) -> Click | None:
    """The click a custom_id of ours describes, or None for anything else."""
    if not isinstance(custom_id, str) or len(custom_id) > CUSTOM_ID:
        return None
    prefix, _, rest = custom_id.partition(":")
    mode, _, value = rest.partition(":")
    if prefix != PREFIX or not value.strip():
        return None
    if mode == STORED:
        return Click(None, False, key=value)
    if mode in (PUBLIC, PRIVATE):
        return Click(value, mode == PRIVATE)
    return None


def rows(buttons: list[tuple[Action, str]]) -> list[dict[str, Any]]:
    """Action rows of at most five buttons each (at most five rows), ids unique within the message."""
    seen: set[str] = set()
    items = []
    for action, custom_id in buttons:
        if custom_id in seen:
            continue
        seen.add(custom_id)
        items.append(
            {"type": BUTTON, "style": action.style, "label": action.label[:LABEL], "custom_id": custom_id}
        )
    items = items[: ROW_BUTTONS * ROWS]
    return [
        {"type": ACTION_ROW, "components": items[i : i + ROW_BUTTONS]}
        for i in range(0, len(items), ROW_BUTTONS)
    ]
