"""Notation rolls and odds as chat lines, each within its platform's limit: a line that would be too
long is told in less detail (each term's sum, then only the totals), never cut. Marks on a face:
``(1)`` dropped by keep/drop, ``~1~`` rolled again (a reroll), ``6!`` exploded (the next face is the
die it added). Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from gateway.core.i18n import DECIMAL_COMMA, percent
from gateway.core.results import NotationResult
from gateway.features.notation.messages import t
from gateway.features.notation.odds import Odds
from gateway.features.notation.parse import Dice, Expression, Negative, Node, Number, Operation
from gateway.features.notation.roll import Outcome, TermRoll

# Bytes of UTF-8 a reply may take on each platform; others take DEFAULT_BYTES.
PLATFORM_BYTES = {"irc": 350, "secondlife": 1024, "discord": 2000}
DEFAULT_BYTES = 4000
STLOG_BYTES = 350  # the Storyteller log goes to every platform's channel, IRC's too
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def limit_for(platform: str) -> int:
    return PLATFORM_BYTES.get(platform, DEFAULT_BYTES)


def fits(text: str, limit: int) -> bool:
    return len(text.encode()) <= limit


def face_text(roll: TermRoll, i: int) -> str:
    face = str(roll.faces[i])
    if roll.term.fate:
        face = {-1: "-", 0: "0", 1: "+"}[roll.faces[i]]
    if roll.rerolled[i]:
        return f"~{face}~"
    if roll.term.explode is not None and roll.term.explode(roll.faces[i]) and _exploded_after(roll, i):
        face += "!"
    return face if roll.kept[i] else f"({face})"


def _exploded_after(roll: TermRoll, i: int) -> bool:
    return i + 1 < len(roll.faces) and roll.exploded[i + 1]


def term_text(locale: str, roll: TermRoll, level: int) -> str:
    """A term as ``[6 5 3 (1)]`` (level 0), ``[4 dice: 14]`` (level 1)."""
    if level == 0 or len(roll.faces) == 1:
        return "[" + " ".join(face_text(roll, i) for i in range(len(roll.faces))) + "]"
    return "[" + t(locale, "summary.dice", n=roll.term.count, value=roll.value) + "]"


def _node_text(node: Node, shown: list[str], parent: int = 0, right: bool = False) -> str:
    if isinstance(node, Number):
        return str(node.value)
    if isinstance(node, Dice):
        return shown.pop(0)
    if isinstance(node, Negative):
        return "-" + _node_text(node.operand, shown, 3)
    mine = _PRECEDENCE[node.op]
    text = f"{_node_text(node.left, shown, mine)} {node.op} {_node_text(node.right, shown, mine, True)}"
    if mine < parent or (mine == parent and right):
        return f"({text})"
    return text


def outcome_text(locale: str, expression: Expression, outcome: Outcome, level: int) -> str:
    """``[6 5 3 (1)] + 2 → 16`` for one result; only ``16`` at level 2."""
    total = _total(locale, expression, outcome.total)
    if level >= 2:
        return total
    shown = [term_text(locale, r, level) for r in outcome.rolls]
    return f"{_node_text(expression.body, shown)} → {total}"


def _total(locale: str, expression: Expression, total: int) -> str:
    if expression.counts_successes and not isinstance(expression.body, Operation | Negative):
        return t(locale, "successes", n=total)
    return str(total)


def roll_line(
    locale: str, who: str, expression: Expression, outcomes: Sequence[Outcome], suffix: str, limit: int
) -> str:
    """The roll's line, as detailed as ``limit`` bytes allow; ``suffix`` (`` #id``) always ends it."""
    shown = expression_text(expression)
    for level in range(3):
        if len(outcomes) == 1:
            detail = outcome_text(locale, expression, outcomes[0], level)
        else:
            detail = "; ".join(
                f"{outcome_text(locale, expression, o, 2)} {_detail(locale, expression, o, level)}".rstrip()
                for o in outcomes
            )
        text = t(locale, "roll", who=who, expression=shown, detail=detail) + suffix
        if fits(text, limit):
            return text
    totals = [o.total for o in outcomes]
    if len(outcomes) > 1:
        listed = ", ".join(_total(locale, expression, n) for n in totals)
        text = t(locale, "roll", who=who, expression=shown, detail=listed) + suffix
        if fits(text, limit):
            return text
        listed = t(locale, "summary.sets", n=len(totals), sum=sum(totals), low=min(totals), high=max(totals))
        return t(locale, "roll", who=who, expression=shown, detail=listed) + suffix
    return t(locale, "roll", who=who, expression=shown, detail=_total(locale, expression, totals[0])) + suffix


def _detail(locale: str, expression: Expression, outcome: Outcome, level: int) -> str:
    """A set's dice after its total (``14 [6 5 3 (1)]``); nothing at level 2."""
    if level >= 2:
        return ""
    shown = [term_text(locale, r, level) for r in outcome.rolls]
    return _node_text(expression.body, shown)


