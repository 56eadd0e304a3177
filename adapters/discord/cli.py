"""``gateway discord register|status|invite`` and ``gateway sync discord``, added through the CLI hook."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
import time
from typing import Any, TextIO
from urllib.parse import quote, urlencode

import aiohttp

from adapters.discord import slash
from adapters.discord.config import TOKEN_ENV, DiscordSettings, load
from gateway import Channel, Identity, InboundMessage, Settings
from gateway.core.adapter_state import AdapterState
from gateway.delivery import queue
from gateway.ops.progress import Progress, duration

MAX_TRIES = 4


# --------------------------------------------------------------------------- register


def configure_register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", metavar="ID", help="register in one server (instant) instead of globally")
    parser.add_argument("--dry-run", action="store_true", help="print the command JSON instead of sending it")


def command_definitions(settings: Settings) -> list[dict[str, Any]]:
    """The slash commands generated from the commands these settings load (``adapters.discord.slash``)."""
    from gateway import Gateway

    gateway = Gateway(settings, platforms=())  # the plugins and their commands; the vault stays closed
    slashes = slash.of(gateway.services)
    for problem in slashes.problems:
        print(f"slash commands: {problem}", file=sys.stderr)
    return slash.definitions(slashes)


async def register(
    config: DiscordSettings, token: str, guild: str | None, commands: list[dict[str, Any]]
) -> tuple[int, Any]:
    """Bulk-overwrite the application's commands (PUT): the same call twice leaves the same commands."""
    base = f"{config.api_base}/applications/{config.application_id}"
    url = f"{base}/guilds/{guild}/commands" if guild else f"{base}/commands"
    headers = {"Authorization": f"Bot {token}", "User-Agent": "DiscordBot (nightcap-gateway, 0.1)"}
    timeout = aiohttp.ClientTimeout(total=config.request_timeout)
    async with aiohttp.ClientSession(timeout=timeout, headers=headers) as http:
        for _ in range(MAX_TRIES):
            async with http.put(url, json=commands) as response:
                data = await response.json(content_type=None)
                if response.status != 429:
                    return response.status, data
                wait = float((data or {}).get("retry_after") or response.headers.get("Retry-After") or 1)
            await asyncio.sleep(wait)
    return 429, data


