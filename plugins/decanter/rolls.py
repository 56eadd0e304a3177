"""Decanter's rolls as pure rules: a pool read from a sheet, the Conditions that reach it, the checks
before a roll, and the odds worked out in an offload worker (the handlers are ``rolls_commands.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gateway import UserError
from gateway.core.i18n import percent
from gateway.core.web_tool import in_locale
from gateway.rules.charts import chart_result
from gateway.rules.numbers import is_digits
from gateway.rules.pool_sum import Pool, PoolExpr
from plugins.decanter import effects, odds, web_tools
from plugins.decanter.mechanics import QUALITY_STEPS
from plugins.decanter.sheet import SCHEMA


def resolve_pool(expr: PoolExpr, sheet: Mapping[str, Any] | None, who: str = "you") -> Pool:
    """Numbers and trait names to dice, traits rated from a character's ``sheet`` (None: numbers only)."""
    return SCHEMA.pool(expr, SCHEMA.load(dict(sheet)) if sheet is not None else None, who)


@dataclass(frozen=True)
class Side:
    """One side's pool after its Conditions: the dice (a penalty taken off, named in the label), the
    quality (typed steps and the Conditions' added, then clamped) and the Conditions that applied."""

    pool: Pool
    quality: int
    applied: effects.Applied

    def conditions(self) -> list[dict[str, object]]:
        return self.applied.as_result()


def with_conditions(
    expr: PoolExpr, base: Pool, sheet: Mapping[str, Any] | None, steps: tuple[str, ...]
) -> Side:
    """``base`` with the penalties of the Conditions on a character's ``sheet`` that reach a roll of
    ``expr``'s traits."""
    applied = effects.Applied()
    if sheet is not None:
        traits = [SCHEMA.match_trait(w) for _, w in expr.terms if not is_digits(w)]
        conditions = SCHEMA.load(dict(sheet)).conditions
        applied = effects.applied(conditions, [tr for tr in traits if tr is not None])
    quality = applied.final_quality(QUALITY_STEPS[s] for s in steps)
    pool = base
    if applied.dice:
        pool = Pool(base.dice + applied.dice, f"{base.label or expr.text} - {-applied.dice}")
    return Side(pool, quality, applied)


def rollable(side: Side, expr: PoolExpr, usage: str) -> None:
    """The book rolls "a number of 10-sided dice equal to your total dots": a pool of no dice (typed
    so, or a Condition's penalty taking the last die) is refused, not rolled as nothing and a botch."""
    if side.pool.dice < 1:
        shown = side.pool.label or expr.text
        named = f" ({', '.join(n for n, _ in side.applied.effects)})" if side.applied.dice else ""
        raise UserError(
            f"A pool needs at least one die; {shown[:60]}{named} makes {side.pool.dice}. Write {usage}."
        )


def half_check(half: bool, side: Side) -> None:
    if half and side.quality in (-2, 2):
        named = f" ({', '.join(n for n, _ in side.applied.effects)})" if side.applied.effects else ""
        raise UserError(
            "Take Half works with Advantage or Disadvantage only: Major qualities need dice to re-roll"
            f"{named}."
        )


def noted(text: str, roll_id: str, marked: str) -> str:
    """``text`` with the house-rule note before its `` #id`` (which may have words after it)."""
    if not marked:
        return text
    head, sep, tail = text.rpartition(f" #{roll_id}")
    return f"{head}{marked}{sep}{tail}" if sep else text + marked


def percent_text(p: Fraction) -> str:
    return percent("en", p)


@dataclass(frozen=True)
class RollSummary:
    """What the odds line and result need of ``odds.RollOdds``, made in the offload worker: sums
    and decimals of fractions with terms of thousands of bits are work for it, not the loop."""

    successes: dict[str, float]
    degrees: dict[str, Fraction]
    mean: float
    at_least: list[Fraction]  # P(at least k successes) for k = 1 .. min(most, 8)
    chart: dict[str, Any]  # ``result["chart"]``: the web page's charts, for Discord's and Matrix's picture


def roll_odds(pool: int, locale: str, **options: Any) -> RollSummary:
    """In an offload worker: ``odds.roll_odds``, summed up, with its chart in ``locale``."""
    chances = odds.roll_odds(pool, **options)
    top = max(chances.successes) if chances.successes else 0
    charts = web_tools.odds_charts(locale, options.get("dc"), chances.degrees, chances.successes)
    return RollSummary(
        successes={str(k): float(v) for k, v in chances.successes.items()},
        degrees=chances.degrees,
        mean=float(chances.mean),
        at_least=[chances.at_least(k) for k in range(1, min(top, 8) + 1)],
        chart=chart_result(in_locale(web_tools.TITLE, locale), [(c.title, c.rows) for c in charts]),
    )
