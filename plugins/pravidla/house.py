"""Pravidla's house rules: the book's own knobs made a channel's standing choice (004, "Množství
úspěchů": the target number is usually 4, the Storyteller may raise it to 5 or 6 or ask for 2
successes)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules.house_rules import HouseRules, changed_result, from_settings, note, switch
from plugins.pravidla import mechanics
from plugins.pravidla.config import PravidlaSettings

BOOK = '"Množství úspěchů"'


class PravidlaHouseRules(HouseRules):
    default_target: int = switch(
        4,
        en="the target number of a roll that names none",
        cs="cílové číslo hodu, který žádné neuvádí",
        ru="целевое число броска, в котором оно не названо",
        book=f"{BOOK}: the target number is usually 4 (the Storyteller may set 5 or 6)",
        ge=mechanics.MIN_TARGET,
        le=mechanics.MAX_TARGET,
    )
    default_need: int = switch(
        1,
        en="successes a roll needs when it names none (a smaller pool needs all its dice)",
        cs="kolik úspěchů hod potřebuje, když to neuvádí (menší pool potřebuje všechny své kostky)",
        ru="сколько успехов нужно броску, если это не указано (меньшему пулу нужны все его кости)",
        book=f"{BOOK}: one success is usually enough (the Storyteller may ask for 2)",
        ge=1,
        le=10,
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


def mark(ctx: CommandContext, rolled: mechanics.Roll, target_named: bool, need_named: bool) -> str:
    """The note naming the switches whose book value reads ``rolled``'s faces otherwise ("" for none)."""
    rules = house(ctx)

    def read(variant: PravidlaHouseRules) -> Any:
        target = rolled.target if target_named else variant.default_target
        need = rolled.need if need_named else need_for(variant, rolled.pool)
        again = mechanics.score(rolled.pool, rolled.dice, target, need)
        return again.successes, again.degree

    return note(ctx.locale, rules, changed_result(rules, read))
