"""The Point budget calculator, worked by chat's own pure functions (``plugins.nightcap.chargen``):
the build is applied as chat would apply ``trait`` and ``power add`` one after another on a fresh
creation sheet, so each refusal is the line chat gives. Pure: nothing is read or written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gateway import UserError
from plugins.nightcap import chargen, view
from plugins.nightcap.characters import parse_number
from plugins.nightcap.powers import TIERS, tier_or_error
from plugins.nightcap.sheet import TRAITS, trait_or_error

TRAIT_USAGE = "trait NAME N, e.g. trait physical 3"
MAX_ROWS = 8  # power rows on the form; three dots buy three powers at most
NAME_MAX = 60  # as chat's ``power add``


@dataclass(frozen=True)
class PowerRow:
    name: str
    tier: str
    trait: str


@dataclass
class BudgetView:
    """What the page shows: the form as typed, the refusals by field, and chat's summary."""

    traits: dict[str, str]
    powers: list[PowerRow]
    refusals: dict[str, str] = field(default_factory=dict)  # field name -> chat's line
    points_left: int = 0
    dots_left: int = 0
    chat: str = ""


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


def evaluate(form: Mapping[str, str], budget: chargen.Budget, duplicate: str) -> BudgetView:
    """The build in ``form`` (``physical`` .. ``spirit``, ``p0_name``/``p0_tier``/``p0_trait`` ..);
    ``duplicate`` is the refusal for a second power of one name (``{name}`` in it)."""
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


TIER_CHOICES = tuple((name, tier.dots) for name, tier in TIERS.items())
