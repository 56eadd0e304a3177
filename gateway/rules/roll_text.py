"""``verify``'s account of a logged roll: from the result the command logged (``RollLog.result``),
each side of a contest with its own dice, total and degree, and the outcome; one roll as its dice,
total and degree. The core uses it when a roll's system gives no ``RuleSystem.roll_text``; a system
answers with it too, passing ``words`` to show its stored degree and outcome words in the reader's
language (``catalogue_roll_text``, the default). Pure: no vault, no I/O."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gateway.core.core_messages import say
from gateway.core.i18n import Catalogue


def with_comment(line: str, comment: str | None) -> str:
    """A roll's line with the roller's comment after it (``... #pjkh3 — sneaking past``)."""
    return f"{line} — {comment}" if comment else line


def dice_text(locale: str, dice: Sequence[Any] | None) -> str:
    return " ".join(str(d) for d in dice or []) or say(locale, "verify.no_dice")


Words = Callable[[str], str]  # a stored degree or outcome word (``success``) as the reader reads it


def _as_stored(word: str) -> str:
    return word


def _scored(
    locale: str, dice: Sequence[Any] | None, total: Any, degree: Any, words: Words = _as_stored
) -> str:
    """``7 3 8 → 2 (solid)``, leaving out what the roll did not record."""
    text = dice_text(locale, dice)
    if isinstance(total, int) and not isinstance(total, bool):
        text += f" → {total}"
    if degree:
        text += f" ({words(str(degree))})"
    return text


def _side_names(roll: Mapping[str, Any], count: int) -> list[str | None]:
    """Who each side was, where the side itself does not say: Nightcap keeps ``names`` (a
    challenge) or ``who`` and ``against`` (a roll against a pool) on the contest."""
    names = roll.get("names")
    if isinstance(names, list) and len(names) == count:
        return [str(n) for n in names]
    if count == 2 and roll.get("against") is not None:
        return [str(roll.get("who")), str(roll["against"])]
    return [None] * count


def _side(locale: str, side: Mapping[str, Any], name: str | None, n: int, words: Words) -> str:
    who = side.get("who") or name or say(locale, "verify.side", n=n)
    total = side.get("total", side.get("successes"))
    return f"{who} {_scored(locale, side.get('dice'), total, side.get('degree'), words)}"


def contest_text(locale: str, roll: Mapping[str, Any], words: Words = _as_stored) -> str:
    """``A 7 3 8 → 2 (solid) vs B 6 5 → 0 (failure): A wins by 2 (clear)``."""
    sides = [s for s in roll["sides"] if isinstance(s, Mapping)]
    names = _side_names(roll, len(sides))
    shown = [_side(locale, side, names[i], i + 1, words) for i, side in enumerate(sides)]
    text = f" {say(locale, 'verify.vs')} ".join(shown)
    winner = roll.get("winner")
    if isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < len(sides):
        who = sides[winner].get("who") or names[winner] or say(locale, "verify.side", n=winner + 1)
        margin = roll.get("margin")
        if isinstance(margin, int) and not isinstance(margin, bool) and margin > 0:
            text += ": " + say(locale, "verify.wins", winner=who, margin=margin)
        else:
            text += ": " + say(locale, "verify.wins_plain", winner=who)
    elif "winner" in roll:
        text += ": " + say(locale, "verify.no_winner")
    outcome = roll.get("outcome")
    if isinstance(outcome, str) and outcome:
        text += f" ({words(outcome)})"
    rerolls = roll.get("rerolls")  # ties re-rolled (``gateway.rules.ties``): their dice are in the sides'
    if isinstance(rerolls, int) and not isinstance(rerolls, bool) and rerolls > 0:
        text += say(locale, "verify.rerolls", n=rerolls)
    return text


def is_contest(roll: Mapping[str, Any]) -> bool:
    sides = roll.get("sides")
    return isinstance(sides, list) and len(sides) >= 2 and all(isinstance(s, Mapping) for s in sides)


def roll_text(
    locale: str,
    roll: Mapping[str, Any],
    dice: Sequence[Any],
    total: int | None,
    degree: str | None,
    words: Words = _as_stored,
) -> str:
    """The dice part of the line: a contest's sides from ``roll``; else the row's ``dice``,
    ``total`` and ``degree`` columns (rows logged before results kept sides have only these)."""
    if is_contest(roll):
        return contest_text(locale, roll, words)
    return _scored(locale, dice, total, degree, words)


def catalogue_roll_text(
    catalogue: Catalogue, roll: Mapping[str, Any], locale: str, prefix: str = "degree."
) -> str:
    """``verify`` of a roll as the core tells it, with each stored degree or outcome word
    (``success``) read from ``catalogue``'s ``prefix + word`` in the reader's language where the
    catalogue has it (``RuleSystem.roll_text``'s default)."""
    known = catalogue.messages[catalogue.fallback]

    def words(word: str) -> str:
        return catalogue.t(locale, prefix + word) if prefix + word in known else word

    total = roll.get("successes", roll.get("total"))
    return roll_text(locale, roll, roll.get("dice") or [], total, roll.get("degree"), words)
