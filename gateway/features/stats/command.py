"""``stats [me|NAME|channel] [--since WHEN] [--system NAME]``: counted dice and results from the roll
log, each against fair dice's exact expectation, with a goodness-of-fit test and one verdict.

Players see their own rolls (``me``, the default, across linked identities) and their own
characters'; Storytellers any character's and the channel's (the whole chronicle). The figures come
from the roll log alone (``gateway.features.stats.store``), so anyone holding the log can recompute them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from gateway.core.commands import Command, CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.errors import PermissionDenied, UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.offload import Awaited
from gateway.core.spec import RuleSystem
from gateway.core.types import Invocation, Reply
from gateway.features.characters import find_character
from gateway.features.stats import store
from gateway.features.stats.messages import CATALOGUE, decimal, p_value, whole
from gateway.features.stats.report import FaceTest, Report, ResultTest, report
from gateway.features.stats.store import Scope
from gateway.features.stats.tally import Tally
from gateway.features.storytellers import _split_flags, local_time, parse_since

USAGE = "stats [me|NAME|channel] [--since 2h|today|2026-11-30] [--system NAME]"


def _fit_text(locale: str, test: FaceTest | ResultTest) -> str:
    fit = test.fit
    if fit is None:
        return CATALOGUE.t(locale, "fit.none")
    statistic = decimal(locale, fit.statistic)
    return CATALOGUE.t(locale, "fit", statistic=statistic, df=fit.df, p=p_value(locale, fit.p))


def render(locale: str, shown: Report, head: str, system: RuleSystem | None = None) -> str:
    """``system``: the rolls' rule system, naming its result labels (``RuleSystem.degree_name``)."""
    t = CATALOGUE.t
    lines = [head]
    for test in shown.faces:
        counts = ", ".join(f"{face}: {whole(locale, c)}" for face, c in enumerate(test.counts, start=1))
        expected = decimal(locale, test.expected, 1)
        lines.append(
            t(locale, "faces", sides=test.sides, expected=expected, counts=counts) + _fit_text(locale, test)
        )
    results = shown.results
    if results is not None:
        cells = [
            t(
                locale,
                "result",
                label=system.degree_name(locale, label) if system is not None else label,
                observed=whole(locale, o),
                expected=decimal(locale, e, 1),
            )
            for label, o, e in zip(results.labels, results.observed, results.expected, strict=True)
        ]
        n = shown.tally.judged
        line = t(locale, "results", n=n, n_shown=whole(locale, n), counts=", ".join(cells))
        lines.append(line + _fit_text(locale, results))
    lines.append(verdict_text(locale, shown))
    return "\n".join(lines)


def verdict_text(locale: str, shown: Report) -> str:
    verdict = shown.verdict
    tests = sum(1 for t in shown.faces if t.fit) + (1 if shown.results and shown.results.fit else 0)
    if verdict == "impossible":
        return CATALOGUE.t(
            locale, "verdict.impossible", n=shown.tally.impossible, n_shown=shown.tally.impossible
        )
    if verdict == "too_few" or shown.p is None:
        return CATALOGUE.t(locale, "verdict.too_few")
    p = p_value(locale, shown.p)
    if verdict == "unusual":
        once = whole(locale, round(1 / shown.p)) if shown.p > 0 else "∞"
        return CATALOGUE.t(locale, "verdict.unusual", once=once, p=p)
    return CATALOGUE.t(locale, "verdict.fair", tests=tests, p=p)


async def _scope(ctx: CommandContext, words: list[str], system: str) -> tuple[Scope, str]:
    """Whose rolls: (the scope, its words for the reply); refusals for what the asker may not see."""
    t = CATALOGUE.t
    word = " ".join(words)
    if not words or word.casefold() == "me":
        if ctx.sender.person_id is None:
            raise UserError(t(ctx.locale, "not_linked"))
        return Scope("person", ctx.sender.person_id, system), t(ctx.locale, "scope.me")
    if word.casefold() == "channel":
        if not ctx.storyteller:
            raise PermissionDenied(t(ctx.locale, "channel_st"))
        return Scope("channel", ctx.sender.channel_key, system), t(ctx.locale, "scope.channel")
    character = await find_character(ctx.session, system, word)
    if character is None or character.id is None:
        title = ctx.services.plugins.registry.systems[system].title
        raise UserError(t(ctx.locale, "no_character", system=title, name=word[:60]))
    if not ctx.storyteller and character.owner_id != ctx.sender.person_id:
        raise PermissionDenied(t(ctx.locale, "not_yours", name=character.name))
    return Scope("character", character.id, system), t(ctx.locale, "scope.character", name=character.name)


