"""Night Wanderers' house rules: the switches a table plays differently from the book, each with
the book's own rule as its default (002, "Боль" and the dice section)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway import CommandContext
from gateway.rules.house_rules import HouseRules, from_settings, switch
from plugins.nightwanderers import mechanics
from plugins.nightwanderers.config import NightWanderersSettings


class NightWanderersHouseRules(HouseRules):
    pain: bool = switch(
        True,
        en="pain takes dice: 1 in the Normal band, 2 in Medium and worse (off: no pain)",
        cs="bolest bere kostky: 1 v pásmu Normální, 2 v pásmu Střední a horších (vypnuto: bez bolesti)",
        ru="боль отнимает кубики: 1 на Нормальном уровне, 2 на Среднем и ниже (выкл.: без боли)",
        book='"Боль": the Normal level loses one die, the Medium level two',
    )
    default_difficulty: int = switch(
        4,
        en="the difficulty of a roll that names none",
        cs="obtížnost hodu, který žádnou neuvádí",
        ru="Трудность броска, в котором она не названа",
        book="the dice section: the DM sets a difficulty from 2 to 6",
        ge=mechanics.MIN_DIFFICULTY,
        le=mechanics.MAX_DIFFICULTY,
    )

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        # ``[nightwanderers] default_difficulty`` is the switch's default for every channel.
        return from_settings(settings, NightWanderersSettings, default_difficulty="default_difficulty")


def house(ctx: CommandContext) -> NightWanderersHouseRules:
    return ctx.house_rules(NightWanderersHouseRules)
