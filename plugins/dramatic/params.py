"""Dramatic Systems' commands' typed parameters (``gateway.core.params``), by command name. English only,
as the system. Handlers still read their words (``parse``), so a declaration takes every line the
grammar takes: the difficulty has no range here because the book lowers a higher one to 10 (and
raises a lower one to 2) with a note, rather than refusing it; ``spec``, ``retry`` and ``reflex``
may belong to either side, so they stay in the pool's words. A pool or a line of the command's
own grammar is never ``required``: its handler explains a missing one in the system's words."""

from __future__ import annotations

from dataclasses import replace

from gateway import Command, CommandSet, Param

ROLL = (
    Param("pool", "pool", "Attribute + Ability, numbers or trait names joined by +, or retry"),
    Param("ability", "trait", "the secondary Ability the roll is for", keyword="for"),
    Param("difficulty", "integer", "the difficulty, 2 to 10 (6 when left out)", keyword="diff"),
    Param("willpower", "flag", "spend Willpower for one automatic success", keyword="wp"),
    Param("against", "pool", "the other side: POOL [diff N] [spec], or CHARACTER POOL", keyword="vs"),
    Param("secret", "flag", "only you and the Storytellers see it", keyword="secret"),
)

PARAMS: dict[str, tuple[Param, ...]] = {"roll": ROLL, "odds": ROLL}


def with_params(commands: CommandSet) -> list[Command]:
    """The set's commands, each with its parameters from ``PARAMS``."""
    return [replace(c, params=PARAMS.get(c.name, c.params)) for c in commands.commands()]
