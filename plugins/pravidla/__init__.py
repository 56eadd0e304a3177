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
    add("char", commands.char_command, "list your Pravidla characters", "char")
    add(
        "char new", commands.char_new_command, "make a Pravidla character and make it active", "char new NAME"
    )
    add("char use", commands.char_use_command, "pick your active character", "char use NAME")
    add("sheet", commands.sheet_command, "show a character sheet", "sheet [NAME]")
    add(
        "st set",
        commands.st_set_command,
        "Storyteller: set a sheet field (audited)",
        "st set NAME FIELD VALUE",
        "storyteller",
    )
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
    add("init", scene.init_command, "show the initiative order", "init")
    add(
        "init join",
        scene.init_join_command,
        "join the initiative with your active character",
        "init join [hunting] [celerity basic|advanced]",
    )
    add(
        "init add",
        scene.init_add_command,
        "Storyteller: add someone to the initiative",
        "init add NAME [STAMINA WITS] [hunting] [celerity basic|advanced]",
        "storyteller",
    )
    add(
        "init roll",
        scene.init_roll_command,
        "Storyteller: put the initiative in order",
        "init roll",
        "storyteller",
    )
    add(
        "init remove",
        scene.init_remove_command,
        "Storyteller: take someone out of the initiative",
        "init remove NAME",
        "storyteller",
    )
    add(
        "init clear",
        scene.init_clear_command,
        "Storyteller: clear the initiative",
        "init clear",
        "storyteller",
    )
