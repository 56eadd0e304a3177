"""Pools built from a pool term for a command (a number of dice or a trait, with modifiers), the
other side of a contest, and the contest told in the plugin's words (keys ``side.number``,
``side.trait``, ``contest``, ``contest.rerolled``, ``odds.contest``, ``err.no_character``,
``err.vs_name_needs_trait``; a system with a tie house rule also ``contest.tie.RULE`` and
``odds.contest.RULE`` for each rule but ``reroll``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gateway.core.commands import CommandContext
from gateway.core.dice import faces
from gateway.core.i18n import percent
from gateway.features.characters import find_character
from gateway.rules import binomial
from gateway.rules.charts.contest import contest_chart
from gateway.rules.roll_words import Term, read_term
from gateway.rules.ties import Contest
from gateway.rules.trait_words import TraitWords
from gateway.vault.models import Character


@dataclass(frozen=True)
class TermPool:
    """A side's dice: ``base`` is the number or the trait's rating before the term's modifiers;
    ``trait`` is set when the pool came from a sheet."""

    dice: int
    base: int
    term: Term
    trait: str | None = None

    @property
    def label(self) -> str:
        return f"{self.base}{self.term.label}"

    def describe(self, ctx: CommandContext, words: TraitWords) -> str:
        if self.trait:
            return words.catalogue.say(ctx, "side.trait", trait=words.name(ctx, self.trait), label=self.label)
        return words.catalogue.say(ctx, "side.number", pool=self.dice)

    def more_fields(self) -> dict[str, Any]:
        """What a system adds to the pool's result fields, after the modifiers."""
        return {}

    def result_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"modifiers": list(self.term.modifiers), **self.more_fields()}
        if self.trait:
            fields["trait"] = self.trait
        return fields


async def read_opponent(
    ctx: CommandContext, words: TraitWords, system: str, tokens: Sequence[str], trait: str | None, usage: str
) -> Term | Character:
    """The other side after ``vs``: a number of dice (its term, an NPC's), or a character of
    ``system`` by name, who rolls the same ``trait`` as the left side (so the left side needs one)."""
    if not tokens:
        raise words.catalogue.refusal(ctx, usage)
    term = read_term(tokens)
    if term is not None and term.number is not None:
        return term
    name = " ".join(tokens)
    character = await find_character(ctx.session, system, name)
    if character is None:
        raise words.catalogue.refusal(ctx, "err.no_character", name=name[:60])
    if trait is None:
        raise words.catalogue.refusal(ctx, "err.vs_name_needs_trait")
    return character


def contest_result(
    outcome: Contest[Any], left: TermPool, right: TermPool, who: str, against: str, secret: bool
) -> dict[str, Any]:
    result = outcome.as_result()
    result["sides"][0].update(left.result_fields(), who=who)
    result["sides"][1].update(right.result_fields(), who=against)
    result.update(who=who, secret=secret)
    return result


def contest_line(
    ctx: CommandContext,
    words: TraitWords,
    outcome: Contest[Any],
    sides: tuple[TermPool, TermPool],
    names: tuple[str, str],
    **more: Any,
) -> str:
    """Both sides' dice and successes, the re-rolled ties (or the house rule that settled the tie)
    and the winner; ``more`` fills the system's own fields (the difficulty, the roll's id)."""
    left, right = sides
    a, b = outcome.rounds[-1]
    if outcome.tie is not None:
        key = f"contest.tie.{outcome.tie}"
    else:
        key = "contest.rerolled" if len(outcome.rounds) > 1 else "contest"
    return words.catalogue.say(
        ctx,
        key,
        left=names[0],
        right=names[1],
        left_pool=left.describe(ctx, words),
        right_pool=right.describe(ctx, words),
        left_faces=faces(a),
        right_faces=faces(b),
        ls=outcome.sides[0].successes,
        rs=outcome.sides[1].successes,
        n=len(outcome.rounds) - 1,
        winner="" if outcome.winner is None else names[outcome.winner],
        **more,
    )


def contest_odds(
    ctx: CommandContext,
    words: TraitWords,
    system: str,
    pools: tuple[int, int],
    *,
    sides: int,
    target: int,
    name: tuple[str, str],
    ties: str = "reroll",
    title: str = "",
) -> tuple[str, dict[str, Any]]:
    """The chances of a contest at ``target``, which a system calls ``name``: (its parameter in
    the message, its key in the result), such as ("diff", "difficulty"), with a tie settled by
    ``ties`` (``gateway.rules.ties.TieRule``)."""
    first, second, tie = binomial.settled(pools[0], pools[1], target, sides=sides, ties=ties)
    text = words.catalogue.say(
        ctx,
        "odds.contest" if ties == "reroll" else f"odds.contest.{ties}",
        left=pools[0],
        right=pools[1],
        first=percent(ctx.locale, first),
        second=percent(ctx.locale, second),
        tie=percent(ctx.locale, tie),
        **{name[0]: target},
    )
    result = {
        "kind": "odds",
        "system": system,
        "pools": list(pools),
        name[1]: target,
        "wins": [float(first), float(second)],
        "exact": [str(first), str(second)],
        "tie_per_round": float(tie),
        "exact_tie": str(tie),
        "ties": ties,
        # The picture Discord and Matrix show; a standoff leaves the tie to nobody.
        "chart": contest_chart(ctx.locale, title, first, second, tie if ties == "standoff" else 0),
    }
    return text, result
