"""Nightcap, the primary rule system: d10 pools, 7+ succeeds, 10 counts twice, 1 takes one away."""

from __future__ import annotations

from collections.abc import Callable

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.nightcap import conflict_commands
from plugins.nightcap.pools import ROLL_USAGE
from plugins.nightcap.rolls import SYSTEM, roll_command

NIGHTCAP = RuleSystem(
    name=SYSTEM,
    title="Nightcap",
    dice="d10, 7+ succeeds, 10 counts twice, 1 takes one away",
    describe="Modern supernatural stories after midnight.",
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHTCAP)


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "roll",
            roll_command,
            "roll a pool, or a contest with vs",
            ROLL_USAGE,
            system=SYSTEM,
            role="anyone",
        )
    )
    for command in conflict_commands.commands():
        register(command)
