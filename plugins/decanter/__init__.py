"""Decanter: d10 Attribute + Skill pools against a Difficulty Class, Story Points and Conditions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.decanter import commands as c
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
        c.roll_command,
        "roll Attribute + Skill against a DC, an NPC or another character",
        ROLL_USAGE,
        "anyone",
    )
    add(
        "odds",
        c.odds_command,
        "exact odds of a roll, with qualities, Take Half and aid",
        "odds " + ROLL_USAGE[5:],
        "anyone",
    )
    add("sp", c.sp_command, "show your Story Points (Storytellers: anyone's)", "sp [NAME]")
    add(
        "sp give",
        c.sp_give_command,
        "give a character Story Points (negative takes)",
        "sp give NAME N",
        "storyteller",
    )
    add(
        "sp bonus",
        c.sp_bonus_command,
        "spend Story Points as extra successes on your latest roll",
        "sp bonus [N]",
    )
    add(
        "downgrade",
        c.downgrade_command,
        "step your latest roll down and gain a Story Point per step",
        "downgrade [N]",
    )
    add("cond", c.cond_command, "list Conditions", "cond [NAME]")
    add("cond add", c.cond_add_command, "take a Condition", c.COND_ADD_USAGE)
    add("cond resolve", c.cond_resolve_command, "resolve a Condition", "cond resolve NAME [for CHARACTER]")
    add("ext", c.ext_command, "start, show or stop an extended contest", "ext [DC K | stop] [for CHARACTER]")
    add(SCENE_MARKER, c.scene_end_command, "end the scene in this channel", SCENE_MARKER, bare=True)
    add("scene end", c.scene_end_command, "end the scene in this channel (same as * * *)", "scene end")
    add(
        "night end",
        c.night_end_command,
        "end the night (and the scene) in this channel",
        "night end",
        "storyteller",
    )
    add("char", c.char_list_command, "list your Decanter characters", "char")
    add("char new", c.char_new_command, "make a Decanter character and make it active", "char new NAME")
    add("char use", c.char_use_command, "make one of your characters active", "char use NAME")
    add("sheet", c.sheet_command, "show a character sheet", "sheet [NAME]")
    add("set", c.set_command, "set a field on your unapproved sheet", "set " + c.SET_USAGE)
    add(
        "st set",
        c.st_set_command,
        "set any character's field (audited)",
        "st set NAME " + c.SET_USAGE,
        "storyteller",
    )
    add("st approve", c.st_approve_command, "approve and lock a sheet", "st approve NAME", "storyteller")
