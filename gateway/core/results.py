"""Typed roll results: what a rule system's roll, contest or dice-notation roll produced, as one
model every system builds and every adapter reads.

``Reply.result`` and the vault's logged rolls stay JSON (``as_json``); ``read_result`` (or a model's
``from_json``) turns such a dict back into the model, so the stored rolls and the HTTP API keep
their shape. The fields all systems share are typed; each system's own keys (Pravidla's ``target``,
Decanter's ``dc``, Dramatic's ``willpower``, the ``who``/``id``/``secret`` the core stamps) ride in
``details`` under their own names. A leaf module: it imports nothing of the gateway.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


class ResultError(ValueError):
    """A dict that is not the result asked for (another kind, or a field of the wrong type)."""


def _whole(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ResultError(f"{key}: a whole number expected, got {value!r}")
    return value


def _whole_or_none(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _whole(data, key)


def _faces(data: Mapping[str, Any], key: str = "dice") -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or not all(
        isinstance(f, int) and not isinstance(f, bool) for f in value
    ):
        raise ResultError(f"{key}: a list of faces expected, got {value!r}")
    return tuple(value)


def _rest(data: Mapping[str, Any], typed: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in typed}


class _Detailed:
    """What every result has: its system's own keys and the core's stamps in ``details``, which
    may not repeat a typed field (``as_json`` would write it twice)."""

    __slots__ = ()
    TYPED: ClassVar[frozenset[str]] = frozenset()
    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        if not self.TYPED.isdisjoint(self.details):
            raise ResultError(f"details repeat a typed field: {sorted(self.TYPED & set(self.details))}")

    @property
    def roll_id(self) -> str | None:
        """The public id the vault gave the logged roll (``verify ID``)."""
        roll_id = self.details.get("id")
        return str(roll_id) if roll_id else None

    @property
    def secret(self) -> bool:
        """Whether only its roller and the Storytellers may see it."""
        return bool(self.details.get("secret"))


@dataclass(frozen=True, slots=True)
class RollResult(_Detailed):
    """One pool rolled: its dice, the number the system reads from them (``total``), and the degree
    word its system names the outcome by (None where nothing was rolled against, as a Decanter roll
    with no DC; always written). ``successes`` for systems that count them; ``kind`` is ``roll``
    unless a system files the same shape under its own kind (Nightcap's ``initiative_roll``). Only
    ``dice`` is required of a dict read back: a third-party system may write no ``system`` or
    ``pool`` (a field left None is not written)."""

    system: str | None
    pool: int | None
    dice: tuple[int, ...]
    total: int | None
    degree: str | None
    successes: int | None = None
    kind: str = "roll"
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)

    TYPED = frozenset({"kind", "system", "pool", "dice", "successes", "total", "degree"})

    def as_json(self) -> dict[str, Any]:
        # Spelled out (no ``asdict``): this runs for every roll.
        out: dict[str, Any] = {"kind": self.kind}
        if self.system is not None:
            out["system"] = self.system
        if self.pool is not None:
            out["pool"] = self.pool
        out["dice"] = list(self.dice)
        if self.successes is not None:
            out["successes"] = self.successes
        if self.total is not None:
            out["total"] = self.total
        out["degree"] = self.degree
        out.update(self.details)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RollResult:
        """The model of a roll dict (``as_json``'s, or a logged one with the core's stamps);
        ``ResultError`` for anything else."""
        # A contest's side may leave out its kind: it is a roll.
        if not isinstance(data, Mapping) or not isinstance(data.get("kind", "roll"), str):
            raise ResultError("not a result")
        system, degree = data.get("system"), data.get("degree")
        if system is not None and not isinstance(system, str):
            raise ResultError(f"system: a name expected, got {system!r}")
        if degree is not None and not isinstance(degree, str):
            raise ResultError(f"degree: a word expected, got {degree!r}")
        return cls(
            system=system,
            pool=_whole_or_none(data, "pool"),
            dice=_faces(data),
            total=_whole_or_none(data, "total"),
            degree=degree,
            successes=_whole_or_none(data, "successes"),
            kind=data.get("kind", "roll"),
            details=_rest(data, cls.TYPED),
        )

    def adding(self, **details: Any) -> RollResult:
        """The same roll with more of its system's keys (a later key wins)."""
        return RollResult(
            self.system,
            self.pool,
            self.dice,
            self.total,
            self.degree,
            self.successes,
            self.kind,
            {**self.details, **details},
        )

    @property
    def who(self) -> str | None:
        """Whose roll it was, where the system or the core named them."""
        who = self.details.get("who")
        return str(who) if who else None

    @property
    def willpower(self) -> bool:
        """Whether Willpower added to it (Nightcap, Dramatic)."""
        return bool(self.details.get("willpower"))


@dataclass(frozen=True, slots=True)
class ContestResult(_Detailed):
    """Two (or more) sides rolled against each other: each side a ``RollResult``, and ``winner``
    the index of the side that won (None: nobody did). ``details`` hold the system's reading:
    ``margin``, ``outcome``, ``rounds``, ``tie``, ``action`` (``tug``, ``melee``...)."""

    system: str | None
    sides: tuple[RollResult, ...]
    winner: int | None
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    kind: str = "contest"

    TYPED = frozenset({"kind", "system", "sides", "winner"})

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.system is not None:
            out["system"] = self.system
        out["sides"] = [s.as_json() for s in self.sides]
        out["winner"] = self.winner
        out.update(self.details)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ContestResult:
        if not isinstance(data, Mapping) or data.get("kind") != "contest":
            raise ResultError("not a contest")
        system, sides, winner = data.get("system"), data.get("sides"), data.get("winner")
        if system is not None and not isinstance(system, str):
            raise ResultError(f"system: a name expected, got {system!r}")
        if not isinstance(sides, list | tuple) or not sides:
            raise ResultError(f"sides: a list of rolls expected, got {sides!r}")
        if winner is not None:
            winner = _whole(data, "winner")
        return cls(system, tuple(RollResult.from_json(s) for s in sides), winner, _rest(data, cls.TYPED))

    def adding(self, **details: Any) -> ContestResult:
        return ContestResult(self.system, self.sides, self.winner, {**self.details, **details}, self.kind)

    @property
    def margin(self) -> int | None:
        margin = self.details.get("margin")
        return margin if isinstance(margin, int) and not isinstance(margin, bool) else None

    @property
    def outcome(self) -> str | None:
        """The system's word for how it came out (Nightcap's ``clear``, a stealth's ``heard``)."""
        outcome = self.details.get("outcome")
        return str(outcome) if outcome else None

    @property
    def names(self) -> tuple[str, ...]:
        """Each side's name: the contest's ``names`` where it gave one, else the side's ``who``
        ("" for neither)."""
        given = self.details.get("names")
        names = given if isinstance(given, list | tuple) else ()
        return tuple(str(names[i]) if i < len(names) else s.who or "" for i, s in enumerate(self.sides))


@dataclass(frozen=True, slots=True)
class NotationResult(_Detailed):
    """A dice-notation roll (``roll 2d6+3``, any system): the expression as read, its ``total``,
    each group of dice rolled (``rolls``: faces, kept, ...), every face in order (``dice``); with a
    repeat, each result's total (``totals``); ``successes`` where the expression counts them."""

    expression: str
    total: int
    rolls: tuple[Mapping[str, Any], ...]
    dice: tuple[int, ...]
    totals: tuple[int, ...] | None = None
    successes: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    kind: str = "dice"

    TYPED = frozenset({"kind", "expression", "total", "rolls", "dice", "totals", "successes"})

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "expression": self.expression,
            "total": self.total,
            "rolls": [dict(r) for r in self.rolls],
            "dice": list(self.dice),
        }
        if self.totals is not None:
            out["totals"] = list(self.totals)
        if self.successes is not None:
            out["successes"] = self.successes
        out.update(self.details)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NotationResult:
        if not isinstance(data, Mapping) or data.get("kind") != "dice":
            raise ResultError("not a dice-notation roll")
        expression, rolls, totals = data.get("expression"), data.get("rolls"), data.get("totals")
        if not isinstance(expression, str):
            raise ResultError(f"expression: text expected, got {expression!r}")
        if not isinstance(rolls, list | tuple) or not all(isinstance(r, Mapping) for r in rolls):
            raise ResultError(f"rolls: a list of rolls expected, got {rolls!r}")
        successes = data.get("successes")
        return cls(
            expression=expression,
            total=_whole(data, "total"),
            rolls=tuple(rolls),
            dice=_faces(data),
            totals=None if totals is None else _faces(data, "totals"),
            successes=None if successes is None else _whole(data, "successes"),
            details=_rest(data, cls.TYPED),
        )


Result = RollResult | ContestResult | NotationResult


def read_result(data: Mapping[str, Any] | None) -> Result | None:
    """The model of a reply's or a logged roll's result, or None for any other result (a sheet, a
    scene's end, odds) and for a dict that does not fit: an adapter draws what it can and never
    fails on an old or odd row."""
    if not isinstance(data, Mapping):
        return None
    kind = data.get("kind")
    try:
        if kind == "contest":
            return ContestResult.from_json(data)
        if kind == "dice":
            return NotationResult.from_json(data)
        # Another kind with dice is a roll where it reads a degree (a harm or a pursuit reads none).
        if kind == "roll" or ("dice" in data and "degree" in data):
            return RollResult.from_json(data)
    except ResultError:
        return None
    return None


def roll_of(data: Mapping[str, Any] | None, kinds: Sequence[str] = ("roll",)) -> RollResult | None:
    """The one roll a result holds, if it is a roll of one of ``kinds``; None otherwise."""
    found = read_result(data)
    return found if isinstance(found, RollResult) and found.kind in kinds else None
