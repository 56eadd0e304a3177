"""Combat order as a pure state machine (RULINGS, "Combat order").

Everyone rolls Physical with no modifiers; the highest total acts first. Ties: the higher Physical
rating first; still tied, they are listed as tied in joining order for the Storyteller to reorder
(``move``). The order holds for the whole fight. A round ends when everyone who can act has acted;
Incapacitated combatants are skipped. Someone who joins after the roll rolls on joining and is slotted
in by the same rule, after everyone who ranks the same, without disturbing the Storyteller's moves.

"Your turn. One meaningful action": ``action_taken`` says the current combatant has used theirs; it
clears when the turn passes. "Willpower may be spent by either, and is declared before the dice": a
character's standing declaration for their next defence is ``willpower`` (paid when declared).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Combatant:
    key: str  # "c:<character id>" or "npc:<casefolded name>"
    name: str
    physical: int
    joined: int
    character_id: int | None = None
    npc: bool = False
    initiative: int | None = None
    faces: tuple[int, ...] = ()
    roll_id: str | None = None
    tied: bool = False
    soak: int = 0  # NPCs only: a character's soak is on their sheet
    damage: int = 0  # NPCs only: a character's damage is on their Health pool
    willpower: bool = False  # a point declared (and paid) for the next defence

    @property
    def rank(self) -> tuple[int, int]:
        return (self.initiative or 0, self.physical)


@dataclass(frozen=True)
class Combat:
    combatants: tuple[Combatant, ...] = ()  # in acting order once rolled, joining order before
    round: int = 0  # 0 until the order is rolled
    current: str | None = None  # key of the combatant whose turn it is
    acted: tuple[str, ...] = ()
    joins: int = 0
    started_by: str = ""
    action_taken: bool = False  # the current combatant has taken this turn's action

    @property
    def rolled(self) -> bool:
        return self.round > 0

    def find(self, key: str) -> Combatant | None:
        return next((c for c in self.combatants if c.key == key), None)

    def find_name(self, name: str) -> Combatant | None:
        folded = " ".join(name.split()).casefold()
        return next((c for c in self.combatants if c.name.casefold() == folded), None)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for c in data["combatants"]:
            c["faces"] = list(c["faces"])
        data["acted"] = list(self.acted)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Combat:
        combatants = tuple(
            Combatant(**{**c, "faces": tuple(c.get("faces", ()))}) for c in data.get("combatants", ())
        )
        return cls(
            combatants=combatants,
            round=data.get("round", 0),
            current=data.get("current"),
            acted=tuple(data.get("acted", ())),
            joins=data.get("joins", len(combatants)),
            started_by=data.get("started_by", ""),
            action_taken=data.get("action_taken", False),
        )


class CombatError(ValueError):
    pass


def join(combat: Combat, key: str, name: str, physical: int, **kw: Any) -> tuple[Combat, Combatant]:
    if combat.find(key) is not None or combat.find_name(name) is not None:
        raise CombatError(f"{name} is already in this fight.")
    combatant = Combatant(key=key, name=name, physical=physical, joined=combat.joins, **kw)
    return replace(combat, combatants=(*combat.combatants, combatant), joins=combat.joins + 1), combatant


def unrolled(combat: Combat) -> list[Combatant]:
    return [c for c in combat.combatants if c.initiative is None]


def _mark_ties(order: list[Combatant]) -> list[Combatant]:
    counts: dict[tuple[int, int], int] = {}
    for c in order:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    return [replace(c, tied=counts[c.rank] > 1) for c in order]


def tie_partners(combatants: tuple[Combatant, ...] | list[Combatant]) -> dict[str, list[str]]:
    """Key -> the names of the others in its tie: each tie is a group of tied combatants of one rank
    (total and Physical), so two ties at the same total are two groups, not one."""
    groups: dict[tuple[int, int], list[Combatant]] = {}
    for c in combatants:
        if c.tied and c.initiative is not None:
            groups.setdefault(c.rank, []).append(c)
    return {c.key: [o.name for o in group if o.key != c.key] for group in groups.values() for c in group}


def rank_order(combatants: list[Combatant]) -> list[Combatant]:
    """Highest total first, then higher Physical, then joining order; equal (total, Physical) = tied."""
    return _mark_ties(sorted(combatants, key=lambda c: (-(c.initiative or 0), -c.physical, c.joined)))


def record_rolls(
    combat: Combat,
    rolls: dict[str, tuple[int, tuple[int, ...], str | None]],
    out: frozenset[str] = frozenset(),
) -> Combat:
    """Enter initiative totals (key -> (total, faces, roll id)) and put everyone in order.

    The first roll orders everyone and starts round 1. Later rolls (late joiners) are slotted into the
    existing order after every combatant who ranks higher or the same.
    """
    updated = [
        replace(c, initiative=rolls[c.key][0], faces=tuple(rolls[c.key][1]), roll_id=rolls[c.key][2])
        if c.key in rolls
        else c
        for c in combat.combatants
    ]
    if not combat.rolled:
        order = rank_order([c for c in updated if c.initiative is not None])
        waiting = [c for c in updated if c.initiative is None]
        first = next((c.key for c in order if c.key not in out), None)
        return replace(
            combat, combatants=(*order, *waiting), round=1, current=first, acted=(), action_taken=False
        )
    order = [c for c in updated if c.initiative is not None and c.key not in rolls]
    newcomers = sorted(
        (c for c in updated if c.key in rolls), key=lambda c: (-(c.initiative or 0), -c.physical, c.joined)
    )
    for c in newcomers:
        at = next((i for i, o in enumerate(order) if o.rank < c.rank), len(order))
        order.insert(at, c)
    tied_before = {c.key for c in combat.combatants if c.tied}
    marked = _mark_ties(order)
    # A tie the Storyteller already settled stays settled unless a newcomer joins it.
    new_keys = set(rolls)
    ranks_with_new = {c.rank for c in marked if c.key in new_keys}
    marked = [replace(c, tied=c.tied and (c.key in tied_before or c.rank in ranks_with_new)) for c in marked]
    waiting = [c for c in updated if c.initiative is None]
    current = combat.current
    if current is None or current in out:
        current = next((c.key for c in marked if c.key not in out and c.key not in combat.acted), None)
    taken = combat.action_taken and current == combat.current
    return replace(combat, combatants=(*marked, *waiting), current=current, action_taken=taken)


def move(combat: Combat, key: str, position: int, out: frozenset[str] = frozenset()) -> Combat:
    """Put one combatant at ``position`` (1 = acts first); settles any tie they were part of.

    Before anyone has acted in the round, the turn goes to whoever is now first."""
    if not combat.rolled:
        raise CombatError("Roll the order first (init roll); then move people in it.")
    order = [c for c in combat.combatants if c.initiative is not None]
    waiting = [c for c in combat.combatants if c.initiative is None]
    who = next((c for c in order if c.key == key), None)
    if who is None:
        raise CombatError("Only someone who has rolled for order can be moved.")
    if not 1 <= position <= len(order):
        raise CombatError(f"A position is 1 to {len(order)}.")
    rank = who.rank
    order = [c for c in order if c.key != key]
    order.insert(position - 1, who)
    order = [replace(c, tied=False) if c.rank == rank else c for c in order]
    current = combat.current
    if not combat.acted:
        current = next((c.key for c in order if c.key not in out), current)
    taken = combat.action_taken and current == combat.current
    return replace(combat, combatants=(*order, *waiting), current=current, action_taken=taken)


def advance(combat: Combat, out: frozenset[str] = frozenset()) -> tuple[Combat, bool]:
    """The current combatant has acted: the turn passes on. Returns (combat, a new round began)."""
    if not combat.rolled:
        raise CombatError("Nobody has rolled for order yet: init roll first.")
    order = [c.key for c in combat.combatants if c.initiative is not None]
    acted = list(combat.acted)
    if combat.current is not None and combat.current not in acted:
        acted.append(combat.current)
    start = order.index(combat.current) + 1 if combat.current in order else 0
    for key in order[start:] + order[:start]:
        if key not in acted and key not in out:
            return replace(combat, current=key, acted=tuple(acted), action_taken=False), False
    first = next((k for k in order if k not in out), None)
    return replace(combat, round=combat.round + 1, current=first, acted=(), action_taken=False), True


def turn_refusal(combat: Combat, key: str, name: str) -> str | None:
    """Why ``key`` may not take an action now, or None: in a fight with an order, "Your turn. One
    meaningful action". Defending is not an action, so this is asked of the one acting only."""
    if not combat.rolled:
        return f"The order is not rolled yet: init roll first; then {name} acts on their turn."
    if combat.current != key:
        now = combat.find(combat.current) if combat.current else None
        whose = f"It is {now.name}'s turn" if now else "It is nobody's turn"
        return (
            f"{whose}, not {name}'s: one meaningful action a turn, on your own (init list shows the order)."
        )
    if combat.action_taken:
        return (
            f"{name} has taken this turn's one meaningful action: init next passes the turn (a Storyteller"
            " may still act for them)."
        )
    return None


def set_npc(combat: Combat, key: str, **changes: Any) -> Combat:
    return replace(
        combat, combatants=tuple(replace(c, **changes) if c.key == key else c for c in combat.combatants)
    )