def run_register(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    config = load(settings.section("discord"))
    if args.dry_run:
        print(json.dumps(command_definitions(settings), indent=2, ensure_ascii=False), file=out)
        return 0
    if not config.application_id:
        print("Set [discord] application_id (the application's id) first.", file=sys.stderr)
        return 2
    token = config.token()
    if not token:
        names = " or ".join(TOKEN_ENV)
        print(f"No bot token: set {names} in the environment, or [discord] bot_token.", file=sys.stderr)
        return 2
    status, data = asyncio.run(register(config, token, args.guild, command_definitions(settings)))
    if status != 200 or not isinstance(data, list):
        print(f"Discord refused the commands ({status}): {json.dumps(data)[:500]}", file=sys.stderr)
        return 1
    where = f"in server {args.guild}" if args.guild else "globally (may take a while to show everywhere)"
    names = ", ".join("/" + str(c.get("name")) for c in data)
    print(f"Registered {len(data)} commands {where}: {names}", file=out)
    return 0


# --------------------------------------------------------------------------- status


def token_source(config: DiscordSettings) -> str:
    """Where the token ``config.token()`` uses comes from: the setting, or the variable actually set
    (the first of ``TOKEN_ENV`` that is), naming the others that are set but not used."""
    if config.bot_token is not None and config.bot_token.get_secret_value():
        return "from [discord] bot_token"
    found = [env for env in TOKEN_ENV if os.environ.get(env)]
    if not found:
        return f"missing (set {' or '.join(TOKEN_ENV)})"
    unused = f" ({', '.join(found[1:])} also set, not used)" if found[1:] else ""
    return f"from ${found[0]}{unused}"


def run_status(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int:
    from gateway import Gateway

    out = out or sys.stdout
    config = load(settings.section("discord"))
    print(f"application id: {config.application_id or '-'}", file=out)
    if config.gateway_mode:
        prefix = f"{config.prefix}roll (needs the Message Content intent)" if config.prefix else "off"
        print("mode: gateway (the bot connects out; no public server needed)", file=out)
        print(f"prefix commands: {prefix}", file=out)
        for name, channel in config.channels.items():
            print(f"channel {name}: {channel} (the bot posts)", file=out)
    else:
        print("mode: interactions (Discord POSTs to this gateway)", file=out)
    print(
        f"interactions endpoint: {'/discord/interactions' if config.public_key else 'off (no public_key)'}",
        file=out,
    )
    print(f"bot token: {token_source(config)}", file=out)
    print(f"API: {config.api_base}", file=out)

    async def disabled() -> dict[str, bool]:
        from adapters.discord.adapter import SCOPE_DISABLED, fingerprint

        gateway = Gateway(settings, platforms=())
        try:
            await gateway.upgrade_vault()
            records = await AdapterState(gateway.services.vault, SCOPE_DISABLED).items()
        finally:
            await gateway.services.vault.dispose()
        return {
            name: records.get(name, {}).get("fingerprint") == fingerprint(hook)
            for name in config.webhooks
            if (hook := config.webhook(name)) is not None
        }

    states = asyncio.run(disabled())
    for name in config.webhooks:
        state = "DISABLED (answered 404)" if states.get(name) else "ok"
        print(f"webhook {name}: {state}", file=out)
    return 0


# --------------------------------------------------------------------------- invite

AUTHORIZE = "https://discord.com/oauth2/authorize"
# What the bot does in a channel, and nothing more: read it, answer in it, with embeds. Slash
# commands, their replies and buttons need no permission (they are the application's, not the bot
# user's); the log webhooks are made by hand in the channel settings, so no Manage Webhooks.
# Bits: developers/topics/permissions.mdx.
PERMISSIONS = {"View Channel": 1 << 10, "Send Messages": 1 << 11, "Embed Links": 1 << 14}


def invite_url(application_id: str, *, commands_only: bool = False) -> str:
    """The OAuth2 install link: scopes ``bot applications.commands`` with the permissions above, or
    ``applications.commands`` alone as a server install (developers/topics/oauth2.mdx)."""
    if commands_only:
        query = {"client_id": application_id, "scope": "applications.commands", "integration_type": "0"}
    else:
        query = {
            "client_id": application_id,
            "scope": "bot applications.commands",
            "permissions": str(sum(PERMISSIONS.values())),
            "integration_type": "0",
        }
    return f"{AUTHORIZE}?{urlencode(query, quote_via=quote)}"  # %20 between scopes


def configure_invite(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--commands-only",
        action="store_true",
        help="scope applications.commands only (no bot user): slash commands and buttons still work",
    )


def run_invite(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    config = load(settings.section("discord"))
    if not config.application_id:
        print("Set [discord] application_id (the application's id) first.", file=sys.stderr)
        return 2
    print(invite_url(config.application_id, commands_only=args.commands_only), file=out)
    if args.commands_only:
        print("scopes: applications.commands (server install); no bot permissions", file=out)
    else:
        granted = ", ".join(f"{name} ({bit})" for name, bit in PERMISSIONS.items())
        print(f"scopes: bot, applications.commands; permissions: {granted}", file=out)
    print("Open it as someone with Manage Server on the server, then run gateway discord register.", file=out)
    return 0


# --------------------------------------------------------------------------- sync


def configure_sync(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pending", action="store_true", help="do not run st sync: deliver the sheet exports already queued"
    )
    parser.add_argument("--as", dest="as_", metavar="NAME", help="operator identity console:NAME")


def steady_rate(config: DiscordSettings) -> float | None:
    rates = [c.requests / c.seconds for c in (config.webhook_cap, config.channel_cap) if c.requests > 0]
    return min(rates) if rates else None


async def sync(
    settings: Settings,
    *,
    name: str,
    pending_only: bool,
    out: TextIO | None = None,
    poll: float = 0.2,
    extra_plugins: tuple[Any, ...] = (),
) -> int:
    """Run ``st sync`` as the operator (or take the queued exports), deliver them, show the progress.

    Run it while ``gateway serve`` is stopped (or use ``st sync`` in chat and let the server deliver):
    two processes delivering at once would each pace only their own requests."""
    from gateway import Gateway

    out = out or sys.stderr
    gateway = Gateway(settings, platforms=("discord",), extra_plugins=extra_plugins)
    adapter: Any = gateway.adapters.get("discord")
    if adapter is None:
        print("Discord is not configured: add [discord.webhooks] first.", file=out)
        return 2
    await gateway.start()
    try:
        mark = await queue.newest_id(gateway.services.vault)
        if not pending_only:
            message = InboundMessage(
                sender=Identity(platform="console", id=name, display_name=name),
                channel=Channel(platform="console", id="main"),
                text="st sync",
                roles=frozenset({"storyteller"}),
            )
            replies = await gateway.services.handle(message)
            for reply in replies:
                print(reply.text, file=out)
            if any(r.error for r in replies):
                return 1
        ids = await _sheet_rows(gateway, after=None if pending_only else mark)
        if not ids:
            print("No sheet exports to send.", file=out)
            return 0
        started = time.monotonic()
        before_429 = adapter.limiter.stats.rate_limited
        bar = Progress(len(ids), out, label="sheets", steady_rate=steady_rate(adapter.config))
        while True:
            counts = await _statuses(gateway, ids)
            delivered, failed = counts.get("delivered", 0), counts.get("dead", 0)
            bar.update(delivered, failed)
            if delivered + failed >= len(ids):
                break
            await asyncio.sleep(poll)
        bar.close()
        hits = adapter.limiter.stats.rate_limited - before_429
        print(
            f"Sent {delivered} of {len(ids)} sheets to Discord in {duration(time.monotonic() - started)}"
            f" ({failed} failed, {hits} rate-limit answers).",
            file=out,
        )
        return 0 if failed == 0 else 1
    finally:
        await gateway.stop()


async def _sheet_rows(gateway: Any, after: int | None) -> list[int]:
    rows = await queue.rows(gateway.services.vault, "discord", after=after)
    return [r.id for r in rows if r.payload.get("kind") == "sheet"]


async def _statuses(gateway: Any, ids: list[int]) -> dict[str, int]:
    tallies = (await queue.status(gateway.services.vault, "discord", ids=ids)).values()
    return {
        "pending": sum(t.pending for t in tallies),
        "delivered": sum(t.delivered for t in tallies),
        "dead": sum(t.dead for t in tallies),
    }


def run_sync(args: argparse.Namespace, settings: Settings) -> int:
    from gateway import configure_logging

    configure_logging(settings.log.format, "warning")
    name = args.as_ or getpass.getuser() or "console"
    return asyncio.run(sync(settings, name=name, pending_only=args.pending))
