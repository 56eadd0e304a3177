"""gateway.core.command_reference: the chat command reference from the registry, per system and language."""

from __future__ import annotations

import pytest

from gateway.core.command_reference import command_entry, installed_registry, reference
from gateway.core.params import Param
from gateway.core.registry import Registry
from gateway.core.spec import Command, RuleSystem


async def handler(ctx: object, inv: object) -> None:
    return None


def registry() -> Registry:
    reg = Registry()
    damage = Command(
        "damage",
        handler,  # type: ignore[arg-type]
        "record *damage* taken",
        params=(
            Param("amount", "integer", "levels of damage", required=True, minimum=1, maximum=10),
            Param("kind", "choice", "bashing or lethal", choices=("bashing", "lethal")),
            Param("wp", "flag", "spend Willpower", keyword="wp"),
        ),
        texts={"cs": ("zapíše zranění", "damage POČET")},
        aliases=("dmg",),
    )
    st = Command("st heal", handler, "heal anyone", "st heal NAME", role="storyteller")  # type: ignore[arg-type]
    reg.add_system(RuleSystem("toy", "Toy", "d6", commands=[st, damage]))
    reg.add_command(Command("help", handler, "list commands", "help [COMMAND]", role="anyone"))  # type: ignore[arg-type]
    return reg


def test_a_system_reference_lists_its_commands_by_name_with_usage_who_and_parameters() -> None:
    text = reference("toy", "en", registry=registry())
    assert text.index("### `damage`") < text.index("### `st heal`")
    assert "### `help`" not in text  # the core's commands have their own reference
    assert "- **Usage:** `damage AMOUNT [bashing|lethal] [wp]`" in text
    assert "- **Who:** Storytellers" in text and "- **Who:** players" in text
    assert "- **Also:** `dmg`" in text
    assert "record \\*damage\\* taken" in text  # literal, not emphasis
    assert "| `amount` | whole number 1–10 | yes | levels of damage |" in text
    assert "| `kind` | one of `bashing`, `lethal` | no | bashing or lethal |" in text
    assert "| `wp` | `wp` | no | spend Willpower |" in text


def test_the_core_reference_and_another_language() -> None:
    assert reference(None, "en", registry=registry()).startswith("### `help`\n\nlist commands\n")
    czech = reference("toy", "cs", registry=registry())
    assert "zapíše zranění" in czech and "- **Použití:** `damage POČET`" in czech
    assert "- **Kdo:** Vypravěči" in czech and "| parametr | druh | povinný | popis |" in czech
    assert "- **Кто:** Рассказчики" in reference("toy", "ru", registry=registry())


def test_a_translation_without_its_own_usage_keeps_the_declared_one() -> None:
    command = Command(
        "heal",
        handler,  # type: ignore[arg-type]
        "heal",
        params=(Param("levels", "integer", "levels", required=True),),
        texts={"ru": ("лечить", "")},
    )
    assert "- **Как писать:** `heal LEVELS`" in command_entry(command, "ru")


def test_a_command_without_parameters_has_no_table() -> None:
    st = registry().commands[("toy", "st heal")]
    assert not any(line.startswith("|") for line in command_entry(st, "en"))


def test_it_is_deterministic_and_refuses_an_unknown_system() -> None:
    assert reference("toy", "en", registry=registry()) == reference("toy", "en", registry=registry())
    with pytest.raises(LookupError):
        reference("nosuch", "en", registry=registry())


def test_the_installed_systems_each_have_commands() -> None:
    for name in installed_registry().systems:
        assert reference(name, "en").count("### `") >= 3, name
