"""Pure state machines: extended actions, teamwork, combat order, damage and soak, tiers, wounds,
and the seed's worked examples through the mechanics."""

from __future__ import annotations

import pytest

from gateway.core.dice import ScriptedDice
from plugins.nightcap import combat, extended, initiative, teamwork
from plugins.nightcap.mechanics import contest, score


def test_mira_picks_the_lock() -> None:
    roll = score(3 + 1 - 1, (9, 5, 10))
    assert (roll.total, roll.degree) == (3, "solid")


def test_dorian_deadlock() -> None:
    dorian = score(4, (7, 8, 3, 1))
    detective = score(3 + 1, (8, 6, 4, 2))
    result = contest(dorian, detective)
    assert (dorian.total, detective.total) == (1, 1)
    assert (result.margin, result.winner, result.outcome) == (0, None, "deadlock")
    # With Willpower declared Dorian would have walked away clean (a narrow win).
    assert contest(score(4, (7, 8, 3, 1), True), detective).outcome == "narrow"


def test_ghoul_strike_in_an_alley() -> None:
    ghoul = score(4 + 1, (10, 10, 8, 3, 2))
    target = score(2, (7, 4))
    result = contest(ghoul, target)
    assert (ghoul.total, target.total, result.margin, result.outcome) == (5, 1, 4, "decisive")
    hit = combat.attack_damage(result, soak=1)
    assert hit == combat.Hit(hit=True, margin=4, soak=1, damage=3)


def test_soak_never_below_zero_and_misses() -> None:
    narrow = contest(score(2, (7, 5)), score(2, (3, 4)))
    assert combat.attack_damage(narrow, soak=2).damage == 0
    assert combat.attack_damage(narrow, soak=5).damage == 0
    deadlock = contest(score(1, (7,)), score(1, (8,)))
    assert combat.attack_damage(deadlock, soak=0) == combat.Hit(False, 0, 0, 0)
    defender_wins = contest(score(1, (2,)), score(1, (10,)))
    assert combat.attack_damage(defender_wins, soak=0).damage == 0
    both_botch = contest(score(1, (1,)), score(2, (1, 1)))
    assert both_botch.outcome == "both_botch"
    assert combat.attack_damage(both_botch, soak=0).damage == 0


def test_health_track_and_incapacitation() -> None:
    assert combat.take_damage(8, 3) == 10
    assert combat.incapacitated(10)
    assert not combat.incapacitated(9)
    assert combat.take_damage(2, 0) == 2


@pytest.mark.parametrize(
    ("damage", "enabled", "penalty"),
    [(0, True, 0), (3, True, 0), (4, True, -1), (6, True, -1), (7, True, -2), (10, True, -2), (9, False, 0)],
)
def test_wound_penalty(damage: int, enabled: bool, penalty: int) -> None:
    assert combat.wound_penalty(damage, enabled) == penalty


def test_wound_penalty_thresholds_are_settings() -> None:
    assert combat.wound_penalty(2, True, (2, 5)) == -1
    assert combat.wound_penalty(5, True, (2, 5)) == -2


def test_tiers() -> None:
    tiers = ("basic", "adept", "advanced", "epic", "legendary")
    assert [combat.tier_dice(t) for t in tiers] == [0, 1, 2, 3, 4]


# --- extended actions -------------------------------------------------------------------------


def run(state: extended.Extended, *rolls: tuple[int, ...]) -> extended.Extended:
    for faces in rolls:
        state = extended.step(state, score(len(faces), faces))
    return state


def test_extended_success_within_rolls() -> None:
    state = run(extended.start(5, 3), (9, 10), (8, 2))  # 3, then 1: 4 so far
    assert (state.accumulated, state.made, state.status) == (4, 2, "active")
    state = run(state, (7, 3))
    assert (state.accumulated, state.status, state.reason) == (5, "success", "target_reached")


def test_extended_zero_costs_the_interval_only() -> None:
    state = run(extended.start(5, 3), (9, 10), (2, 3))
    assert (state.accumulated, state.made, state.complication) == (3, 2, False)


def test_extended_botch_resets_and_flags_then_second_botch_ends() -> None:
    state = run(extended.start(10, 5), (10, 10), (1, 1))
    assert (state.accumulated, state.botches, state.complication, state.status) == (0, 1, True, "active")
    state = run(state, (9, 9))
    assert state.accumulated == 2
    state = run(state, (1, 2))
    assert (state.status, state.reason, state.accumulated, state.made) == ("failed", "second_botch", 0, 4)
    with pytest.raises(extended.ExtendedError):
        run(state, (10, 10))


def test_extended_willpower_adds_but_cannot_save_a_botch() -> None:
    state = extended.step(extended.start(5, 3), score(2, (1, 5), True))
    assert (state.accumulated, state.botches) == (0, 1)
    state = extended.step(state, score(2, (4, 5), True))
    assert state.accumulated == 1


def test_extended_runs_out_of_rolls() -> None:
    state = run(extended.start(5, 3), (9, 2), (2, 2), (7, 3))
    assert (state.accumulated, state.status, state.reason) == (2, "failed", "out_of_rolls")


def test_extended_round_trips_as_a_document() -> None:
    state = run(extended.start(5, 3, "mental"), (9, 1), (1, 1))
    assert extended.Extended.from_dict(state.as_dict()) == state


@pytest.mark.parametrize(("target", "rolls"), [(0, 3), (5, 0), (101, 3), (5, 51)])
def test_extended_limits(target: int, rolls: int) -> None:
    with pytest.raises(extended.ExtendedError):
        extended.start(target, rolls)