def _system(ctx: CommandContext, flags: Mapping[str, str]) -> str:
    systems = ctx.services.plugins.registry.systems
    if "--system" not in flags:
        return ctx.system.name
    wanted = flags["--system"].casefold()
    if wanted not in systems:
        names = ", ".join(sorted(systems))
        raise UserError(CATALOGUE.t(ctx.locale, "system", name=flags["--system"][:40], names=names))
    return wanted


async def stats_command(ctx: CommandContext, inv: Invocation) -> Reply | Awaited:
    rest, flags = _split_flags(inv.words, ("--since", "--system"), ctx.locale)
    zone = ctx.settings.gateway.timezone
    system = _system(ctx, flags)
    since = parse_since(flags["--since"], ctx.now, zone, ctx.locale) if "--since" in flags else None
    scope, scope_text = await _scope(ctx, rest, system)

    shape = ctx.services.plugins.roll_distribution
    vault = ctx.services.vault
    known: store.Progress | None = None
    if scope not in store.folds(vault).running:  # else its next save would lose to this one's
        counted = await store.quick(ctx.session, vault, scope, shape, ctx.now, since, store.QUICK_SECONDS)
        if isinstance(counted, Tally):
            return _reply(ctx, system, scope_text, since, counted)
        known = counted
    # A long backlog (a first count of a large scope): folded in the background, waited for out of
    # this unit (which on SQLite holds the vault), at most ``stats_wait`` seconds.
    fold = store.folds(vault).ensure(scope, shape, ctx.services.clock, known)
    locale, wait = ctx.locale, ctx.settings.gateway.stats_wait

    async def later() -> Reply:
        assert fold.task is not None
        await asyncio.wait({fold.task}, timeout=wait)
        if fold.task.done():
            async with vault.transaction() as session:
                now = ctx.services.clock()
                again = await store.quick(session, vault, scope, shape, now, since, 4 * store.QUICK_SECONDS)
            if isinstance(again, Tally):
                return _reply(ctx, system, scope_text, since, again)
        kept, expected = whole(locale, fold.kept), whole(locale, max(fold.kept, fold.expected))
        text = CATALOGUE.t(locale, "counting", scope=scope_text, done=kept, all=expected)
        return Reply(text=text, private=True, result={"kind": "stats", "counting": True, "kept": fold.kept})

    return Awaited(later)


def _reply(
    ctx: CommandContext, system: str, scope_text: str, since: datetime | None, counted: Tally
) -> Reply:
    zone = ctx.settings.gateway.timezone
    title = ctx.services.plugins.registry.systems[system].title
    since_text = CATALOGUE.t(ctx.locale, "since", when=local_time(since, zone)) if since else ""
    t = CATALOGUE.t
    other = (
        t(ctx.locale, "other", n=counted.other, n_shown=whole(ctx.locale, counted.other))
        if counted.other
        else ""
    )
    if not counted.rolls:
        text = t(ctx.locale, "empty", system=title, scope=scope_text, since=since_text) + other
        return Reply(text=text, private=True, result={"kind": "stats", "rolls": 0, "other": counted.other})
    shown = report(counted)
    head = t(
        ctx.locale,
        "head",
        scope=scope_text,
        system=title,
        since=since_text,
        rolls=counted.rolls,
        rolls_shown=whole(ctx.locale, counted.rolls),
        dice=counted.dice,
        dice_shown=whole(ctx.locale, counted.dice),
    )
    text = render(ctx.locale, shown, head + other, ctx.services.plugins.registry.systems[system])
    return Reply(text=text, private=True, result=as_result(shown, system))


def as_result(shown: Report, system: str) -> dict[str, Any]:
    def fit(test: FaceTest | ResultTest | None) -> dict[str, Any] | None:
        if test is None or test.fit is None:
            return None
        return {"statistic": test.fit.statistic, "df": test.fit.df, "p": test.fit.p}

    results = shown.results
    return {
        "kind": "stats",
        "system": system,
        "rolls": shown.tally.rolls,
        "dice": shown.tally.dice,
        "other": shown.tally.other,
        "faces": {
            str(t.sides): {"counts": list(t.counts), "expected": t.expected, "test": fit(t)}
            for t in shown.faces
        },
        "results": None
        if results is None
        else {
            "labels": list(results.labels),
            "observed": list(results.observed),
            "expected": list(results.expected),
            "test": fit(results),
        },
        "p": shown.p,
        "verdict": shown.verdict,
    }


HELP = {
    "cs": (
        "statistika kostek a test poctivosti",
        "stats [me|JMÉNO|channel] [--since 2h|today|2026-11-30] [--system NÁZEV]",
    ),
    "ru": (
        "статистика кубиков и проверка честности",
        "stats [me|ИМЯ|channel] [--since 2h|today|2026-11-30] [--system НАЗВАНИЕ]",
    ),
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "stats",
            stats_command,
            "dice statistics and a fair-dice test",
            USAGE,
            texts=HELP,
            params=PARAMS["stats"],
            private=True,
        )
    )
