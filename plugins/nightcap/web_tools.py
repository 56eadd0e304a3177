"""Nightcap's public web pages (``RuleSystem.web_tools``): the Point budget calculator, worked by chat's
own pure functions (``chargen``: the build is applied as chat would apply ``trait`` and ``power add``
one after another on a fresh creation sheet, so each refusal is the line chat gives), and the Dice
roller practice table (``odds`` and ``mechanics``: ``odds_rows`` runs in an offload worker,
``practice`` throws the gateway's dice and logs nothing). The web adapter draws both pages. Pure:
nothing is read or written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gateway import DiceSource, UserError
from gateway.core.web_pages import (
    BudgetCalculator,
    BudgetLimits,
    BudgetView,
    PowerRow,
    PracticeRoller,
    RollerOdds,
)
from plugins.nightcap import chargen, mechanics, odds, view
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.odds_chart import CONTEST_ROWS, WORDS
from plugins.nightcap.powers import TIERS, tier_or_error
from plugins.nightcap.sheet import TRAITS, trait_or_error
from plugins.nightcap.words import parse_number

# ------------------------------------------------------------------ Point budget calculator

TRAIT_USAGE = "trait NAME N, e.g. trait physical 3"
MAX_ROWS = 8  # power rows on the form; three dots buy three powers at most
NAME_MAX = 60  # as chat's ``power add``


def _power_rows(form: Mapping[str, str], add: bool) -> list[PowerRow]:
    rows = [
        PowerRow(
            form.get(f"p{n}_name", "").strip()[:NAME_MAX],
            form.get(f"p{n}_tier", "basic").strip()[:20] or "basic",
            form.get(f"p{n}_trait", "physical").strip()[:20] or "physical",
        )
        for n in range(MAX_ROWS)
    ]
    last = max((n for n, row in enumerate(rows) if row.name), default=-1)
    return rows[: min(MAX_ROWS, max(3, last + 1 + (1 if add else 0)))]


def _as_budget(limits: BudgetLimits) -> chargen.Budget:
    if isinstance(limits, chargen.Budget):
        return limits
    return chargen.Budget(
        trait_points=limits.trait_points,
        trait_max=limits.trait_max,
        power_dots=limits.power_dots,
        base=limits.base,
    )


def evaluate(form: Mapping[str, str], budget: BudgetLimits, duplicate: str) -> BudgetView:
    """The build in ``form`` (``physical`` .. ``spirit``, ``p0_name``/``p0_tier``/``p0_trait`` ..);
    ``duplicate`` is the refusal for a second power of one name (``{name}`` in it)."""
    budget = _as_budget(budget)
    typed = {t: form.get(t, str(budget.base)).strip()[:20] or str(budget.base) for t in TRAITS}
    out = BudgetView(traits=typed, powers=_power_rows(form, form.get("add") == "1"))
    sheet: dict[str, Any] = {"traits": dict.fromkeys(TRAITS, budget.base), "powers": []}
    for trait, word in typed.items():
        try:
            value = parse_number(word, TRAIT_USAGE)
            chargen.check_trait(sheet, trait, value, budget)
        except UserError as refused:
            out.refusals[trait] = str(refused)
            continue
        sheet["traits"][trait] = value
    for n, row in enumerate(out.powers):
        if not row.name:
            continue
        try:
            tier = tier_or_error(row.tier)
            trait = trait_or_error(row.trait)
            same = next((p for p in sheet["powers"] if p["name"].casefold() == row.name.casefold()), None)
            if same is not None:
                raise UserError(duplicate.format(name=same["name"]))
            chargen.check_power(sheet, row.name, tier, budget)
        except UserError as refused:
            out.refusals[f"p{n}"] = str(refused)
            continue
        sheet["powers"].append({"name": row.name, "tier": tier.name, "trait": trait})
    summary = chargen.summary(sheet, budget)
    out.points_left = summary["trait_points_left"]
    out.dots_left = summary["power_dots_left"]
    out.chat = view.budget_text(sheet, budget)
    return out


def limits(settings: object | None) -> BudgetLimits:
    """The creation budget of ``[nightcap]`` (the book's without the table)."""
    found = getattr(settings, "budget", None)
    return found if isinstance(found, chargen.Budget) else chargen.Budget()


BUDGET = BudgetCalculator(
    system=SYSTEM,
    traits=TRAITS,
    tiers=tuple((name, tier.dots) for name, tier in TIERS.items()),
    words=WORDS,
    limits=limits,
    evaluate=evaluate,
)

# ------------------------------------------------------------------ Dice roller practice table

# The house rules the table takes: Nightcap's dice switches (``NightcapHouseRules.dice``).
ROLLER_HOUSE = tuple(NightcapHouseRules().dice())


def odds_rows(dice: int, opposition: int | None, house: Mapping[str, bool]) -> RollerOdds:
    """In an offload worker: the degrees of ``dice`` (a chance die at 0 or below) and, against an
    ``opposition``, the contest's outcomes and margin bands, under the ``house`` dice switches."""
    mine = odds.roll_odds(dice, **house)
    degrees = tuple(mine.degrees.items())
    if opposition is None:
        return RollerOdds(degrees, (), ())
    theirs = odds.roll_odds(opposition, **house)
    contest = odds.contest_odds(mine, theirs)
    rows: list[tuple[str, Fraction]] = []
    for side, band in CONTEST_ROWS:
        if band is None:
            rows.append((f"contest.{side}", contest.outcomes[side]))
        else:
            rows.append((f"contest.{side}.{band}", contest.margins[side][band]))
    return RollerOdds(degrees, tuple(theirs.degrees.items()), tuple(rows))


@dataclass(frozen=True)
class Practice:
    mine: mechanics.Roll
    theirs: mechanics.Roll | None
    contest: mechanics.Contest | None


def practice(dice: int, opposition: int | None, source: DiceSource, house: Mapping[str, bool]) -> Practice:
    """One practice roll (and the opposition's), read by the book's rules with the ``house`` dice
    switches; nothing is logged."""
    mine = mechanics.roll(dice, source, **house)
    if opposition is None:
        return Practice(mine, None, None)
    theirs = mechanics.roll(opposition, source, **house)
    return Practice(mine, theirs, mechanics.contest(mine, theirs))


ROLLER = PracticeRoller(system=SYSTEM, odds=odds_rows, practice=practice, words=WORDS, house=ROLLER_HOUSE)