def expression_text(expression: Expression) -> str:
    return expression.text


def result(expression: Expression, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The logged result: ``{kind: "dice", expression, total, rolls: [...], successes?}``; with a
    repeat, ``totals`` (each result's) and each roll's ``set``."""
    rolls: list[dict[str, Any]] = []
    for at, outcome in enumerate(outcomes):
        for r in outcome.rolls:
            entry = r.as_result()
            if len(outcomes) > 1:
                entry["set"] = at
            rolls.append(entry)
    successes = [o.successes for o in outcomes if o.successes is not None]
    return NotationResult(
        expression=expression_text(expression),
        total=sum(o.total for o in outcomes),
        rolls=tuple(rolls),
        dice=tuple(f for r in rolls for f in r["faces"]),
        totals=tuple(o.total for o in outcomes) if len(outcomes) > 1 else None,
        successes=sum(successes) if successes else None,
    ).as_json()


def outcomes_from(expression: Expression, roll: Mapping[str, Any]) -> list[Outcome] | None:
    """The outcomes a logged result holds (None when it does not match its expression)."""
    rolls = roll.get("rolls")
    if not isinstance(rolls, list):
        return None
    per_set = len(expression.terms)
    totals = roll.get("totals") if expression.repeat > 1 else [roll.get("total")]
    if not isinstance(totals, list) or len(rolls) != per_set * len(totals):
        return None
    outcomes: list[Outcome] = []
    try:
        for at, total in enumerate(totals):
            terms = []
            for term, raw in zip(expression.terms, rolls[at * per_set : (at + 1) * per_set], strict=True):
                faces = tuple(int(f) for f in raw["faces"])
                terms.append(
                    TermRoll(
                        term,
                        faces,
                        tuple(bool(k) for k in raw["kept"]),
                        tuple(bool(k) for k in raw["exploded"]),
                        tuple(bool(k) for k in raw["rerolled"]),
                        int(raw["value"]),
                        raw.get("successes"),
                    )
                )
            outcomes.append(Outcome(int(total), tuple(terms)))
    except (KeyError, TypeError, ValueError):
        return None
    return outcomes


# Odds


def decimal(locale: str, value: Fraction) -> str:
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if locale in DECIMAL_COMMA else text


def odds_line(locale: str, odds: Odds, repeat: int, limit: int) -> str:
    """Every total's chance and the at-least table; then every total's alone; then a summary."""
    each = t(locale, "odds.each", n=repeat) if repeat > 1 else ""
    common = {"expression": odds.expression, "each": each, "mean": decimal(locale, odds.mean)}
    exact = ", ".join(f"{n} {percent(locale, p)}" for n, p in odds.totals)
    at_least = ", ".join(f"{n} {percent(locale, p)}" for n, p in odds.at_least())
    text = t(locale, "odds", exact=exact, at_least=at_least, **common)
    if fits(text, limit):
        return text
    text = t(locale, "odds.short", exact=exact, **common)
    if fits(text, limit):
        return text
    mode, p = max(odds.totals, key=lambda item: item[1])
    table = odds.at_least()
    # The highest totals reached at least three times in four, half the time, once in four.
    picks = sorted(
        {max(n for n, p in table if p >= q) for q in (Fraction(3, 4), Fraction(1, 2), Fraction(1, 4))}
    )
    rows = dict(table)
    points = ", ".join(f"{n} {percent(locale, rows[n])}" for n in picks)
    what = t(locale, "odds.successes" if odds.successes else "odds.totals")
    return t(
        locale,
        "odds.summary",
        what=what,
        low=odds.totals[0][0],
        high=odds.totals[-1][0],
        mode=mode,
        p=percent(locale, p),
        at_least=points,
        **common,
    )


def chart_rows(locale: str, odds: Odds, at_least: bool, bars: int = 40) -> list[tuple[str, Fraction]]:
    """At most ``bars`` rows around the likeliest total; the rest lumped into ``N or less`` and
    ``N or more`` rows."""
    rows = odds.at_least() if at_least else list(odds.totals)
    if len(rows) <= bars:
        return [(str(n), p) for n, p in rows]
    best = max(range(len(odds.totals)), key=lambda i: odds.totals[i][1])
    start = max(0, min(best - bars // 2, len(rows) - bars))
    end = start + bars
    out: list[tuple[str, Fraction]] = []
    if start > 0:
        if at_least:
            start += 1  # "at least" is a running figure: the first shown row stands for the rows before it
        else:
            below = sum((p for _, p in rows[:start]), Fraction(0))
            out.append((t(locale, "chart.or_less", n=rows[start - 1][0]), below))
    out.extend((str(n), p) for n, p in rows[start:end])
    if end < len(rows) and not at_least:
        above = sum((p for _, p in rows[end:]), Fraction(0))
        out.append((t(locale, "chart.or_more", n=rows[end][0]), above))
    return out
