"""The Dice roller practice table, worked by Nightcap's own pure functions (``plugins.nightcap.odds``
and ``mechanics``). ``odds_rows`` runs in an offload worker; ``practice`` throws the gateway's dice
and logs nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from gateway import DiceSource
from plugins.nightcap import mechanics, odds
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.odds_chart import CONTEST_ROWS

# The house rules the table takes: Nightcap's dice switches (``NightcapHouseRules.dice``).
ROLLER_HOUSE = tuple(NightcapHouseRules().dice())


@dataclass(frozen=True)
class RollerOdds:
    """Exact fractions by key: each degree of each side, each contest row (``contest.*``)."""

    degrees: tuple[tuple[str, Fraction], ...]
    their_degrees: tuple[tuple[str, Fraction], ...]
    contest: tuple[tuple[str, Fraction], ...]


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
