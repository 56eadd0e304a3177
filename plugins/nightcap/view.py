"""How a Nightcap sheet reads: the whole sheet, the +prove line, the budget, and the structured sheet.

Pure: everything comes in as values (the sheet, the pools, the owner's name).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from plugins.nightcap import chargen, health
from plugins.nightcap.powers import TIERS
from plugins.nightcap.sheet import DAMAGE, ESSENCE, FIELDS, TRAITS, WILLPOWER

Pools = Mapping[str, tuple[int, int]]


def traits_line(sheet: dict[str, Any]) -> str:
    return ", ".join(f"{t.title()} {sheet['traits'][t]}" for t in TRAITS)


def power_text(power: dict[str, Any]) -> str:
    tier = TIERS[power["tier"]].title if power.get("tier") in TIERS else str(power.get("tier"))
    return f"{power['name']} ({tier}, {str(power.get('trait', '')).title()})"


def pools_line(status: str, pools: Pools) -> str:
    wp, ess, dmg = pools[WILLPOWER], pools[ESSENCE], pools[DAMAGE]
    if status != "approved":
        return f"Willpower max {wp[1]}, Essence max {ess[1]} (pools fill on approval)"
    return f"Willpower {wp[0]}/{wp[1]}, Essence {ess[0]}/{ess[1]}, Health {health.track(dmg[0], dmg[1])}"


def sheet_text(
    name: str, status: str, sheet: dict[str, Any], pools: Pools, owner: str, budget: chargen.Budget | None
) -> str:
    """The whole sheet, a few lines."""
    fields = " · ".join(f"{f.title()}: {sheet['fields'].get(f) or '—'}" for f in FIELDS)
    powers = "; ".join(power_text(p) for p in sheet["powers"]) or "none"
    lines = [
        f"{name} (Nightcap, {status}; player {owner})",
        fields,
        f"Traits: {traits_line(sheet)}",
        f"Powers: {powers}",
        pools_line(status, pools),
    ]
    if status != "approved" and budget is not None:
        lines.append(budget_text(sheet, budget))
    return "\n".join(lines)


def sheet_dict(name: str, status: str, sheet: dict[str, Any], pools: Pools, owner: str) -> dict[str, Any]:
    """The structured sheet for exports and JSON replies."""
    return {
        "name": name,
        "status": status,
        "owner": owner,
        "fields": {f: sheet["fields"].get(f, "") for f in FIELDS},
        "traits": {t: int(sheet["traits"][t]) for t in TRAITS},
        "powers": [{"name": p["name"], "tier": p["tier"], "trait": p.get("trait")} for p in sheet["powers"]],
        "pools": {k: {"current": cur, "max": mx} for k, (cur, mx) in pools.items()},
    }


def prove_text(name: str, sheet: dict[str, Any], pools: Pools) -> str:
    wp, ess = pools[WILLPOWER], pools[ESSENCE]
    return f"{name}: {traits_line(sheet)} · Willpower {wp[0]}/{wp[1]} · Essence {ess[0]}/{ess[1]}"


def budget_text(sheet: dict[str, Any], budget: chargen.Budget) -> str:
    s = chargen.summary(sheet, budget)
    at_max = ", ".join(t.title() for t in s["at_max"]) or "none yet"
    points = _spend(s["trait_points_left"], s["trait_points_over"], s["trait_points"], "trait points")
    dots = _spend(s["power_dots_left"], s["power_dots_over"], s["power_dots"], "power dots")
    text = f"Budget: {points}, {dots}; at {s['trait_max']}: {at_max} (one allowed)."
    if s["problems"]:
        text += f" Before submitting: {'; '.join(s['problems'])}."
    else:
        text += " Ready: char submit."
    return text


def _spend(left: int, over: int, total: int, units: str) -> str:
    """``4 of 6 trait points left``, or for a sheet past creation ``94 trait points over the 6``."""
    return f"{over} {units} over the {total}" if over else f"{left} of {total} {units} left"
