"""Reading Decanter's roll and odds words (pure).

``roll POOL [dc N|NAME] [adv|dis|madv|mdis ...] [half] [force] [aid N|aid npc N ...] [ext]
[vs npc POOL | vs [CHARACTER] POOL [qualities]] [secret]``

A POOL is numbers and trait names joined by ``+`` (``3+2``, ``dex+firearms``, ``dex + firearms +1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from gateway import UserError
from gateway.rules.numbers import is_digits
from gateway.rules.pool_sum import PoolExpr, parse_pool
from gateway.rules.roll_words import split_once
from plugins.decanter.mechanics import DC_TABLE, QUALITY_STEPS, combine_qualities, dc_by_name
from plugins.decanter.words import normalise, suggestion

ROLL_USAGE = (
    "roll POOL dc N [adv|dis|madv|mdis] [half] [force] [aid N] [ext] [vs npc POOL | vs POOL] [secret],"
    " e.g. roll 3+2 dc 4, roll dex+firearms dc hard adv, roll 5 vs npc 6"
)
KEYWORDS = {"dc", "vs", "half", "force", "aid", "ext", "secret", *QUALITY_STEPS}
# Words that switch something on: once is all they mean (qualities add up, so they may repeat).
FLAGS = {"half", "force", "ext", "secret"}
MAX_DC = 100
_DC_KEYS = {title.replace(" ", ""): title for title in DC_TABLE}
OPPONENT_USAGE = "vs POOL or vs CHARACTER POOL, e.g. vs 4 or vs Bob dex+stealth"


@dataclass(frozen=True)
class Opponent:
    """The other player character's side: its words (``4``, ``3+1``, or ``NAME dex+stealth``, where
    the command decides whether the first word names a character) and its dice quality."""

    words: tuple[str, ...]
    quality: int = 0
    qualities: tuple[str, ...] = ()

    def split(self, is_character: bool) -> tuple[str | None, PoolExpr]:
        """(character name or None, pool); ``is_character`` says whether the first word names one."""
        if is_character and len(self.words) > 1:
            return self.words[0], parse_pool(list(self.words[1:]), OPPONENT_USAGE)
        return None, parse_pool(list(self.words), OPPONENT_USAGE)


@dataclass(frozen=True)
class RollRequest:
    pool: PoolExpr
    dc: int | None = None
    quality: int = 0
    qualities: tuple[str, ...] = ()
    half: bool = False
    force: bool = False
    aids: tuple[tuple[int, bool], ...] = ()
    ext: bool = False
    npc: PoolExpr | None = None
    opponent: Opponent | None = None
    secret: bool = False
    flags: frozenset[str] = field(default_factory=frozenset)


def parse_dc(words: list[str]) -> int:
    if not words:
        raise UserError("Which DC? Write dc 4, or a name: dc easy, routine, challenging, formidable, hard.")
    joined = " ".join(words)
    if is_digits(joined):
        dc = int(joined)
    elif is_digits(words[0]):
        extra = " ".join(words[1:])
        near = suggestion(words[1], [*KEYWORDS, "advantage", "disadvantage"]) if len(words) == 2 else None
        hint = f" Did you mean {near}?" if near else ""
        raise UserError(f"I cannot read {extra[:40]!r} after dc {words[0]}.{hint} Write {ROLL_USAGE}.")
    elif joined.lstrip().startswith("-") and is_digits(joined.strip()[1:]):
        raise UserError(f"A DC goes from 1 to {MAX_DC}.")
    else:
        found = dc_by_name(joined)
        if found is None:
            near = suggestion("".join(ch for ch in joined.casefold() if ch.isalpha()), _DC_KEYS)
            hint = f" Did you mean {_DC_KEYS[near]} ({DC_TABLE[_DC_KEYS[near]]})?" if near else ""
            raise UserError(
                f"No DC called {joined[:40]!r}.{hint} Names: easy 1, routine 2, challenging 3, formidable 4,"
                " hard 5, very hard 6, almost impossible 7, superhuman 8."
            )
        dc = found
    if not 1 <= dc <= MAX_DC:
        raise UserError(f"A DC goes from 1 to {MAX_DC}.")
    return dc


def _segments(words: list[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The words before the first keyword, then (keyword, its argument words) in order."""
    head: list[str] = []
    segments: list[tuple[str, list[str]]] = []
    for word in words:
        folded = word.casefold()
        if folded in KEYWORDS:
            segments.append((folded, []))
        elif segments:
            segments[-1][1].append(word)
        else:
            head.append(word)
    return head, segments


def _no_args(keyword: str, args: list[str]) -> None:
    if args:
        near = suggestion(args[0], [*KEYWORDS, "advantage", "disadvantage"])
        hint = f" Did you mean {near}?" if near else ""
        raise UserError(
            f"{keyword} takes nothing after it; I cannot read {' '.join(args)[:40]!r} there.{hint}"
        )


