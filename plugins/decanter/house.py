"""Decanter's house rules: the switches a table plays differently from the book, each with the
book's own rule as its default (001, "Attempting Actions", "Unnecessary Dice Rolls", "Aid Another")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules import house_rules
from gateway.rules.house_rules import HouseRules, changed_result, from_settings, note, switch
from plugins.decanter import mechanics
from plugins.decanter.config import DecanterSettings

# The switches the web's odds page takes (``odds.roll_odds`` keywords; no aid on the page).
WEB_HOUSE = ("tens_double", "ones_subtract", "automatic_success")


class DecanterHouseRules(HouseRules):
    tens_double: bool = switch(
        True,
        en="a 10 counts two successes (off: one, like a 6)",
        cs="desítka platí za dva úspěchy (vypnuto: za jeden, jako šestka)",
        ru="десятка даёт два успеха (выкл.: один, как шестёрка)",
        book='"Attempting Actions", step 3: 10s count as two successes',
    )
    ones_subtract: bool = switch(
        True,
        en="each 1 takes a success away (off: a 1 is a plain failure)",
        cs="každá jednička ubírá úspěch (vypnuto: jednička je obyčejný neúspěch)",
        ru="каждая единица отнимает успех (выкл.: единица просто неудача)",
        book='"Attempting Actions", step 3: 1s actually subtract successes',
    )
    automatic_success: bool = switch(
        True,
        en="a pool more than double the DC succeeds without a roll (off: every pool rolls)",
        cs="pool větší než dvojnásobek DC uspěje bez hodu (vypnuto: hází se vždy)",
        ru="пул больше удвоенной сложности успешен без броска (выкл.: бросают всегда)",
        book='"Unnecessary Dice Rolls": more than double the DC automatically succeeds',
    )
    aid_cap: int = switch(
        5,
        en="the most bonus dice Aid Another can give",
        cs="nejvíc bonusových kostek, které může dát pomoc druhému",
        ru="сколько бонусных кубиков может дать помощь другому",
        book='"Aid Another": at most +5 dice',
        ge=0,
        le=100,
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[decanter] aid_max`` is the switch's default for every channel.
        return from_settings(settings, DecanterSettings, aid_cap="aid_max")

    def dice(self) -> dict[str, bool]:
        """The die's switches (``mechanics.roll``, ``mechanics.aid``, ``odds.roll_odds``, contests)."""
        return {"tens_double": self.tens_double, "ones_subtract": self.ones_subtract}


def house(ctx: CommandContext) -> DecanterHouseRules:
    return ctx.house_rules(DecanterHouseRules)


def mark(ctx: CommandContext, result: dict[str, Any], *rolls: mechanics.Roll) -> str:
    """The roll line's note naming the switches that read these rolls otherwise than the book
    ("" for none), also kept in ``result``: the roll's own faces read under each book value."""
    rules = house(ctx)

    def read(variant: DecanterHouseRules) -> Any:
        out: list[Any] = []
        for roll in rolls:
            dc = roll.dc
            if (
                dc is not None
                and not roll.forced
                and variant.automatic_success
                and mechanics.is_automatic(roll.pool, dc)
            ):
                out.append("automatic")
            elif roll.automatic:
                out.append("dice not rolled")  # the book would have rolled them
            else:
                out.append(mechanics.reread_faces(roll, **variant.dice()))
        return tuple(out)

    names = changed_result(rules, read)
    if not names:
        return ""
    result["house_rules"] = {n: getattr(rules, n) for n in names}
    return note(ctx.locale, rules, names)


def odds_note(ctx: CommandContext) -> str:
    """The odds line names every switch set away from the book: each moves the odds it gives."""
    return house_rules.odds_note(ctx.locale, house(ctx))
