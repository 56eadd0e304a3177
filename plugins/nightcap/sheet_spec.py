"""Nightcap's sheet as the book lays it out (pure declaration, ``gateway.core.sheet_spec``): the narrative
fields, the four core traits (1 to 5), Willpower, Essence and the Health track that ends in
Incapacitated, and powers by tier. A player edits it in creation with ``char set``, ``trait`` and
``power add``/``remove`` and hands it in with ``char submit``; a Storyteller edits any of it with
the ``st`` commands (no limits, as the book's Storyteller HUD) and approves it."""

from __future__ import annotations

from typing import Any

from gateway.core.sheet_spec import (
    BudgetPool,
    Choice,
    CreationBudget,
    EditLines,
    SheetAction,
    SheetField,
    SheetGroup,
    SheetSpec,
)
from plugins.nightcap import powers
from plugins.nightcap.chargen import Budget
from plugins.nightcap.sheet import DAMAGE, ESSENCE, FIELDS, MAX_FIELD, TRAITS, WILLPOWER

UNAPPROVED = ("creation", "submitted")

TIERS = (
    Choice("basic", {"en": "Basic"}),
    Choice("adept", {"en": "Adept"}),
    Choice("advanced", {"en": "Advanced"}),
    Choice("epic", {"en": "Epic"}, player=False),  # "beyond starting reach, earned in play"
    Choice("legendary", {"en": "Legendary"}, player=False),
)


def creation_budget(settings: Any = None) -> CreationBudget:
    """The book's budget ("Traits: six points to place", "Powers: three dots to spend"; Basic 1,
    Adept 2, Advanced 3) under ``[nightcap]``'s ``trait_points`` and ``power_dots``: the same
    ``chargen.Budget`` and tier prices that ``trait``, ``power add`` and ``char budget`` check."""
    budget: Budget = settings.budget if settings is not None else Budget()
    return CreationBudget(
        (
            BudgetPool(
                "traits",
                {"en": "Trait points", "cs": "Body vlastností", "ru": "Очки характеристик"},
                budget.trait_points,
                ratings=TRAITS,
                base=budget.base,
            ),
            BudgetPool(
                "powers",
                {"en": "Power dots", "cs": "Tečky schopností", "ru": "Точки способностей"},
                budget.power_dots,
                powers="powers",
                tiers={name: tier.dots for name, tier in powers.TIERS.items()},
            ),
        ),
        statuses=UNAPPROVED,
    )


SHEET = SheetSpec(
    fields=(
        *(
            SheetField(
                key,
                "text",
                {"en": key.title()},
                group="narrative",
                path=("fields", key),
                max_length=MAX_FIELD,
            )
            for key in FIELDS
        ),
        *(
            SheetField(key, "rating", {"en": key.title()}, group="traits", path=("traits", key), default=1)
            for key in TRAITS
        ),
        SheetField(WILLPOWER, "pool", {"en": "Willpower"}, group="pools", edit="storyteller"),
        SheetField(ESSENCE, "pool", {"en": "Essence"}, group="pools", edit="storyteller"),
        SheetField(
            DAMAGE, "pool", {"en": "Damage"}, group="pools", edit="storyteller", end={"en": "Incapacitated"}
        ),
        SheetField("powers", "powers", {"en": "Powers"}, group="powers", choices=TIERS, traits=TRAITS),
    ),
    groups=(
        SheetGroup("narrative", {"en": "Who they are"}),
        SheetGroup("traits", {"en": "Core traits"}),
        SheetGroup("pools", {"en": "Pools and health"}),
        SheetGroup("powers", {"en": "Powers"}),
    ),
    lines={
        "text": EditLines(player="char set {key} {value}", storyteller="st set {name} {key} {value}"),
        "rating": EditLines(player="trait {key} {value}", storyteller="st trait {name} {key} {value}"),
        "pool": EditLines(storyteller="st pool {name} {key} {value}"),
        "powers": EditLines(
            player="power add {power} {tier} {trait}",
            storyteller="st power {name} add {power} {tier} {trait}",
            player_remove="power remove {power}",
            storyteller_remove="st power {name} remove {power}",
        ),
    },
    actions=(
        SheetAction(
            "budget", {"en": "Show the budget left"}, "char budget", storyteller=False, statuses=UNAPPROVED
        ),
        SheetAction(
            "submit", {"en": "Submit for approval"}, "char submit", storyteller=False, statuses=("creation",)
        ),
        SheetAction("approve", {"en": "Approve and lock"}, "st approve {name}", statuses=UNAPPROVED),
        SheetAction("unapprove", {"en": "Unlock for changes"}, "st unapprove {name}", statuses=("approved",)),
        SheetAction("export", {"en": "Export to the sheet log"}, "st export {name}"),
    ),
    budget=creation_budget,
)
