"""Dramatic Systems: d10 pools against a difficulty, 1s cancel, Willpower, specialties, retries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.dramatic import commands as c
from plugins.dramatic.config import dramatic_settings
from plugins.dramatic.mechanics import SYSTEM
from plugins.dramatic.parse import ROLL_USAGE

DRAMATIC = RuleSystem(
    name=SYSTEM,
    title="Dramatic Systems",
    dice="d10 against a difficulty (default 6); 1s cancel successes",
    describe="A common set of rules for characters from several classic game lines.",
)

SCENE_MARKER = "* * *"


@hookimpl
def gateway_configure(settings: Any) -> None:
    dramatic_settings(settings)  # a bad [dramatic] table fails at start-up, not on the first roll


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(DRAMATIC)


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    def add(name: str, handler: Any, summary: str, usage: str = "", role: str = "player", **kw: Any) -> None:
        register(Command(name, handler, summary, usage or name, system=SYSTEM, role=role, **kw))  # type: ignore[arg-type]

    add(
        "roll",
        c.roll_command,
        "roll a pool against a difficulty, or a resisted roll with vs",
        ROLL_USAGE,
        "anyone",
    )
    add(
        "odds",
        c.odds_command,
        "exact odds of a roll, with Willpower, specialty and resisted rolls",
        "odds " + ROLL_USAGE[5:],
        "anyone",
    )
    add(
        SCENE_MARKER,
        c.scene_end_command,
        "end the scene in this channel (clears retry penalties)",
        SCENE_MARKER,
        bare=True,
    )
    add("scene end", c.scene_end_command, "end the scene in this channel (same as * * *)", "scene end")
    add("char", c.char_list_command, "list your Dramatic Systems characters", "char")
    add(
        "char new",
        c.char_new_command,
        "make a Dramatic Systems character and make it active",
        "char new NAME",
    )
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
