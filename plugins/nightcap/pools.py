"""Reading a roll's words: ``<pool> [+N|-N ...] [wp] [vs <pool> [mods] [wp]] [secret]`` (pure parsing)."""

from __future__ import annotations

from dataclasses import dataclass

from gateway import UserError
from gateway.rules.numbers import clamped, is_digits
from gateway.rules.roll_words import MAX_NUMBER, MOD, TERM

ROLL_USAGE = "roll POOL [+N|-N ...] [wp] [vs POOL [+N|-N] [wp]] [secret], e.g. roll 3 +1 or roll physical wp"


@dataclass(frozen=True)
class PoolSpec:
    """One side of a roll: a number or a trait word, modifiers, and a Willpower declaration."""

    base: str
    modifiers: tuple[int, ...] = ()
    willpower: bool = False

    @property
    def number(self) -> int | None:
        return int(self.base) if is_digits(self.base) else None


@dataclass(frozen=True)
class RollRequest:
    sides: tuple[PoolSpec, ...]
    secret: bool = False


def parse_side(words: list[str]) -> PoolSpec:
    willpower = False
    parts: list[str] = []
    for word in words:
        if word.casefold() in ("wp", "willpower"):
            if willpower:
                raise UserError("Willpower is declared once per roll: write wp one time.")
            willpower = True
        else:
            parts.append(word)
    joined = "".join(parts)
    if not joined:
        raise UserError(f"Which pool? Write {ROLL_USAGE}.")
    match = TERM.match(joined)
    if not match or not match.group("base"):
        if joined[:1] in "+-":
            raise UserError(f"A roll starts with a pool, then modifiers: {ROLL_USAGE}.")
        raise UserError(f"I cannot read {joined[:40]!r} as a pool. Write {ROLL_USAGE}.")
    mods = tuple(clamped(m) for m in MOD.findall(match.group("mods")))
    base = match.group("base")
    numbers = ([clamped(base)] if is_digits(base[:1]) else []) + [abs(m) for m in mods]
    if any(n > MAX_NUMBER for n in numbers):
        raise UserError(f"Numbers in a roll stop at {MAX_NUMBER}.")
    return PoolSpec(base=base.casefold(), modifiers=mods, willpower=willpower)


def parse_roll(words: tuple[str, ...] | list[str]) -> RollRequest:
    """Split on ``vs`` and read each side; ``secret`` may appear anywhere."""
    secret = any(w.casefold() == "secret" for w in words)
    rest = [w for w in words if w.casefold() != "secret"]
    if not rest:
        raise UserError(f"Which pool? Write {ROLL_USAGE}.")
    lowered = [w.casefold() for w in rest]
    if lowered.count("vs") > 1:
        raise UserError("A contest has two sides: write one vs.")
    if "vs" in lowered:
        at = lowered.index("vs")
        sides: tuple[PoolSpec, ...] = (parse_side(rest[:at]), parse_side(rest[at + 1 :]))
    else:
        sides = (parse_side(rest),)
    return RollRequest(sides=sides, secret=secret)
