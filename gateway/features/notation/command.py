"""``roll EXPRESSION`` (``r``) and ``odds EXPRESSION`` in every channel, and what ``verify`` and
``stats`` read of a logged notation roll (a result of kind ``dice``).

The two commands are system-free and *claim* their lines (``Command.claims``): ``roll 2d6+3`` is
theirs in every channel, while ``roll 3`` or ``roll wits`` is still the rule system's own ``roll``
(``r`` stands for it then)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from gateway.core.commands import CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.errors import UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.offload import Offloaded
from gateway.core.spec import Command
from gateway.core.types import Invocation, Reply
from gateway.features.notation import messages, web
from gateway.features.notation.messages import t
from gateway.features.notation.odds import Odds, odds
from gateway.features.notation.parse import Expression, NotationError, looks_like_notation, parse, warm
from gateway.features.notation.roll import roll
from gateway.features.notation.text import (
    STLOG_BYTES,
    chart_rows,
    limit_for,
    odds_line,
    outcomes_from,
    result,
    roll_line,
)
from gateway.rules.charts import chart_result
from gateway.rules.roll_distribution import RollDistribution

ROLL_USAGE = "roll EXPRESSION [secret] (2d6+3, 4d6kh3, 3d6!, 4d6r1, 6d10>=7f1, 4dF, d20 adv, 6x 4d6kh3)"
ODDS_USAGE = "odds EXPRESSION [secret] (2d6+3, 20d6kh3, 5d10>=7)"


def refusal(locale: str, error: NotationError) -> UserError:
    return UserError(t(locale, error.key, **error.params), code="notation")


def _words(inv: Invocation) -> tuple[str, bool]:
    """The expression and whether ``secret`` was said (as any word after the expression)."""
    words = [w for w in inv.words if w.casefold() != "secret"]
    return " ".join(words), len(words) != len(inv.words)


def _parse(locale: str, text: str) -> Expression:
    if not text:
        raise UserError(t(locale, "usage"), code="notation")
    try:
        return parse(text)
    except NotationError as error:
        raise refusal(locale, error) from None


async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    text, secret = _words(inv)
    expression = _parse(ctx.locale, text)
    try:
        outcomes = roll(expression, ctx.dice)
    except NotationError as error:
        raise refusal(ctx.locale, error) from None
    logged = result(expression, outcomes)
    logged["system"] = ctx.system.name
    if secret:
        logged["secret"] = True
    public_id = ctx.reserve_roll_id(logged)
    suffix = f" #{public_id}"
    line = roll_line(
        ctx.locale, ctx.name, expression, outcomes, suffix, limit_for(ctx.message.channel.platform)
    )
    stlog = roll_line(ctx.locale, ctx.name, expression, outcomes, suffix, STLOG_BYTES)
    await ctx.log_roll(logged, stlog=stlog)
    return Reply(text=line, private=secret, result=logged)


def compute_odds(text: str) -> Odds | tuple[str, dict[str, Any]]:
    """In an offload worker: the odds, or a refusal as (message key, values) (plain data pickles)."""
    try:
        return odds(text)
    except NotationError as error:
        return error.key, dict(error.params)


async def odds_command(ctx: CommandContext, inv: Invocation) -> Offloaded[Odds | tuple[str, dict[str, Any]]]:
    text, secret = _words(inv)
    expression = _parse(ctx.locale, text)
    locale, limit = ctx.locale, limit_for(ctx.message.channel.platform)

    def render(found: Odds | tuple[str, dict[str, Any]]) -> Reply:
        if isinstance(found, tuple):
            raise UserError(t(locale, found[0], **found[1]), code="notation")
        chart = chart_result(
            t(locale, "chart.title", expression=expression.text),
            [
                (t(locale, "chart.exact"), chart_rows(locale, found, at_least=False)),
                (t(locale, "chart.at_least"), chart_rows(locale, found, at_least=True)),
            ],
        )
        data = {"kind": "odds", "expression": expression.text, "mean": float(found.mean), "chart": chart}
        return Reply(text=odds_line(locale, found, expression.repeat, limit), private=secret, result=data)

    return Offloaded(partial(compute_odds, expression.text), render, t(locale, "odds_too_large"))


def claims(words: Sequence[str]) -> bool:
    return looks_like_notation(words)


TEXTS_ROLL = {
    "cs": (
        "hod v kostkové notaci v každém kanálu",
        "roll VÝRAZ [secret] (2d6+3, 4d6kh3, 6d10>=7f1, d20 adv)",
    ),
    "ru": (
        "бросок в нотации кубиков в любом канале",
        "roll ВЫРАЖЕНИЕ [secret] (2d6+3, 4d6kh3, 6d10>=7f1, d20 adv)",
    ),
}
TEXTS_ODDS = {
    "cs": ("přesné šance hodu v kostkové notaci", "odds VÝRAZ [secret] (2d6+3, 20d6kh3)"),
    "ru": ("точные шансы броска в нотации кубиков", "odds ВЫРАЖЕНИЕ [secret] (2d6+3, 20d6kh3)"),
}


@hookimpl
def gateway_startup(app: Any) -> None:
    """A serving gateway (one with an HTTP application) builds the grammar as it starts, not on its
    first notation roll; the console and the CLI's one-shot gateways build it when one comes. An
    offload worker builds its own on its first odds (within its 10 s bound)."""
    if app is not None:
        warm()


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "roll",
            roll_command,
            "roll dice notation in any channel (r: the same, for notation only)",
            ROLL_USAGE,
            role="anyone",
            aliases=("r",),
            texts=TEXTS_ROLL,
            params=PARAMS["roll"],
            claims=claims,
        )
    )
    register(
        Command(
            "odds",
            odds_command,
            "exact odds of dice notation",
            ODDS_USAGE,
            role="anyone",
            texts=TEXTS_ODDS,
            params=PARAMS["odds"],
            claims=claims,
        )
    )


def roll_text(roll: Mapping[str, Any], locale: str) -> str | None:
    """``verify``'s account of a logged notation roll: its dice as the roll line showed them."""
    try:
        expression = parse(str(roll.get("expression", "")))
    except NotationError:
        return None
    outcomes = outcomes_from(expression, roll)
    if outcomes is None:
        return None
    line = roll_line(locale, "", expression, outcomes, "", 10_000)
    return f"{expression.text}: {line.split(': ', 1)[1]}"


def distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    """What ``stats`` counts of a logged notation roll: every face drawn (rerolled and exploded
    ones too), when all its dice have the same sides (Fate dice as a three-sided die); no result
    label (a total's odds depend on the whole expression)."""
    rolls = roll.get("rolls")
    if not isinstance(rolls, list) or not rolls:
        return None
    sides = {r.get("sides") for r in rolls if isinstance(r, Mapping)}
    if len(sides) != 1:
        return None
    (kind,) = sides
    faces: list[int] = []
    for r in rolls:
        raw = r.get("faces")
        if not isinstance(raw, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in raw):
            return None
        faces.extend(f + 2 if kind == "F" else f for f in raw)
    size = 3 if kind == "F" else kind
    if not isinstance(size, int) or isinstance(size, bool) or not all(1 <= f <= size for f in faces):
        return None
    return RollDistribution(size, tuple(faces))


gateway_web_tools = web.gateway_web_tools  # the /tools/dice page, registered with this plugin

__all__ = ["distribution", "gateway_web_tools", "messages", "roll_text"]
