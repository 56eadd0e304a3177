"""Dramatic Systems' house rules: the switches a table plays differently from the book.

The book itself allows it ("Players can use different rules if they all agree"). The switches are
the ones Tzimisce's servers use (``xpl_always``, ``xpl_spec``, ``never_double``, ``always_double``,
``nullify_ones``, ``no_botch``, ``wp_cancelable``, ``default_diff``), each named for what it does.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway.rules.house_rules import HouseRules, from_settings, switch
from plugins.dramatic.config import DramaticSettings
from plugins.dramatic.mechanics import Double, Explode

BOOK = "Dramatic Systems, dice summary"
# The switches the web's odds page takes (it has no Willpower, and names its difficulty).
WEB_HOUSE = ("tens_explode", "tens_double", "ones_cancel", "botch")


class DramaticHouseRules(HouseRules):
    tens_explode: Explode = switch(
        "specialty",
        en="when a 10 rolls one more die: with a specialty, always, or never",
        cs="kdy desítka hází další kostku: se specializací, vždy, nebo nikdy",
        ru="когда десятка даёт ещё один кубик: со специализацией, всегда или никогда",
        book=f"{BOOK}: re-roll 10s with a relevant specialty",
    )
    tens_double: Double = switch(
        "never",
        en="when a 10 counts two successes: never, always, or with a specialty",
        cs="kdy desítka platí za dva úspěchy: nikdy, vždy, nebo se specializací",
        ru="когда десятка считается за два успеха: никогда, всегда или со специализацией",
        book=f"{BOOK}: every die at or above the difficulty is a success",
    )
    ones_cancel: bool = switch(
        True,
        en="each 1 cancels one success",
        cs="každá jednička ruší jeden úspěch",
        ru="каждая единица отменяет один успех",
        book=f"{BOOK}: every die showing 1 cancels a success",
    )
    botch: bool = switch(
        True,
        en="a 1 and no die at the difficulty is a botch",
        cs="jednička a žádná kostka na obtížnosti je fiasko",
        ru="единица и ни одного кубика на сложности: провал (ботч)",
        book=f"{BOOK}: a 1 and no successes is a botch",
    )
    willpower_cancelable: bool = switch(
        True,
        en="1s can cancel the Willpower success",
        cs="jedničky mohou zrušit úspěch z Vůle",
        ru="единицы могут отменить успех от Силы воли",
        book=f"{BOOK}: even the auto-success from Willpower may be canceled",
    )
    default_difficulty: int = switch(
        6,
        en="the difficulty of a roll that names none",
        cs="obtížnost hodu, který žádnou neuvádí",
        ru="сложность броска, в котором она не названа",
        book=f"{BOOK}: typical base difficulty is 6",
        ge=2,
        le=10,
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[dramatic] default_difficulty`` is this switch's default for every channel.
        return from_settings(settings, DramaticSettings, default_difficulty="default_difficulty")

    def dice(self) -> dict[str, Any]:
        """The switches the dice functions take (``mechanics.roll``, ``odds.roll_odds``)."""
        return {
            "tens_explode": self.tens_explode,
            "tens_double": self.tens_double,
            "ones_cancel": self.ones_cancel,
            "botch": self.botch,
            "willpower_cancelable": self.willpower_cancelable,
        }
