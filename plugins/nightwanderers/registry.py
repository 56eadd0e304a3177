"""A decorator that registers a command with its Russian help (``Command.texts``) and its Russian
name as an alias."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from gateway import CommandSet, Handler, Role

H = TypeVar("H", bound=Handler)
# The second pass's commands by their Russian names (the router takes the longest name that matches,
# so "захват ход" is grapple damage and "захват Иван" a grapple).
RUSSIAN = {
    "grapple": "захват",
    "grapple damage": "захват ход",
    "grapple release": "захват отпустить",
    "bite": "укус",
    "drink": "пить",
    "give": "напоить",
    "pursue": "погоня",
    "tug": "противоборство",
    "tug start": "противоборство начать",
    "tug roll": "противоборство ход",
    "tug stop": "противоборство стоп",
    "scene end": "конец эпизода",
    "turn": "ход",
    "dismember": "расчленить",
    "humanity buy": "гуманность купить",
}


def command(
    commands: CommandSet,
    name: str,
    summary: str,
    usage: str,
    ru: tuple[str, str],
    role: Role = "player",
    bare: bool = False,
) -> Callable[[H], H]:
    """``ru`` is (summary, usage) for ``help`` in Russian; the usage names the Russian alias."""
    alias = RUSSIAN.get(name)
    ru_usage = f"{ru[1]} (или {alias} …)" if alias else ru[1]
    texts = {"ru": (ru[0], ru_usage)}
    aliases = (alias,) if alias else ()
    return commands.command(name, summary, usage, role=role, bare=bare, aliases=aliases, texts=texts)
