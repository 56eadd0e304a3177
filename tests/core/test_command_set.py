"""``gateway.core.command_set.CommandSet`` and ``RuleSystem.settings_model``: a plugin declares its commands
with decorators and its settings table with a pydantic model; the core registers and validates them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from gateway.core.app import Gateway
from gateway.core.command_set import CommandSet
from gateway.core.commands import Command, CommandContext
from gateway.core.dice import ScriptedDice
from gateway.core.hookspecs import hookimpl
from gateway.core.spec import RuleSystem
from gateway.core.system_settings import SystemSettingsError
from gateway.core.types import Invocation, Reply
from gateway.testing import Chat, Clock, make_settings


class CoinSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sides: int = Field(2, ge=2, le=6)
    label: str = "coin"


COMMANDS = CommandSet("coins")


@COMMANDS.command("flip", "flip the coin", "flip [N]", role="anyone", aliases=("toss",))
@COMMANDS.command("* coin *", "flip, said alone", bare=True)
async def flip(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = ctx.settings_for(CoinSettings)
    return Reply(text=f"{settings.label} of {settings.sides}", result={"sides": settings.sides})


@COMMANDS.command("st weigh", "weigh the coin", role="storyteller")
async def weigh(ctx: CommandContext, inv: Invocation) -> Reply:
    return Reply(text="weighed")


def coin_plugin(settings_model: type[BaseModel] | None = CoinSettings) -> Any:
    system = RuleSystem(name="coins", title="Coins", dice="a coin", settings_model=settings_model)

    @hookimpl
    def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
        register(system)

    return SimpleNamespace(
        gateway_register_rule_systems=gateway_register_rule_systems,
        gateway_register_commands=COMMANDS.hookimpl(),
    )


async def noop(ctx: CommandContext, inv: Invocation) -> None:
    return None


def test_decorators_build_commands_and_return_the_handler() -> None:
    by_name = {c.name: c for c in COMMANDS.commands()}
    assert by_name["flip"] == Command(
        "flip", flip, "flip the coin", "flip [N]", "coins", "anyone", ("toss",), False
    )
    assert by_name["* coin *"].bare and by_name["* coin *"].handler is flip
    # usage defaults to the name; role to player
    assert (by_name["* coin *"].usage, by_name["* coin *"].role) == ("* coin *", "player")
    assert (by_name["st weigh"].usage, by_name["st weigh"].role) == ("st weigh", "storyteller")


def test_include_reads_sets_when_registering_and_takes_plain_commands() -> None:
    late = CommandSet("coins")
    whole = CommandSet("coins").include(late, [Command("spin", noop, "spin", system="coins")])
    late.add("drop", noop, "drop the coin")  # after the include: still registered
    registered: list[Command] = []
    whole.register(registered.append)
    assert [c.name for c in registered] == ["drop", "spin"]
    assert registered[0].usage == "drop" and registered[0].system == "coins"


def test_a_set_of_another_system_is_refused() -> None:
    with pytest.raises(ValueError, match="'dice' included in 'coins'"):
        CommandSet("coins").include(CommandSet("dice"))


@pytest.fixture
async def coin_chat(vault_url: str) -> AsyncIterator[Chat]:
    clock, dice = Clock(), ScriptedDice([])
    settings = make_settings(
        vault_url, gateway={"default_system": "coins"}, coins={"sides": 3, "label": "die"}
    )
    gateway = Gateway(settings, dice=dice, clock=clock, platforms=(), extra_plugins=[coin_plugin()])
    await gateway.upgrade_vault()
    await gateway.start()
    yield Chat(gateway=gateway, dice=dice, clock=clock)
    await gateway.stop()


async def test_the_generated_hookimpl_registers_and_handlers_get_validated_settings(
    coin_chat: Chat,
) -> None:
    reply = await coin_chat.one("flip")
    assert (reply.text, reply.result) == ("die of 3", {"sides": 3})
    assert (await coin_chat.one("toss", verified=False)).text == "die of 3"  # alias, role anyone
    assert (await coin_chat.one("st weigh", st=True)).text == "weighed"
    assert "flip [N]" in (await coin_chat.one("help flip")).text
    assert (await coin_chat.one("* coin *")).text == "die of 3"


def test_a_bad_settings_table_stops_the_start_naming_system_and_field(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, coins={"sides": 9, "colour": "red"})
    with pytest.raises(SystemSettingsError) as caught:
        Gateway(settings, platforms=(), extra_plugins=[coin_plugin()])
    message = str(caught.value)
    assert message.startswith("[coins] settings of rule system 'Coins' are invalid:")
    assert "sides: Input should be less than or equal to 6" in message
    assert "colour: Extra inputs are not permitted" in message


def test_a_missing_table_takes_the_model_defaults(sqlite_url: str) -> None:
    gateway = Gateway(make_settings(sqlite_url), platforms=(), extra_plugins=[coin_plugin()])
    assert gateway.plugins.system_settings["coins"] == CoinSettings.model_validate({})


class OtherSettings(BaseModel):
    pass


def test_settings_for_prefers_the_channels_system_then_any_system_with_that_model() -> None:
    def ctx(system: str, validated: Mapping[str, BaseModel]) -> Any:
        plugins = SimpleNamespace(system_settings=validated)
        return SimpleNamespace(system=SimpleNamespace(name=system), services=SimpleNamespace(plugins=plugins))

    mine, theirs = CoinSettings(sides=3), CoinSettings(sides=4)
    both = {"coins": mine, "other": theirs}
    assert CommandContext.settings_for(ctx("other", both), CoinSettings) is theirs
    assert CommandContext.settings_for(ctx("coins", both), CoinSettings) is mine
    assert CommandContext.settings_for(ctx("help", {"coins": mine}), CoinSettings) is mine
    with pytest.raises(LookupError, match="no rule system has the settings model OtherSettings"):
        CommandContext.settings_for(ctx("coins", both), OtherSettings)
