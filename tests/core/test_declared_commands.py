"""Every command of the core and the five rule systems declares its parameters (``params=``; ``()``
for one that takes no arguments), so ``help``, Discord's options and the docs' reference show them;
and a command that answers privately says so (``private=True``) for the adapters that must know
before the answer (Discord's deferral)."""

from __future__ import annotations

import pytest

from gateway.core.plugins import Plugins, build_plugin_manager, core_plugins
from gateway.core.spec import Command

SYSTEMS = ("nightcap", "decanter", "dramatic", "pravidla", "nightwanderers")

# Commands of plugins/ still without a declaration: their plugins' owners add ``params=``. A name
# leaves this list once declared (the test says so), and none may join it.
PENDING = {
    ("decanter", "* * *"),
    ("decanter", "***"),
    ("decanter", "night end"),
    ("decanter", "scene end"),
    ("decanter", "story end"),
    ("dramatic", "* * *"),
    ("dramatic", "scene end"),
    ("nightcap", "char"),
    ("nightcap", "extended"),
    ("nightcap", "power"),
    ("nightwanderers", "* * *"),
    ("nightwanderers", "boost end"),
    ("nightwanderers", "frenzy end"),
    ("nightwanderers", "scene end"),
    ("nightwanderers", "tug"),
    ("nightwanderers", "tug roll"),
    ("nightwanderers", "tug stop"),
    ("nightwanderers", "wake"),
    ("pravidla", "tug"),
    ("pravidla", "tug stop"),
}


@pytest.fixture(scope="module")
def commands() -> dict[tuple[str | None, str], Command]:
    """The registered commands of the core (its own modules, not an adapter's) and the five systems."""
    registry = Plugins(build_plugin_manager(extra=core_plugins())).registry
    return {
        key: command
        for key, command in registry.commands.items()
        if key[1] == command.name
        and (
            command.system in SYSTEMS
            or (command.system is None and command.handler.__module__.startswith("gateway."))
        )
    }


def test_every_command_declares_its_parameters(commands: dict[tuple[str | None, str], Command]) -> None:
    assert {system for system, _ in commands} == {None, *SYSTEMS}
    undeclared = {key for key, command in commands.items() if not command.declared}
    assert undeclared - PENDING == set(), "declare params= (() when it takes no arguments)"
    assert PENDING - undeclared == set(), "declared now: take it off PENDING"


def test_a_shared_sheet_command_declares_the_same_names_as_nightcaps(
    commands: dict[tuple[str | None, str], Command],
) -> None:
    """The same meaning under the same name in every system, so Discord merges them into one option."""
    for name in ("char new", "char use", "sheet", "st approve"):
        nightcap = [p.name for p in commands[("nightcap", name)].params if not p.keyword]
        for system in ("decanter", "dramatic", "pravidla", "nightwanderers"):
            if (system, name) in commands:
                assert [p.name for p in commands[(system, name)].params if not p.keyword] == nightcap, (
                    system,
                    name,
                )


def test_private_commands_are_declared(commands: dict[tuple[str | None, str], Command]) -> None:
    private = {key for key, command in commands.items() if command.private}
    core = {
        "help", "lang", "link", "unlink", "st", "st list", "st log", "st history", "macro list", "macro show",
        "stats", "char export", "st import",
    }  # fmt: skip
    assert {name for system, name in private if system is None} == core
    for system in ("decanter", "dramatic", "pravidla", "nightwanderers"):
        assert (system, "sheet") in private
    assert ("pravidla", "char list") in private and ("decanter", "char list") not in private
