"""What Conditions do to rolls (pure): reading an effect from words, and which effects a roll takes.

The book: Conditions "impose some kind of penalty on your character, such as Disadvantage on a type
of roll ... They can also impose a dice penalty on certain rolls". An effect is written

    [Major] Disadvantage | dis | mdis | -N [dice]   (one or both, joined by "and")
    [on | to | for TRAIT[, TRAIT | and TRAIT | or TRAIT ...] [rolls]]   (no traits: every roll)

e.g. ``Disadvantage on Composure rolls``, ``-2 dice on Dexterity and Firearms``, ``mdis on Social
rolls``, ``-1``. TRAIT is an Attribute, a Skill or a group (physical, social, mental).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gateway import UserError
from plugins.decanter.mechanics import combine_qualities
from plugins.decanter.sheet import GROUPS, Condition, Effect

EFFECT_USAGE = (
    "effect dis|mdis|-N [on TRAIT, TRAIT ...], e.g. effect dis on composure, effect -2 dice on dex,"
    " effect mdis on social rolls (no traits: every roll)"
)
QUALITY_WORDS = {
    "dis": -1,
    "disadv": -1,
    "disadvantage": -1,
    "mdis": -2,
    "majordisadvantage": -2,
}
_FILLER = {"a", "an", "the", "penalty", "dice", "die"}
_SCOPE = {"on", "to", "for", "when", "with", "rolling"}
_SEPARATORS = {"and", "or", "&", "/", "+", ","}
_ENDS = {"rolls", "roll", "checks", "check", "tests", "test", "pools", "pool"}
_EVERY = {"all", "every", "any"}
_PENALTY = re.compile(r"[-−–]([0-9]{1,2})")


def _tokens(text: str) -> list[str]:
    spaced = re.sub(r"([,&/+])", r" \1 ", text.casefold())
    return [w.strip(".;:!\"'()") for w in spaced.split() if w.strip(".;:!\"'()")]


def parse_effect(text: str, match_trait: Callable[[str], str | None]) -> Effect | None:
    """The effect ``text`` states, or None when it is no effect the gateway can apply (free text).
    ``match_trait`` names a trait word (``dex`` → dexterity) or returns None; it may refuse."""
    words = _tokens(text)
    quality = dice = 0
    i = 0
    while i < len(words) and words[i] not in _SCOPE:
        word = words[i]
        if word == "major" and i + 1 < len(words) and words[i + 1] in QUALITY_WORDS:
            quality += -2
            i += 2
            continue
        if word in QUALITY_WORDS:
            quality += QUALITY_WORDS[word]
        elif (match := _PENALTY.fullmatch(word)) is not None:
            dice -= int(match.group(1))
        elif word not in _FILLER and word not in _SEPARATORS:
            return None
        i += 1
    if quality == 0 and dice == 0:
        return None
    traits: list[str] = []
    rest = words[i + 1 :] if i < len(words) else []
    while rest and rest[-1] in _ENDS:
        rest.pop()
    item: list[str] = []
    for word in [*rest, ","]:
        if word in _SEPARATORS:
            if item:
                found = _trait(item, match_trait)
                if found is None:
                    return None
                if found not in traits:
                    traits.append(found)
            item = []
        elif word not in _ENDS:
            item.append(word)
    if i < len(words) and not traits:
        return None  # "on" and nothing readable after it
    if "*" in traits:
        traits = []
    return Effect(quality=max(quality, -2), dice=max(dice, -20), traits=traits)


def _trait(item: list[str], match_trait: Callable[[str], str | None]) -> str | None:
    """One trait (or group, or ``*`` for every roll) of an effect, from its words."""
    if item[0] in _EVERY:
        return "*"
    joined = "".join(item)
    if joined in GROUPS:
        return joined
    return match_trait(joined)


def read_effect(words: Sequence[str], match_trait: Callable[[str], str | None]) -> Effect:
    """An effect given in so many words (``effect ...``): refused when it cannot be read."""
    if len(words) == 1 and words[0].casefold() in ("none", "no", "-"):
        return Effect()
    try:
        effect = parse_effect(" ".join(words), match_trait)
    except UserError as exc:
        raise UserError(f"{exc} Write {EFFECT_USAGE}.") from None
    if effect is None:
        raise UserError(f"I cannot read {' '.join(words)[:60]!r} as an effect. Write {EFFECT_USAGE}.")
    return effect


def recognise(text: str, match_trait: Callable[[str], str | None]) -> Effect | None:
    """The effect in a penalty's free text, if all of it reads as one; otherwise None."""
    try:
        return parse_effect(text, match_trait)
    except UserError:
        return None


def is_empty(effect: Effect | None) -> bool:
    return effect is None or (effect.quality == 0 and effect.dice == 0)


def covers(effect: Effect, traits: Iterable[str]) -> bool:
    """Does the effect reach a roll of ``traits``? Without traits of its own it reaches every roll."""
    if not effect.traits:
        return True
    rolled = set(traits)
    return any(named in rolled or rolled & set(GROUPS.get(named, ())) for named in effect.traits)


@dataclass(frozen=True)
class Applied:
    """The Conditions that reach one roll: (name, effect) each, and what they add up to."""

    effects: tuple[tuple[str, Effect], ...] = ()

    @property
    def quality(self) -> int:
        return sum(e.quality for _, e in self.effects)

    @property
    def dice(self) -> int:
        return sum(e.dice for _, e in self.effects)

    def final_quality(self, typed: Iterable[int]) -> int:
        """The roll's quality: the typed steps and the Conditions' added, then clamped (RULINGS)."""
        return combine_qualities([*typed, self.quality])

    def as_result(self) -> list[dict[str, object]]:
        return [{"name": n, "quality": e.quality, "dice": e.dice} for n, e in self.effects]


def applied(conditions: Sequence[Condition], traits: Iterable[str]) -> Applied:
    rolled = tuple(traits)
    return Applied(
        tuple(
            (c.name, c.effect)
            for c in conditions
            if c.effect is not None and not is_empty(c.effect) and covers(c.effect, rolled)
        )
    )
