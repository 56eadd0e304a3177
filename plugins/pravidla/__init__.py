"""Pravidla, the Czech vampire rules: d6 pools against a target number, contests with re-rolled
ties, tug of war, and initiative by switched-on powers, Stamina, Wits and a die. Messages in Czech
by default (``lang en`` for English)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.pravidla import commands, config, scene
from plugins.pravidla.characters import CHARACTERS
from plugins.pravidla.mechanics import SYSTEM

PRAVIDLA = RuleSystem(
    name=SYSTEM,
    title="Pravidla",
    dice="d6 pool against a target number (usually 4)",
    default_locale="cs",
    locales=("cs", "en"),
    describe="Czech vampire rules: count the dice that reach the target number.",
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(PRAVIDLA)


@hookimpl
def gateway_configure(settings: Any) -> None:
    config.load(settings)  # a mistake in [pravidla] stops the start-up with pydantic's message


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    def add(name: str, handler: Any, summary: str, usage: str, role: Any = "player") -> None:
        register(Command(name, handler, summary, usage, system=SYSTEM, role=role))

    add(
        "roll",
        commands.roll_command,
        "roll a d6 pool against a target number, or a contest",
        "roll POOL [+N|-N] [tn 2-6] [need N] [vs POOL|vs NAME] [secret]",
        "anyone",
    )
    add(
        "odds",
        commands.odds_command,
        "exact chances of a roll or a contest",
        "odds POOL [tn 2-6] [need N] [vs POOL]",
        "anyone",
    )
    for command in CHARACTERS.commands(
        "Pravidla",
        "make a Pravidla character and make it active",
        "char new NAME",
        "show a character sheet",
        "Storyteller: set a sheet field (audited)",
    ):
        register(command)
    add("tug", scene.tug_command, "show the tug of war in this channel", "tug")
    add(
        "tug start",
        scene.tug_start_command,
        "start a tug of war to a lead of N",
        "tug start NAME N [POOL vs POOL] [tn 2-6]",
    )
    add(
        "tug roll", scene.tug_roll_command, "roll the next round of the tug of war", "tug roll [POOL vs POOL]"
    )
    add("tug stop", scene.tug_stop_command, "call the tug of war off", "tug stop")
    for command in scene.INITIATIVE.commands(
        scene.init_join_command,
        scene.init_add_command,
        "init add NAME [STAMINA WITS] [hunting] [celerity basic|advanced]",
        "Storyteller: put the initiative in order",
    ):
        register(command)
