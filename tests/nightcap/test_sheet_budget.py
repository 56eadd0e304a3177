"""The creation budget declared on Nightcap's sheet (``SheetSpec.budget``, which the web's counter
reads) counts what ``chargen`` counts for ``trait``, ``power add``, ``char budget`` and ``char
submit``: the same numbers from one declaration, under the defaults and under other settings."""

from __future__ import annotations

import random

import pytest

from plugins.nightcap import chargen
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.powers import TIERS
from plugins.nightcap.sheet import TRAITS
from plugins.nightcap.sheet_spec import SHEET


def sheets(seed: int, n: int = 300) -> list[dict[str, object]]:
    """Sheets as a player or a Storyteller may leave them: any trait from 0 to 7, any tiers."""
    rng = random.Random(seed)
    return [
        {
            "traits": {t: rng.randint(0, 7) for t in TRAITS},
            "powers": [
                {"name": f"P{i}", "tier": rng.choice(list(TIERS)), "trait": rng.choice(TRAITS)}
                for i in range(rng.randint(0, 5))
            ],
        }
        for _ in range(n)
    ]


@pytest.mark.parametrize(
    "settings",
    [None, NightcapSettings(), NightcapSettings(trait_points=9, power_dots=5, creation_trait_max=5)],
)
def test_the_declared_budget_counts_what_the_rules_count(settings: NightcapSettings | None) -> None:
    assert SHEET.budget is not None
    budget = (settings or NightcapSettings()).budget
    traits, powers = SHEET.budget(settings).pools
    assert (traits.total, powers.total) == (budget.trait_points, budget.power_dots)
    for sheet in sheets(7):
        assert traits.left(SHEET, sheet) == budget.trait_points - chargen.traits_spent(
            sheet["traits"], budget
        )  # type: ignore[arg-type]
        assert powers.left(SHEET, sheet) == budget.power_dots - chargen.dots_spent(sheet["powers"])  # type: ignore[arg-type]


def test_the_book_s_prices() -> None:
    """ "Traits: six points to place"; "Powers: three dots to spend. Basic costs 1 dot, Adept 2,
    Advanced 3"; a new sheet has every trait at 1 and nothing spent."""
    assert SHEET.budget is not None
    traits, powers = SHEET.budget(None).pools
    assert (traits.total, traits.base, traits.cost, powers.total) == (6, 1, 1, 3)
    assert {k: powers.tiers[k] for k in ("basic", "adept", "advanced")} == {
        "basic": 1,
        "adept": 2,
        "advanced": 3,
    }
    new = {"traits": dict.fromkeys(TRAITS, 1), "powers": []}
    assert (traits.left(SHEET, new), powers.left(SHEET, new)) == (6, 3)
