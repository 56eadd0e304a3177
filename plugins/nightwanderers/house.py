"""Night Wanderers' house rules: the switches a table plays differently from the book, each with
the book's own rule as its default (002, "Боль", the dice section and "Споры")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules import house_rules
from gateway.rules.house_rules import HouseRules, changed_result, from_settings, note, switch
from gateway.rules.ties import Contest, TieRule, read_rounds
from plugins.nightwanderers import mechanics
from plugins.nightwanderers.config import NightWanderersSettings


class NightWanderersHouseRules(HouseRules):
    pain: bool = switch(
        True,
        en="pain takes dice: 1 in the Normal band, 2 in Medium and worse (off: no pain)",
        cs="bolest bere kostky: 1 v pásmu Normální, 2 v pásmu Střední a horších (vypnuto: bez bolesti)",
        ru="боль отнимает кубики: 1 на Нормальном уровне, 2 на Среднем и ниже (выкл.: без боли)",
        # The book is Russian: ``house`` quotes it as written, in every language.
        book="«Боль»: «Потеряв Здоровье до Нормального уровня, персонаж … теряет один кубик …; до Среднего"
        " уровня … уже два кубика»",
    )
    default_difficulty: int = switch(
        4,
        en="the difficulty of a roll that names none",
        cs="obtížnost hodu, který žádnou neuvádí",
        ru="Трудность броска, в котором она не названа",
        book="«Правила»: «DM … устанавливает Трудность (число в пределах от 2 до 6)»",
        ge=mechanics.MIN_DIFFICULTY,
        le=mechanics.MAX_DIFFICULTY,
    )
    contest_ties: TieRule = switch(
        "reroll",
        en="a tied contest: rolled again (reroll), won by the attacker, who rolls (attacker), won by the"
        " defender, the side after vs (defender), or won by nobody (standoff)",
        cs="shoda ve sporu: hází se znovu (reroll), vítězí útočník, tedy ten, kdo hází (attacker),"
        " vítězí obránce, tedy strana za vs (defender), nebo nevítězí nikdo (standoff)",
        ru="ничья в споре: бросок повторяется (reroll), побеждает атакующий, то есть тот, кто бросает"
        " (attacker), побеждает защищающийся, то есть сторона после «против» (defender), или не побеждает"
        " никто (standoff)",
        book="«Споры»: «Ничьи перекидываются»",
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[nightwanderers] default_difficulty`` is the switch's default for every channel.
        return from_settings(settings, NightWanderersSettings, default_difficulty="default_difficulty")


def house(ctx: CommandContext) -> NightWanderersHouseRules:
    return ctx.house_rules(NightWanderersHouseRules)


def mark_contest(
    ctx: CommandContext, result: dict[str, Any], outcome: Contest[mechanics.Roll], diff_named: bool
) -> str:
    """The roll line's note naming the switches whose book value reads the contest's own rounds
    otherwise ("" for none), also kept in ``result``: ``contest_ties`` when it settled a tie the
    book rolls again, ``default_difficulty`` when the book's gives another winner on the same faces."""
    rules = house(ctx)
    used = outcome.sides[0].difficulty

    def read(variant: NightWanderersHouseRules) -> Any:
        diff = used if diff_named else mechanics.clamp_difficulty(variant.default_difficulty)
        return read_rounds(outcome.rounds, diff, variant.contest_ties)

    names = changed_result(rules, read)
    if not names:
        return ""
    result["house_rules"] = {n: getattr(rules, n) for n in names}
    return note(ctx.locale, rules, names)


def odds_note(ctx: CommandContext) -> str:
    """A contest's odds line names ``contest_ties`` when it is not the book's: it moves the odds."""
    return house_rules.odds_note(ctx.locale, house(ctx), ["contest_ties"])
