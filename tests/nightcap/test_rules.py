"""The pure rules: creation budget, power costs, check-in days, healing. No vault, no clock."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from gateway.core.errors import UserError
from plugins.nightcap import chargen, checkin, health
from plugins.nightcap.powers import TIERS, cost_refusal, match_tier, use_cost
from plugins.nightcap.sheet import match_field, new_sheet, pool_maxima

BUDGET = chargen.Budget()


def sheet_with(**traits: int) -> dict:
    sheet = new_sheet()
    sheet["traits"].update(traits)
    return sheet


def refusal(fn, *args) -> str:
    with pytest.raises(UserError) as caught:
        fn(*args)
    return caught.value.message


def test_trait_refusals_have_exact_reasons() -> None:
    assert (
        refusal(chargen.check_trait, sheet_with(physical=4), "social", 4, BUDGET)
        == "Social 4 would be a second trait at 4: Physical is already 4."
    )
    assert (
        refusal(chargen.check_trait, new_sheet(), "physical", 5, BUDGET)
        == "Physical 5 is above 4: no trait starts above 4; a Storyteller can raise it after approval."
    )
    assert (
        refusal(chargen.check_trait, new_sheet(), "mental", 0, BUDGET)
        == "Mental 0 is below 1: every trait starts at 1."
    )
    assert (
        refusal(chargen.check_trait, sheet_with(physical=4, mental=3), "spirit", 3, BUDGET)
        == "Spirit 3 would spend 7 trait points, 1 more than the 6 you have: lower another trait first."
    )


def test_legal_trait_spreads_pass() -> None:
    chargen.check_trait(sheet_with(physical=4, mental=3), "social", 2, BUDGET)  # 3 + 2 + 1 = 6
    chargen.check_trait(sheet_with(physical=4), "physical", 4, BUDGET)  # re-setting the one 4
    chargen.check_trait(sheet_with(physical=3, mental=3, social=2), "spirit", 2, BUDGET)


def test_power_refusals_have_exact_reasons() -> None:
    assert (
        refusal(chargen.check_power, new_sheet(), "Doom", TIERS["epic"], BUDGET)
        == "Epic powers are beyond starting reach: at creation a power is Basic, Adept or Advanced."
    )
    assert (
        refusal(chargen.check_power, new_sheet(), "Doom", TIERS["legendary"], BUDGET)
        == "Legendary powers are beyond starting reach: at creation a power is Basic, Adept or Advanced."
    )
    sheet = new_sheet()
    sheet["powers"] = [{"name": "Step", "tier": "adept", "trait": "physical"}]
    assert (
        refusal(chargen.check_power, sheet, "Ward", TIERS["adept"], BUDGET)
        == "Ward (Adept) would spend 4 power dots, 1 more than the 3 you have:"
        " remove a power or pick a lower tier."
    )


@pytest.mark.parametrize(
    "tiers",
    [("basic", "basic", "basic"), ("advanced",), ("basic", "adept")],
)
def test_the_books_legal_power_sets(tiers: tuple[str, ...]) -> None:
    sheet = new_sheet()
    for i, tier in enumerate(tiers):
        chargen.check_power(sheet, f"P{i}", TIERS[tier], BUDGET)
        sheet["powers"].append({"name": f"P{i}", "tier": tier, "trait": "spirit"})
    assert chargen.summary(sheet, BUDGET)["power_dots_left"] == 0


def test_submit_says_exactly_what_is_over_or_under() -> None:
    sheet = sheet_with(physical=3)
    assert (
        refusal(chargen.check_submit, "Mira", sheet, BUDGET)
        == "Mira cannot be submitted: 4 trait points still to place; 3 power dots still to spend."
    )
    sheet = sheet_with(physical=4, mental=4, social=2, spirit=1)  # a Storyteller's hand, say
    sheet["powers"] = [{"name": "Doom", "tier": "epic", "trait": "mental"}]
    assert refusal(chargen.check_submit, "Mira", sheet, BUDGET) == (
        "Mira cannot be submitted: Physical and Mental are at 4; only one trait may be;"
        " 1 trait point too many;"
        " Doom is Epic, beyond starting reach; 1 power dot too many."
    )
    ready = sheet_with(physical=3, mental=3, social=2, spirit=2)
    ready["powers"] = [{"name": "Step", "tier": "advanced", "trait": "physical"}]
    chargen.check_submit("Mira", ready, BUDGET)
    assert chargen.problems(ready, BUDGET) == []


def test_budget_summary_is_the_calculator() -> None:
    sheet = sheet_with(physical=4, mental=2)
    sheet["powers"] = [{"name": "Ward", "tier": "basic", "trait": "spirit"}]
    s = chargen.summary(sheet, BUDGET)
    assert (s["trait_points_left"], s["power_dots_left"], s["at_max"]) == (2, 2, ["physical"])


def test_budget_numbers_are_settings() -> None:
    wide = chargen.Budget(trait_points=8, trait_max=5, power_dots=4)
    chargen.check_trait(sheet_with(physical=5, mental=4), "social", 1, wide)
    assert (
        refusal(chargen.check_trait, sheet_with(physical=5), "mental", 5, wide)
        == "Mental 5 would be a second trait at 5: Physical is already 5."
    )


@pytest.mark.parametrize(
    ("tier", "essence", "needs"),
    [("basic", 0, 1), ("adept", 1, 1), ("advanced", 2, 2), ("epic", 3, 3), ("legendary", 4, 4)],
)
def test_power_cost_at_each_tier(tier: str, essence: int, needs: int) -> None:
    cost = use_cost(TIERS[tier])
    assert (cost.essence, cost.needs) == (essence, needs)
    assert cost_refusal("Gaze", cost, "Mira", needs) is None
    assert cost_refusal("Gaze", cost, "Mira", needs - 1) is not None


def test_casting_below_the_learned_tier_costs_less_and_above_is_refused() -> None:
    assert use_cost(TIERS["advanced"], TIERS["adept"]).essence == 1
    assert use_cost(TIERS["legendary"], TIERS["basic"]).essence == 0
    assert (
        refusal(use_cost, TIERS["adept"], TIERS["advanced"], "Step")
        == "Step is learned at Adept; it cannot be used at Advanced. Use it at Adept or below."
    )
    assert (
        cost_refusal("Ward", use_cost(TIERS["basic"]), "Mira", 0)
        == "Ward at Basic is free but needs at least 1 Essence in the pool; Mira has 0."
    )
    assert (
        cost_refusal("Gaze", use_cost(TIERS["advanced"]), "Mira", 1)
        == "Gaze at Advanced costs 2 Essence; Mira has 1."
    )


def test_tier_words() -> None:
    assert match_tier("ADV") is TIERS["advanced"]
    assert match_tier("3") is TIERS["advanced"]
    assert match_tier("ward") is None
    assert refusal(match_tier, "a") == "'a' could be Adept or Advanced; write more of it."


def test_fields_by_prefix() -> None:
    assert match_field("orig") == "origin"
    assert match_field("W") == "weakness"
    assert refusal(match_field, "a") == "'a' could be Aptitude or Advantage; write more of it."


def test_pool_maxima() -> None:
    sheet = sheet_with(mental=3, spirit=2)
    assert pool_maxima(sheet, essence_max=10, health_levels=10) == {
        "willpower": 5,
        "essence": 10,
        "damage": 10,
    }
    sheet["max"] = {"essence": 12}
    assert pool_maxima(sheet, essence_max=10, health_levels=10)["essence"] == 12


LA = "America/Los_Angeles"


@pytest.mark.parametrize(
    ("now", "day", "opens"),
    [
        # 12:00 PST on 30 November; the day ends at 08:00 UTC.
        (
            datetime(2026, 11, 30, 20, 0, tzinfo=UTC),
            date(2026, 11, 30),
            datetime(2026, 12, 1, 8, 0, tzinfo=UTC),
        ),
        # 23:59:59 PST is still the 30th; one second later is the 1st.
        (
            datetime(2026, 12, 1, 7, 59, 59, tzinfo=UTC),
            date(2026, 11, 30),
            datetime(2026, 12, 1, 8, 0, tzinfo=UTC),
        ),
        (
            datetime(2026, 12, 1, 8, 0, 0, tzinfo=UTC),
            date(2026, 12, 1),
            datetime(2026, 12, 2, 8, 0, tzinfo=UTC),
        ),
        # Summer time (PDT, UTC-7): midnight is 07:00 UTC.
        (datetime(2026, 7, 4, 6, 59, tzinfo=UTC), date(2026, 7, 3), datetime(2026, 7, 4, 7, 0, tzinfo=UTC)),
        # The day the clocks go forward (8 March 2026) is 23 hours long: it ends at 07:00 UTC.
        (datetime(2026, 3, 8, 12, 0, tzinfo=UTC), date(2026, 3, 8), datetime(2026, 3, 9, 7, 0, tzinfo=UTC)),
        # The day they go back (1 November 2026) is 25 hours long: it ends at 08:00 UTC on the 2nd.
        (
            datetime(2026, 11, 1, 12, 0, tzinfo=UTC),
            date(2026, 11, 1),
            datetime(2026, 11, 2, 8, 0, tzinfo=UTC),
        ),
    ],
)
def test_checkin_day_boundary(now: datetime, day: date, opens: datetime) -> None:
    assert checkin.checkin_day(now, LA) == day
    assert checkin.next_opening(now, LA) == opens


def test_checkin_day_in_another_zone() -> None:
    now = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
    assert checkin.checkin_day(now, "Europe/Prague") == date(2026, 12, 1)
    assert checkin.checkin_day(now, LA) == date(2026, 11, 30)
    assert checkin.next_opening(now, "Europe/Prague") == datetime(2026, 12, 1, 23, 0, tzinfo=UTC)


def test_checkin_gains_and_wait_text() -> None:
    assert checkin.gains(3) == (3, 1)
    assert checkin.gains(0) == (0, 1)
    assert checkin.gains(-2) == (0, 1)
    now = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    assert checkin.wait_text(now, datetime(2026, 12, 1, 8, 0, tzinfo=UTC)) == "12 h 0 min"
    assert checkin.wait_text(now, datetime(2026, 11, 30, 20, 0, 1, tzinfo=UTC)) == "1 min"


def test_healing_checks() -> None:
    health.check_heal("Mira", 3, 2, 2)
    assert refusal(health.check_heal, "Mira", 0, 5, 1) == "Mira has no damage to heal."
    assert (
        refusal(health.check_heal, "Mira", 3, 0, 1)
        == "Mira has no Essence to heal with: 1 Essence heals 1 level."
    )
    assert refusal(health.check_heal, "Mira", 2, 5, 3) == "Mira has only 2 damage to heal: write heal 2."
    assert (
        refusal(health.check_heal, "Mira", 5, 2, 3)
        == "Healing 3 levels costs 3 Essence; Mira has 2: write heal 2."
    )
    assert health.after_damage(8, 5, 10) == 10
    assert health.track(3, 10) == "■■■□□□□□□□ 3/10"
