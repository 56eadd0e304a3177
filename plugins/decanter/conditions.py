"""Decanter's Conditions as pure rules: reading ``cond add`` (a name, a duration, a resistance, an
effect) and what a Condition does to a roll (the handlers are ``conditions_commands.py``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from gateway import UserError
from gateway.rules.numbers import read_int, whole_number
from plugins.decanter.effects import EFFECT_USAGE, is_empty, read_effect, recognise
from plugins.decanter.sheet import SCHEMA, Effect

COND_ADD_USAGE = (
    "cond add NAME [scene|night|resolved] [penalty TEXT] [effect EFFECT] [resist N|shortfall]"
    ' [resolution TEXT] [for CHARACTER], e.g. cond add Shaken scene penalty "Disadvantage on Composure rolls"'
)
DURATION_WORDS = {
    "scene": "scene",
    "night": "night",
    "resolved": "resolved",
    "until-resolved": "resolved",
    "until_resolved": "resolved",
    "untilresolved": "resolved",
}


@dataclass(frozen=True)
class ConditionWords:
    """What ``cond add`` was told: the effect as typed (``effect ...``), if it was."""

    name: str
    duration: str
    penalty: str
    resolution: str
    target: str | None
    effect: tuple[str, ...] | None = None
    resist: int = 0
    # "for NAME" ended a penalty or resolution text: if NAME is no character, it was the text's words.
    target_in: str | None = None

    def without_target(self) -> ConditionWords:
        """``for NAME`` read back into the text it ended."""
        assert self.target_in is not None and self.target is not None
        tail = f"for {self.target}"
        if self.target_in == "penalty":
            return replace(self, target=None, target_in=None, penalty=f"{self.penalty} {tail}".strip())
        return replace(self, target=None, target_in=None, resolution=f"{self.resolution} {tail}".strip())


SHORTFALL = -1  # "resist shortfall": the DC minus the successes of the character's latest roll here
SHORTFALL_WORDS = ("shortfall", "dc-successes", "auto")


def resist_word(word: str) -> bool:
    return read_int(word, signed=True) is not None or word.casefold() in SHORTFALL_WORDS


def parse_condition(words: tuple[str, ...]) -> ConditionWords:
    """``cond add`` words, read; ``resist`` is a keyword only before a number (a penalty may say it)."""
    if not words:
        raise UserError(f"Which Condition? Write {COND_ADD_USAGE}.")
    name = words[0].strip()
    duration: str | None = None
    texts: dict[str, list[str]] = {"penalty": [], "resolution": [], "effect": []}
    target: str | None = None
    target_in: str | None = None
    resist: int | None = None
    segment: str | None = None
    rest = list(words[1:])
    i = 0
    while i < len(rest):
        word = rest[i]
        folded = word.casefold()
        if folded in ("penalty", "resolution", "effect"):
            segment = folded
        elif folded == "resist" and i + 1 < len(rest) and resist_word(rest[i + 1]):
            if resist is not None:
                raise UserError("Give a Condition's resist cost once.")
            after = rest[i + 1].casefold()
            resist = (
                SHORTFALL if after in SHORTFALL_WORDS else whole_number(after, "The Story Points", 100, low=0)
            )
            i += 1
            segment = None
        elif folded == "for" and (segment is None or i + 2 == len(rest)):
            # In a penalty's text "for" is a word ("-2 Story Points for resisting") unless it ends the line.
            if i + 1 >= len(rest):
                raise UserError("for needs a character's name after it.")
            target = rest[i + 1]
            target_in = segment if segment in ("penalty", "resolution") else None
            i += 1
            segment = None
        elif (
            segment is None
            and folded == "until"
            and i + 1 < len(rest)
            and rest[i + 1].casefold() == "resolved"
        ):
            duration = "resolved"
            i += 1
        elif segment is None and folded in DURATION_WORDS:
            if duration is not None:
                raise UserError("Give a Condition one duration: scene, night or resolved.")
            duration = DURATION_WORDS[folded]
        elif segment is not None:
            texts[segment].append(word)
        else:
            raise UserError(
                f"I cannot read {word[:40]!r} there. Write {COND_ADD_USAGE} (quote a name with spaces)."
            )
        i += 1
    effect_words = tuple(texts["effect"])
    if "effect" in [w.casefold() for w in words[1:]] and not effect_words:
        raise UserError(f"effect needs words after it: {EFFECT_USAGE}.")
    return ConditionWords(
        name,
        duration or "resolved",
        " ".join(texts["penalty"]),
        " ".join(texts["resolution"]),
        target,
        effect_words or None,
        resist or 0,
        target_in,
    )


def condition_effect(words: ConditionWords) -> Effect | None:
    """The effect typed after ``effect``, else the one the penalty's text states, else None."""
    if words.effect is not None:
        effect = read_effect(words.effect, SCHEMA.match_trait)
        return None if is_empty(effect) else effect
    return recognise(words.penalty, SCHEMA.match_trait) if words.penalty else None
