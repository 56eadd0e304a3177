"""Dramatic Systems: d10 pools against a difficulty, 1s cancel, Willpower, specialties, retries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.dramatic import rolls
from plugins.dramatic.characters import CHARACTERS
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
    def add(
        name: str, handler: Any, summary: str, usage: str, role: Any = "player", bare: bool = False
    ) -> None:
        register(Command(name, handler, summary, usage, system=SYSTEM, role=role, bare=bare))

    add(
        "roll",
        rolls.roll_command,
        "roll a pool against a difficulty, or a resisted roll with vs",
        ROLL_USAGE,
        "anyone",
    )
    add(
        "odds",
        rolls.odds_command,
        "exact odds of a roll, with Willpower, specialty and resisted rolls",
        "odds " + ROLL_USAGE[5:],
        "anyone",
    )
    add(
        SCENE_MARKER,
        rolls.scene_end_command,
        "end the scene in this channel (clears retry penalties)",
        SCENE_MARKER,
        bare=True,
    )
    add("scene end", rolls.scene_end_command, "end the scene in this channel (same as * * *)", "scene end")
    for command in CHARACTERS.commands():
        register(command)