# --- teamwork ---------------------------------------------------------------------------------


def helper(n: int, wp: bool = False) -> teamwork.Helper:
    return teamwork.Helper(key=f"c:{n}", name=f"H{n}", willpower=wp, character_id=n)


def test_team_cap_and_refusals() -> None:
    team = teamwork.Team(leader_key="c:0", leader_name="Lead", pool_word="physical")
    for n in (1, 2, 3):
        team = teamwork.add_helper(team, helper(n, wp=n == 2))
    assert (team.dice_bonus, team.success_bonus) == (2, 1)
    with pytest.raises(teamwork.TeamError, match="already has 3 helpers"):
        teamwork.add_helper(team, helper(4))
    with pytest.raises(teamwork.TeamError, match="already helping"):
        teamwork.add_helper(team, helper(1))
    with pytest.raises(teamwork.TeamError, match="cannot also help"):
        teamwork.add_helper(team, teamwork.Helper(key="c:0", name="Lead", willpower=False))
    assert teamwork.Team.from_dict(team.as_dict()) == team


def test_team_roll_dice_and_guaranteed_successes() -> None:
    team = teamwork.Team(leader_key="c:0", leader_name="Lead", pool_word="physical")
    team = teamwork.add_helper(teamwork.add_helper(team, helper(1)), helper(2, wp=True))
    dice = ScriptedDice([9, 5, 10])  # base 2 + 1 helper die = 3 dice
    roll = teamwork.team_roll(2, team, dice, willpower=True)
    assert (roll.pool, roll.dice, roll.dice_total, roll.total, roll.degree) == (3, (9, 5, 10), 3, 5, "strong")


def test_team_helpers_cannot_save_a_botch_but_lift_a_chance_die() -> None:
    team = teamwork.add_helper(
        teamwork.Team(leader_key="c:0", leader_name="L", pool_word="1"), helper(1, wp=True)
    )
    roll = teamwork.team_roll(1, team, ScriptedDice([1]))
    assert (roll.dice_total, roll.total, roll.degree) == (-1, 0, "botch")
    team0 = teamwork.add_helper(teamwork.Team(leader_key="c:0", leader_name="L", pool_word="0"), helper(1))
    roll = teamwork.team_roll(0, team0, ScriptedDice([7]))  # 0 + 1 die: a real die, not a chance die
    assert (roll.chance_die, roll.total) == (False, 1)


# --- combat order -----------------------------------------------------------------------------


def make_combat(*people: tuple[str, int]) -> initiative.Combat:
    c = initiative.Combat()
    for name, physical in people:
        c, _ = initiative.join(c, f"k:{name}", name, physical)
    return c


def test_order_by_total_then_physical_then_tied_in_joining_order() -> None:
    c = make_combat(("Ann", 2), ("Bo", 3), ("Cy", 2), ("Di", 2), ("Ed", 1))
    rolls = {"k:Ann": 2, "k:Bo": 2, "k:Cy": 4, "k:Di": 2, "k:Ed": 3}
    c = initiative.record_rolls(c, {k: (t, (), None) for k, t in rolls.items()})
    assert [x.name for x in c.combatants] == ["Cy", "Ed", "Bo", "Ann", "Di"]
    assert [x.tied for x in c.combatants] == [False, False, False, True, True]
    assert (c.round, c.current) == (1, "k:Cy")
    c = initiative.move(c, "k:Di", 4)
    assert [x.name for x in c.combatants] == ["Cy", "Ed", "Bo", "Di", "Ann"]
    assert not any(x.tied for x in c.combatants)


def test_rounds_advance_when_everyone_has_acted_and_skip_the_fallen() -> None:
    c = make_combat(("A", 1), ("B", 1), ("C", 1))
    c = initiative.record_rolls(c, {"k:A": (3, (), None), "k:B": (2, (), None), "k:C": (1, (), None)})
    c, new = initiative.advance(c)
    assert (c.current, c.round, new) == ("k:B", 1, False)
    c, new = initiative.advance(c, out=frozenset({"k:C"}))
    assert (c.current, c.round, new) == ("k:A", 2, True)
    c, _ = initiative.advance(c, out=frozenset({"k:C"}))
    assert c.current == "k:B"


def test_late_joiner_is_slotted_in_without_undoing_moves() -> None:
    c = make_combat(("A", 2), ("B", 2))
    c = initiative.record_rolls(c, {"k:A": (2, (), None), "k:B": (2, (), None)})
    c = initiative.move(c, "k:B", 1)
    c, _ = initiative.join(c, "k:N", "N", 3)
    assert [x.name for x in initiative.unrolled(c)] == ["N"]
    c = initiative.record_rolls(c, {"k:N": (2, (), None)})
    assert [x.name for x in c.combatants] == ["N", "B", "A"]
    assert not any(x.tied for x in c.combatants)
    c, _ = initiative.join(c, "k:M", "M", 2)
    c = initiative.record_rolls(c, {"k:M": (2, (), None)})
    assert [x.name for x in c.combatants] == ["N", "B", "A", "M"]
    assert [x.tied for x in c.combatants] == [False, True, True, True]
    assert c.current == "k:B"  # the turn did not move
    assert initiative.Combat.from_dict(c.as_dict()) == c


def test_combat_refusals() -> None:
    c = make_combat(("A", 1))
    with pytest.raises(initiative.CombatError):
        initiative.join(c, "k:other", "a", 2)  # same name
    with pytest.raises(initiative.CombatError):
        initiative.advance(c)
    with pytest.raises(initiative.CombatError):
        initiative.move(c, "k:A", 1)
