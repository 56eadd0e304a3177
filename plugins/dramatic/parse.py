"""Reading Dramatic Systems' roll words (pure).

``roll POOL [for ABILITY] [diff N] [wp] [spec] [retry] [vs [CHARACTER] POOL [diff N] [spec]] [secret]``

A POOL is numbers and trait names joined by ``+`` (``6``, ``dex+brawl``, ``dex + brawl + 1``).
``for ABILITY`` names the Ability the roll is stated in when the pool substitutes another for it.
``roll retry`` alone repeats the latest action. ``reflex`` marks a roll that is no action (the book:
"Reflex" rolls don't count as actions): it leaves the retry record alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from gateway import UserError
from gateway.rules.numbers import is_signed
from gateway.rules.pool_sum import MAX_NUMBER, PoolExpr, parse_pool
from gateway.rules.roll_words import split_once

ROLL_USAGE = (
    "roll POOL [for ABILITY] [diff N] [wp] [spec] [retry|reflex] [vs POOL [diff N] [spec]] [secret],"
    " e.g. roll 6 diff 7, roll dex+brawl wp, roll wits+gang_lore for streetwise, roll retry, roll 5 vs 4"
)
OPPONENT_USAGE = "vs POOL [diff N] [spec] or vs CHARACTER POOL, e.g. vs 4 or vs Bob dex+dodge"
DIFF_WORDS = {"diff", "difficulty", "dif"}
KEYWORDS = {*DIFF_WORDS, "wp", "willpower", "spec", "specialty", "retry", "vs", "secret", "for", "reflex"}
# The words that switch something on, each by its short name (said twice on one side is refused).
FLAGS = {
    "spec": "spec",
    "specialty": "spec",
    "retry": "retry",
    "reflex": "reflex",
    "secret": "secret",
}


@dataclass(frozen=True)
class SideRequest:
    words: tuple[str, ...]  # the pool's words (the command decides whether the first names a character)
    difficulty: int | None = None
    specialty: bool = False
    willpower: bool = False
    stated: str | None = None  # ``for ABILITY``: the Ability the roll is stated in
    reflex: bool = False  # no action: the retry record stays as it is

    def pool(self, skip_name: bool) -> PoolExpr:
        words = list(self.words[1:] if skip_name and len(self.words) > 1 else self.words)
        return parse_pool(words, ROLL_USAGE)


@dataclass(frozen=True)
class RollRequest:
    side: SideRequest
    retry: bool = False
    opponent: SideRequest | None = None
    secret: bool = False


def parse_difficulty(words: list[str]) -> int:
    if len(words) != 1 or not is_signed(words[0]):
        raise UserError("Write the difficulty as one number: diff 7 (2 to 10; 6 when left out).")
    value = int(words[0])
    if abs(value) > MAX_NUMBER:
        raise UserError(f"Numbers in a roll stop at {MAX_NUMBER}.")
    return value


def _side(words: list[str], *, attacker: bool) -> tuple[SideRequest, bool, bool]:
    """One side's request, and whether retry / secret were said on it."""
    head: list[str] = []
    difficulty: int | None = None
    stated: str | None = None
    specialty = willpower = retry = secret = reflex = False
    keyword: str | None = None
    args: list[str] = []

    def close() -> None:
        nonlocal difficulty, stated
        if keyword in DIFF_WORDS:
            if difficulty is not None:
                raise UserError("Give the difficulty once per side.")
            difficulty = parse_difficulty(args)
        elif keyword == "for":
            # The book: a substitution said twice is "reiterating these clauses, not stacking".
            if stated is not None:
                raise UserError("Name the Ability the roll is stated in once: for ABILITY.")
            if not args:
                raise UserError("for names the Ability the roll is stated in: for streetwise.")
            stated = "_".join(args)
        elif keyword is not None and args:
            raise UserError(f"{keyword} takes nothing after it; I cannot read {' '.join(args)[:40]!r} there.")

    said: set[str] = set()
    for word in words:
        folded = word.casefold()
        if folded in KEYWORDS:
            close()
            keyword, args = folded, []
            flag = FLAGS.get(folded)
            if flag is not None:
                # ``roll 3 spec spec`` is a slip, not a second specialty: say so rather than guess.
                if flag in said:
                    raise UserError(f"{flag} is said once per side: write it one time.")
                said.add(flag)
            if folded in ("wp", "willpower"):
                if not attacker:
                    raise UserError("Only you can spend Willpower on this roll; the other side is a pool.")
                if willpower:
                    raise UserError("Willpower is declared once per roll: write wp one time.")
                willpower = True
            elif folded in ("spec", "specialty"):
                specialty = True
            elif folded == "retry":
                if not attacker:
                    raise UserError("retry is about your own roll: write it before vs.")
                retry = True
            elif folded == "reflex":
                if not attacker:
                    raise UserError("reflex is about your own roll: write it before vs.")
                reflex = True
            elif folded == "secret":
                secret = True
        elif keyword is None:
            head.append(word)
        else:
            args.append(word)
    close()
    if retry and reflex:
        raise UserError("A reflex is no action, so it is no retry of one: write retry or reflex.")
    if not head and not (attacker and retry):  # ``roll retry``: the latest action's pool
        raise UserError(f"Which pool? Write {ROLL_USAGE if attacker else OPPONENT_USAGE}.")
    return SideRequest(tuple(head), difficulty, specialty, willpower, stated, reflex), retry, secret


def parse_roll(words: tuple[str, ...] | list[str]) -> RollRequest:
    try:
        left, right = split_once(words)
    except ValueError:
        raise UserError("A resisted roll has two sides: write vs once.") from None
    side, retry, secret = _side(left, attacker=True)
    if side.words:
        parse_pool(list(side.words), ROLL_USAGE)  # fail early on a malformed pool (names are checked later)
    opponent: SideRequest | None = None
    if right is not None:
        if retry:
            raise UserError("A resisted roll is not a retry: leave retry out.")
        opponent, _, secret_right = _side(right, attacker=False)
        secret = secret or secret_right
    return RollRequest(side, retry, opponent, secret)
