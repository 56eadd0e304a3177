"""Trait and pool words read for a command, and refused in the reader's language: a system's
``NamedTraits`` with its ``Catalogue`` (keys ``err.unknown_trait``, ``err.unknown_trait.suggest``
(with ``{name}``, the closest trait; optional), ``err.ambiguous_trait``,
``err.bad_pool``, ``err.pool_min``, ``err.pool_max``, and those of ``ParseError``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gateway.core.commands import CommandContext
from gateway.core.i18n import Catalogue
from gateway.rules.named_traits import NamedTraits
from gateway.rules.roll_words import ParseError, RollWords, Term, read_term, split_roll

SUGGEST = "err.unknown_trait.suggest"  # optional: a catalogue without it lists the traits instead


@dataclass(frozen=True)
class TraitWords:
    traits: NamedTraits
    catalogue: Catalogue

    def listing(self, ctx: CommandContext) -> str:
        return self.traits.listing(ctx.locale)

    def name(self, ctx: CommandContext, trait: str) -> str:
        return self.traits.name(trait, ctx.locale)

    def resolve(self, ctx: CommandContext, word: str) -> str:
        """The trait ``word`` names, or a refusal that lists the candidates or the traits."""
        trait, options = self.traits.match(word)
        if trait is not None:
            return trait
        if options:
            names = " / ".join(self.name(ctx, o) for o in options)
            raise self.catalogue.refusal(ctx, "err.ambiguous_trait", word=word[:40], options=names)
        near = self.traits.closest(word)
        if near is not None and SUGGEST in self.catalogue.messages[self.catalogue.fallback]:
            name = self.name(ctx, near)
            raise self.catalogue.refusal(ctx, SUGGEST, word=word[:40], name=name)
        raise self.catalogue.refusal(ctx, "err.unknown_trait", word=word[:40], traits=self.listing(ctx))

    def term(self, ctx: CommandContext, words: Sequence[str], usage: str) -> Term:
        """The pool term of ``words``; with no words the ``usage`` message is the refusal."""
        if not words:
            raise self.catalogue.refusal(ctx, usage)
        term = read_term(words)
        if term is None:
            raise self.catalogue.refusal(
                ctx, "err.bad_pool", word=" ".join(words)[:40], traits=self.listing(ctx)
            )
        return term

    def check_pool(self, ctx: CommandContext, dice: int) -> None:
        if dice < 1:
            raise self.catalogue.refusal(ctx, "err.pool_min", pool=dice)
        if dice > ctx.settings.gateway.max_pool:
            raise self.catalogue.refusal(ctx, "err.pool_max", pool=dice, max=ctx.settings.gateway.max_pool)

    def split(
        self,
        ctx: CommandContext,
        words: Sequence[str],
        options: Mapping[str, str],
        flags: tuple[str, ...] = ("secret",),
    ) -> RollWords:
        """``split_roll``, its ``ParseError`` refused in the reader's language."""
        try:
            return split_roll(tuple(words), dict(options), flags)
        except ParseError as exc:
            raise self.catalogue.refusal(ctx, exc.key, **exc.params) from None
