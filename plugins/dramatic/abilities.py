"""Abilities in a roll (pure): primary and secondary Abilities, the book's substitution between them,
and the Abilities a roller lacks.

The book (003): "If a roll is stated in terms of a primary ability, then a relevant secondary ability
can be substituted at -1 difficulty. If a roll is stated in terms of a secondary ability, then a
relevant primary ability can be substituted at +1 difficulty. If you don't have the ability at all,
then consult the Lack of Ability guidelines. If a substitution is explicitly mentioned below, then
it's reiterating these clauses, not stacking with them."

Primary Abilities are the sheet's classic Talents, Skills and Knowledges; secondary Abilities are
named freely on each sheet (``secondary``). Relevance is the Storyteller's call; the gateway checks
only that the substitution goes between the two kinds, and applies it once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gateway import UserError
from gateway.rules.dots_sheet import trait_title
from plugins.dramatic.sheet import ABILITIES, ATTRIBUTES, SCHEMA

PRIMARY = "primary"
SECONDARY = "secondary"
# The book's two clauses: (stated kind, substituted kind) -> difficulty change.
SUBSTITUTION = {(PRIMARY, SECONDARY): -1, (SECONDARY, PRIMARY): +1}
MAX_NAME = 40


def secondary_key(words: list[str] | tuple[str, ...]) -> str:
    """A secondary Ability's stored name: ``Gang Lore`` and ``gang_lore`` are ``gang_lore``."""
    key = "_".join(w for w in re.split(r"[\s_]+", " ".join(words).casefold()) if w)
    return key[:MAX_NAME]


def is_secondary_name(key: str) -> bool:
    """A word that can name a secondary Ability: letters first, and no Attribute or primary Ability
    (by name, abbreviation or prefix), so a pool word never means two traits."""
    if not re.fullmatch(r"[^\W\d_][\w'-]*", key):
        return False
    try:
        return SCHEMA.match_trait(key) is None
    except UserError:  # a prefix of several traits
        return False


def kind_of(word: str) -> str:
    """What a ``for`` word names: a primary Ability, or else a secondary one; an Attribute is refused."""
    trait = SCHEMA.match_trait(word)
    if trait in ATTRIBUTES:
        raise UserError(
            f"for names the Ability the roll is stated in; {trait_title(trait or '')} is an Attribute."
        )
    if trait in ABILITIES:
        return PRIMARY
    if not is_secondary_name(secondary_key([word])):
        raise UserError(f"I cannot read {word[:40]!r} as an Ability.")
    return SECONDARY


@dataclass(frozen=True)
class Substitution:
    stated: str  # the Ability the roll is stated in (its key)
    used: str  # the Ability rolled in its place
    adjustment: int  # -1 or +1


def substitute(stated: str, stated_kind: str, pool: dict[str, str]) -> Substitution:
    """The book's substitution for a roll stated in ``stated`` with the pool's Abilities (key -> kind)."""
    if stated in pool:
        raise UserError(
            f"The pool already has {trait_title(stated)}: that is no substitution, leave for out."
        )
    other = PRIMARY if stated_kind == SECONDARY else SECONDARY
    used = [key for key, kind in pool.items() if kind == other]
    if not used:
        sign = "-1" if stated_kind == PRIMARY else "+1"
        raise UserError(
            f"{trait_title(stated)} is a {stated_kind} Ability: the book substitutes a {other} Ability for"
            f" it (at {sign} difficulty), and this pool has none."
        )
    if len(used) > 1:
        raise UserError("One Ability stands in for another: the pool has several that could.")
    return Substitution(stated, used[0], SUBSTITUTION[(stated_kind, other)])
