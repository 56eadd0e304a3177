"""Pravidla's house rules: the book's own knobs made a channel's standing choice (004, "Množství
úspěchů": the target number is usually 4, the Storyteller may raise it to 5 or 6 or ask for 2
successes), and how a contest's tie is settled ("Měření sil": the book rolls it again). Where the book
says so is quoted in its own words, Czech, as the "Měření sil" one always was."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules import house_rules
from gateway.rules.house_rules import HouseRules, changed_result, from_settings, note, switch
from gateway.rules.ties import Contest, TieRule, read_rounds
from plugins.pravidla import mechanics
from plugins.pravidla.config import PravidlaSettings

BOOK = '"Množství úspěchů"'


class PravidlaHouseRules(HouseRules):
    default_target: int = switch(
        4,
        en="the target number of a roll that names none",
        cs="cílové číslo hodu, který žádné neuvádí",
        ru="целевое число броска, в котором оно не названо",
        book=f"{BOOK}: cílové číslo je obvykle 4 (Vypravěč může určit 5 nebo 6)",
        ge=mechanics.MIN_TARGET,
        le=mechanics.MAX_TARGET,
    )
    default_need: int = switch(
        1,
        en="successes a roll needs when it names none (a smaller pool needs all its dice)",
        cs="kolik úspěchů hod potřebuje, když to neuvádí (menší pool potřebuje všechny své kostky)",
        ru="сколько успехов нужно броску, если это не указано (меньшему пулу нужны все его кубики)",
        book=f"{BOOK}: ve většině případů stačí jen jeden úspěch (Vypravěč může požadovat 2)",
        ge=1,
        le=10,
    )
    contest_ties: TieRule = switch(
        "reroll",
        en="a tied contest: rolled again (reroll), won by the attacker, who rolls (attacker), won by the"
        " defender, the side after vs (defender), or won by nobody (standoff)",
        cs="shoda v měření sil: hází se znovu (reroll), vítězí útočník, tedy ten, kdo hází (attacker),"
        " vítězí obránce, tedy strana za vs (defender), nebo nevítězí nikdo (standoff)",
        ru="ничья в споре: бросок повторяется (reroll), побеждает атакующий, то есть тот, кто бросает"
        " (attacker), побеждает защищающийся, то есть сторона после vs (defender), или не побеждает никто"
        " (standoff)",
        book='"Měření sil": pokud je výsledek stejný, hází se znovu',
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[pravidla] default_target`` is the switch's default for every channel.
        return from_settings(settings, PravidlaSettings, default_target="default_target")


def house(ctx: CommandContext) -> PravidlaHouseRules:
    return ctx.house_rules(PravidlaHouseRules)


def need_for(rules: PravidlaHouseRules, pool: int) -> int:
    """The successes a roll that names none needs: the house rule's, at most the pool."""
    return max(min(rules.default_need, pool), 1)


def _noted(ctx: CommandContext, result: dict[str, Any], names: list[str]) -> str:
    """The roll line's note for ``names`` ("" for none), also kept in ``result``."""
    if not names:
        return ""
    rules = house(ctx)
    result["house_rules"] = {n: getattr(rules, n) for n in names}
    return note(ctx.locale, rules, names)


def mark(
    ctx: CommandContext, result: dict[str, Any], rolled: mechanics.Roll, target_named: bool, need_named: bool
) -> str:
    """The note naming the switches whose book value reads ``rolled``'s faces otherwise ("" for none)."""

    def read(variant: PravidlaHouseRules) -> Any:
        target = rolled.target if target_named else variant.default_target
        need = rolled.need if need_named else need_for(variant, rolled.pool)
        again = mechanics.score(rolled.pool, rolled.dice, target, need)
        return again.successes, again.degree

    return _noted(ctx, result, changed_result(house(ctx), read))


def mark_contest(
    ctx: CommandContext, result: dict[str, Any], outcome: Contest[mechanics.Roll], target_named: bool
) -> str:
    """The note naming the switches whose book value reads the contest's own rounds otherwise
    ("" for none): ``contest_ties`` when it settled a tie the book rolls again, ``default_target``
    when the book's target gives another winner (or a tie) on the same faces."""
    named = outcome.sides[0].target

    def read(variant: PravidlaHouseRules) -> Any:
        target = named if target_named else variant.default_target
        return read_rounds(outcome.rounds, target, variant.contest_ties)

    return _noted(ctx, result, changed_result(house(ctx), read))


def odds_note(ctx: CommandContext) -> str:
    """A contest's odds line names ``contest_ties`` when it is not the book's: it moves the odds."""
    return house_rules.odds_note(ctx.locale, house(ctx), ["contest_ties"])
