"""The Discord adapter: slash commands (and ``!roll`` prefix commands in Gateway mode) over the bot's
Gateway websocket or the Interactions Endpoint, Storyteller log and sheet exports by the bot or over
webhooks, and the ``gateway discord setup|register|status|invite`` and ``gateway sync discord`` commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog

from gateway import AdapterServices, AdapterSpec, CliCommand, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> Any:
    from adapters.discord.adapter import DiscordAdapter
    from adapters.discord.config import load

    config = load(section)
    if config.enabled and config.mode == "gateway" and not config.token():
        structlog.get_logger(__name__).error(
            "discord not started",
            problem="mode = gateway needs a bot token (DISCORD_BOT_TOKEN, bot_token, bot_token_file)",
        )
        return None
    if not config.enabled or not config.configured:
        return None
    return DiscordAdapter(services, config)


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="discord", build=build))


@hookimpl
def gateway_register_cli_commands(register: Callable[[CliCommand], None]) -> None:
    from adapters.discord import cli, setup

    register(
        CliCommand(
            "discord setup",
            "from a bot token to a working bot: check it, write [discord], register commands, invite link",
            setup.run,
            setup.configure,
        )
    )
    register(
        CliCommand(
            "discord register",
            "bulk-overwrite the application's slash commands (global, or --guild ID)",
            cli.run_register,
            cli.configure_register,
        )
    )
    register(CliCommand("discord status", "show the Discord settings and disabled webhooks", cli.run_status))
    register(
        CliCommand(
            "discord invite",
            "print the OAuth2 link that adds the bot and its commands to a server",
            cli.run_invite,
            cli.configure_invite,
        )
    )
    register(
        CliCommand(
            "sync discord",
            "Force Web Sync: st sync, then deliver every sheet export with a progress bar",
            cli.run_sync,
            cli.configure_sync,
        )
    )
