"""Nightcap's house rules: the switches a chronicle plays differently from the book, each with
the book's own rule as its default (000, "The dice mechanic", "Chance die", "Spending willpower",
"Teamwork", "Wounds")."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules.house_rules import HouseRules, changed_result, from_settings, note, switch
from plugins.nightcap import mechanics
from plugins.nightcap.config import NightcapSettings


class NightcapHouseRules(HouseRules):
    tens_double: bool = switch(
        True,
        en="a 10 counts two successes (off: one, like a 7)",
        cs="desítka platí za dva úspěchy (vypnuto: za jeden, jako sedmička)",
        ru="десятка даёт два успеха (выкл.: один, как семёрка)",
        book='"The dice mechanic": 10 — two successes, it counts twice',
    )
    ones_subtract: bool = switch(
        True,
        en="each 1 takes a success away (off: a 1 is nothing, so no pool can botch)",
        cs="každá jednička ubírá úspěch (vypnuto: jednička nic neznamená, kostky tak nemohou selhat fiaskem)",
        ru="каждая единица отнимает успех (выкл.: единица ничего не значит, и пул не может дать провал)",
        book='"The dice mechanic": 1 — subtracts a success',
    )
    chance_die: bool = switch(
        True,
        en="a pool of 0 or less rolls one chance die (off: it rolls nothing and fails)",
        cs="pool 0 a méně hází jednu kostku šance (vypnuto: nehází nic a selže)",
        ru="пул 0 и меньше бросает один кубик шанса (выкл.: ничего не бросает и проваливается)",
        book='"Chance die": at 0 or below the HUD gives you a single chance die',
    )
    # At most 1: the book spends one point at a time, and Willpower is a yes/no on every path a roll
    # takes (the HUD's question, Discord's boolean ``wp``, the logged ``willpower``, the stats' odds).
    willpower_per_roll: int = switch(
        1,
        en="Willpower points a roll may spend (0: none on rolls)",
        cs="kolik bodů Vůle smí hod utratit (0: na hody žádné)",
        ru="сколько очков Силы воли можно потратить на бросок (0: нисколько)",
        book='"Extended actions": Willpower may be spent on any roll, one point at a time',
        ge=0,
        le=1,
    )
    teamwork_cap: int = switch(
        3,
        en="the most helpers (dice or sure successes) that count in teamwork",
        cs="nejvíce pomocníků (kostek nebo jistých úspěchů), kteří se při týmové práci počítají",
        ru="сколько помощников (кубиков или верных успехов) засчитывается в командной работе",
        book='"Teamwork": +1 die per helper, to a maximum of +3',
        ge=0,
        le=10,
    )
    wound_penalties: bool = switch(
        False,
        en="damage lowers a character's pools (-1, then -2, at the wound thresholds)",
        cs="zranění snižuje počet kostek postavy (-1, pak -2 na prazích zranění)",
        ru="ранения уменьшают пулы персонажа (-1, затем -2 на порогах ранений)",
        book='"Wounds": Storytellers may apply a penalty of -1 or -2 as wounds pile up',
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[nightcap] wound_penalties`` is the switch's default for every channel.
        return from_settings(settings, NightcapSettings, wound_penalties="wound_penalties")

    def dice(self) -> dict[str, bool]:
        """The switches the dice functions take (``mechanics.roll``, ``odds.roll_odds``)."""
        return {
            "tens_double": self.tens_double,
            "ones_subtract": self.ones_subtract,
            "chance_die": self.chance_die,
        }


def house(ctx: CommandContext) -> NightcapHouseRules:
    return ctx.house_rules(NightcapHouseRules)


def dice(ctx: CommandContext) -> dict[str, bool]:
    """The channel's dice switches, for ``mechanics.roll(..., **dice(ctx))``."""
    return house(ctx).dice()


def changed(ctx: CommandContext, *rolls: mechanics.Roll) -> list[str]:
    """The switches that read these rolls' dice differently from the book."""

    def read(rules: NightcapHouseRules) -> Hashable:
        out: list[Hashable] = []
        for roll in rolls:
            if rules.chance_die and roll.pool <= 0 and not roll.dice:
                out.append("dice not rolled")  # the book would have rolled a chance die
                continue
            again = mechanics.score(roll.pool, roll.dice, roll.willpower, **rules.dice())
            out.append((again.dice_total, again.total, again.degree))
        return tuple(out)

    return changed_result(house(ctx), read)


def mark(ctx: CommandContext, result: dict[str, Any], *rolls: mechanics.Roll) -> str:
    """The roll line's note naming the house rules that changed these rolls ("" for none), also
    kept in ``result`` (call it before the roll is logged)."""
    names = changed(ctx, *rolls)
    if not names:
        return ""
    rules = house(ctx)
    result["house_rules"] = {n: getattr(rules, n) for n in names}
    return note(ctx.locale, rules, names)


def noted(text: str, roll_id: str, marked: str) -> str:
    """``text`` (ending `` #id``) with the note before its id."""
    return f"{text.removesuffix(f' #{roll_id}')}{marked} #{roll_id}" if marked else text
