"""Every command of the core and the five rule systems declares its parameters (``params=``; ``()``
for one that takes no arguments, a group word such as ``char`` included), so ``help``, Discord's
options, the console's completion and the docs' reference show them;
and a command that answers privately says so (``private=True``) for the adapters that must know
before the answer (Discord's deferral)."""

from __future__ import annotations

import pytest

from gateway.core.plugins import Plugins, build_plugin_manager, core_plugins
from gateway.core.registry import Registry
from gateway.core.spec import Command

SYSTEMS = ("nightcap", "decanter", "dramatic", "pravidla", "nightwanderers")


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Plugins(build_plugin_manager(extra=core_plugins())).registry


@pytest.fixture(scope="module")
def commands(registry: Registry) -> dict[tuple[str | None, str], Command]:
    """The registered commands of the core (its own modules, not an adapter's) and the five systems."""
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
    assert undeclared == set(), "declare params= (() when it takes no arguments)"


def test_a_group_word_declares_what_it_takes_alone(
    registry: Registry, commands: dict[tuple[str | None, str], Command]
) -> None:
    """A group word (``char``, ``power``, ``tug``, the core's ``st``) is a command of its own beside
    its subcommands, declared by what it takes alone: ``()`` where it only shows something or names
    its subcommands (Nightcap's ``char``, ``power``, ``extended``). That is honest because a
    subcommand's words never reach it: the router takes the longest name, whatever follows."""
    groups = {
        (system, name): [sub for other, sub in commands if other == system and sub.startswith(f"{name} ")]
        for system, name in commands
    }
    groups = {key: subs for key, subs in groups.items() if subs}
    assert {("nightcap", "char"), ("nightcap", "power"), ("nightcap", "extended")} <= set(groups)
    assert {("nightwanderers", "tug"), ("pravidla", "tug"), (None, "st")} <= set(groups)
    for (system, name), subs in groups.items():
        assert commands[(system, name)].declared, name
        for sub in subs:
            found = registry.find(system or SYSTEMS[0], [*sub.split(), "Mira", "2"])
            assert found is not None and found[0].name == sub, (system, sub)
    for key in (("nightcap", "char"), ("nightcap", "power"), ("nightcap", "extended")):
        assert commands[key].params == ()


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
