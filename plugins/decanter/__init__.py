"""Decanter: d10 Attribute + Skill pools against a Difficulty Class, Story Points and Conditions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.decanter import conditions, extended, rolls, story_points
from plugins.decanter.characters import CHARACTERS
from plugins.decanter.conditions import COND_ADD_USAGE
from plugins.decanter.config import decanter_settings
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.parse import ROLL_USAGE

DECANTER = RuleSystem(
    name=SYSTEM,
    title="Decanter",
    dice="d10, 6-9 succeeds, 10 counts twice, 1 takes one away; against a DC",
    describe="Attribute + Skill against a Difficulty Class, with Story Points and Conditions.",
)

SCENE_MARKER = "* * *"


@hookimpl
def gateway_configure(settings: Any) -> None:
    decanter_settings(settings)  # a bad [decanter] table fails at start-up, not on the first roll


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DECANTER)


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    def add(name: str, handler: Any, summary: str, usage: str = "", role: str = "player", **kw: Any) -> None:
        register(Command(name, handler, summary, usage or name, system=SYSTEM, role=role, **kw))  # type: ignore[arg-type]

    add(
        "roll",
        rolls.roll_command,
        "roll Attribute + Skill against a DC, an NPC or another character",
        ROLL_USAGE,
        "anyone",
    )
    add(
        "odds",
        rolls.odds_command,
        "exact odds of a roll, with qualities, Take Half and aid",
        "odds " + ROLL_USAGE[5:],
        "anyone",
    )
    add("sp", story_points.sp_command, "show your Story Points (Storytellers: anyone's)", "sp [NAME]")
    add(
        "sp give",
        story_points.sp_give_command,
        "give a character Story Points (negative takes)",
        "sp give NAME N",
        "storyteller",
    )
    add(
        "sp bonus",
        story_points.sp_bonus_command,
        "spend Story Points as extra successes on your latest roll",
        "sp bonus [N]",
    )
    add(
        "downgrade",
        story_points.downgrade_command,
        "step your latest roll down and gain a Story Point per step",
        "downgrade [N]",
    )
    add("cond", conditions.cond_command, "list Conditions", "cond [NAME]")
    add("cond add", conditions.cond_add_command, "take a Condition", COND_ADD_USAGE)
    add(
        "cond resolve",
        conditions.cond_resolve_command,
        "resolve a Condition",
        "cond resolve NAME [for CHARACTER]",
    )
    add(
        "ext",
        extended.ext_command,
        "start, show or stop an extended contest",
        "ext [DC K | stop] [for CHARACTER]",
    )
    add(SCENE_MARKER, conditions.scene_end_command, "end the scene in this channel", SCENE_MARKER, bare=True)
    add(
        "scene end",
        conditions.scene_end_command,
        "end the scene in this channel (same as * * *)",
        "scene end",
    )
    add(
        "night end",
        conditions.night_end_command,
        "end the night (and the scene) in this channel",
        "night end",
        "storyteller",
    )
    for command in CHARACTERS.commands():
        register(command)
