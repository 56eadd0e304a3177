"""The public pages a rule system may offer under ``/tools/`` besides its odds forms: a dice roller
practice table and a character-creation budget calculator. Each is declared on the system object
(``RuleSystem.web_tools``) like a ``gateway.core.web_tool.WebTool``: the system gives the pure functions
(its own rules), the web adapter draws the page and knows no rules. Nightcap offers both.

A rule system's ``web_tools`` may hold any of ``WebPage``; ``gateway_web_tools`` registers odds forms
that belong to no system."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from gateway.core.web_tool import WebTool

if TYPE_CHECKING:
    from gateway.core.dice import DiceSource
    from gateway.core.i18n import Catalogue


# --------------------------------------------------------------------------- the practice table


@dataclass(frozen=True)
class RollerOdds:
    """Exact fractions by key: each degree of each side (``degree`` words), each contest row (keys of
    the roller's ``words``, ``contest.*``)."""

    degrees: tuple[tuple[str, Fraction], ...]
    their_degrees: tuple[tuple[str, Fraction], ...]
    contest: tuple[tuple[str, Fraction], ...]


class PracticeRoll(Protocol):
    @property
    def dice(self) -> Sequence[int]: ...
    @property
    def total(self) -> int: ...
    @property
    def degree(self) -> str: ...


class PracticeContest(Protocol):
    @property
    def outcome(self) -> str: ...  # ``deadlock``, ``both_botch`` or the margin band's word
    @property
    def winner(self) -> int | None: ...  # 0: the roller, 1: the opposition
    @property
    def margin(self) -> int: ...


class Practice(Protocol):
    """One practice throw: the roller's dice, the opposition's and the contest between them."""

    @property
    def mine(self) -> PracticeRoll: ...
    @property
    def theirs(self) -> PracticeRoll | None: ...
    @property
    def contest(self) -> PracticeContest | None: ...


@dataclass(frozen=True)
class PracticeRoller:
    """A dice roller practice table at ``/tools/<slug>``: a pool with a modifier, optionally against an
    opposition's. ``odds(dice, opposition, house)`` gives the exact odds (a module-level pure
    function: it runs in the offload pool, so it and its answer pickle); ``practice(dice, opposition,
    source, house)`` throws the gateway's dice and logs nothing. ``house`` names the system's
    house-rule switches the table takes; ``words`` is a catalogue with the ``degree.<word>`` and
    ``contest.<row>`` words of the charts (the system's own, as chat's charts say them), and the
    contest line's ``outcome.left``/``right`` (with ``{margin}`` and ``{band}``), ``outcome.deadlock``,
    ``outcome.both_botch`` and ``band.<outcome>``."""

    system: str
    odds: Callable[[int, int | None, Mapping[str, Any]], RollerOdds]
    practice: Callable[[int, int | None, DiceSource, Mapping[str, Any]], Practice]
    words: Catalogue
    house: tuple[str, ...] = ()
    slug: str = "roller"


# --------------------------------------------------------------------------- the budget calculator


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


class BudgetLimits(Protocol):
    """The creation budget in force (from the system's settings table)."""

    @property
    def base(self) -> int: ...
    @property
    def trait_points(self) -> int: ...
    @property
    def trait_max(self) -> int: ...
    @property
    def power_dots(self) -> int: ...


@dataclass(frozen=True)
class BudgetCalculator:
    """A creation budget calculator at ``/tools/<slug>``: a build of ``traits`` and power rows
    (``MAX_ROWS`` at most, a tier of ``tiers`` each: (word, dots)), worked out as chat would apply it.
    ``limits(settings)`` is the budget in force from the system's validated settings table (None
    without one); ``evaluate(form, limits, duplicate)`` reads the form (trait words, ``p0_name``,
    ``p0_tier``, ``p0_trait``, ..., ``add``) and returns what the page shows, each refusal chat's
    line (``duplicate``: the refusal of a second power of one name, with ``{name}``). ``words`` is a
    catalogue with the ``trait.<word>`` and ``tier.<word>`` names the form shows (without one, the
    words themselves). Pure."""

    system: str
    traits: tuple[str, ...]
    tiers: tuple[tuple[str, int], ...]
    limits: Callable[[object | None], BudgetLimits]
    evaluate: Callable[[Mapping[str, str], BudgetLimits, str], BudgetView]
    slug: str = "budget"
    words: Catalogue | None = None


WebPage = WebTool | PracticeRoller | BudgetCalculator