def _near_keywords(head: list[str]) -> None:
    """A word standing apart in the pool (no + or - joins it) that is a keyword misspelt: say which."""
    for before, word in pairwise(head):
        if before.endswith(("+", "-")) or word.startswith(("+", "-")):
            continue
        near = suggestion(word, [*KEYWORDS, "advantage", "disadvantage"])
        if near is not None:
            raise UserError(
                f"I cannot read {word[:40]!r} in the pool. Did you mean {near}? Write {ROLL_USAGE}."
            )


def _not_negative(expr: PoolExpr, what: str) -> int:
    """A helper's or an NPC's pool: numbers adding up to 0 or more (a negative one is a typo, not 0)."""
    value = expr.number()
    if value < 0:
        raise UserError(f"{what} cannot be negative ({expr.text[:20]}): write 0 or more.")
    return value


def _aid(args: list[str]) -> tuple[int, bool]:
    npc = bool(args) and args[0].casefold() == "npc"
    rest = args[1:] if npc else args
    expr = parse_pool(rest, "aid N or aid npc N, with the helper's pool as a number")
    if not expr.numeric:
        raise UserError("Write a helper's pool as a number: aid 4, or aid npc 6 for an NPC (who takes half).")
    pool = _not_negative(expr, "A helper's pool")
    if pool < 1:  # the book: "roll their dice pool" (an NPC takes half of it): a helper has dice
        raise UserError("A helper's pool needs at least one die: aid 4, or aid npc 6 for an NPC.")
    return pool, npc


def parse_roll(words: tuple[str, ...] | list[str], flags: tuple[str, ...] = ()) -> RollRequest:
    """Roll words; long forms (``advantage``, ``major disadvantage``, ``take half``) are read as the
    short keywords."""
    words = normalise(words)
    rest = [w for w in words if w.casefold() not in flags]
    found_flags = frozenset(w.casefold() for w in words if w.casefold() in flags)
    try:
        rest, right = split_once(rest)
    except ValueError:
        raise UserError("A contest has two sides: write vs once.") from None
    head, segments = _segments(rest)
    _near_keywords(head)
    pool = parse_pool(head, ROLL_USAGE)
    dc: int | None = None
    steps: list[str] = []
    half = force = ext = secret = False
    aids: list[tuple[int, bool]] = []
    said: set[str] = set()
    for keyword, args in segments:
        if keyword == "dc":
            if dc is not None:
                raise UserError("Give the DC once.")
            dc = parse_dc(args)
            continue
        if keyword == "aid":
            aids.append(_aid(args))
            continue
        _no_args(keyword, args)
        if keyword in FLAGS:
            # ``roll 3 dc 2 half half`` is a slip, not more of it: say so rather than guess.
            if keyword in said:
                raise UserError(f"{keyword} is said once per roll: write it one time.")
            said.add(keyword)
        if keyword in QUALITY_STEPS:
            steps.append(keyword)
        elif keyword == "half":
            half = True
        elif keyword == "force":
            force = True
        elif keyword == "ext":
            ext = True
        elif keyword == "secret":
            secret = True
    npc: PoolExpr | None = None
    opponent: Opponent | None = None
    if right is not None:
        right_head, right_segments = _segments(right)
        right_steps: list[str] = []
        for keyword, args in right_segments:
            if keyword == "secret":
                _no_args(keyword, args)
                secret = True
            elif keyword in QUALITY_STEPS:
                _no_args(keyword, args)
                right_steps.append(keyword)
            else:
                raise UserError(f"{keyword} belongs before vs: it is about your own roll.")
        if right_head and right_head[0].casefold() == "npc":
            if right_steps:
                raise UserError("NPCs never roll, so they take no dice qualities.")
            npc = parse_pool(right_head[1:], "vs npc POOL, e.g. vs npc 6 or vs npc 3+3")
            if not npc.numeric:
                raise UserError("Write the NPC's pool as numbers: vs npc 6 or vs npc 3+3.")
            _not_negative(npc, "An NPC's pool")
        else:
            if not right_head:
                raise UserError(f"Who is on the other side? Write {OPPONENT_USAGE}.")
            opponent = Opponent(
                tuple(right_head),
                combine_qualities(QUALITY_STEPS[s] for s in right_steps),
                tuple(right_steps),
            )
    return RollRequest(
        pool=pool,
        dc=dc,
        quality=combine_qualities(QUALITY_STEPS[s] for s in steps),
        qualities=tuple(steps),
        half=half,
        force=force,
        aids=tuple(aids),
        ext=ext,
        npc=npc,
        opponent=opponent,
        secret=secret,
        flags=found_flags,
    )
