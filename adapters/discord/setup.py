"""``gateway discord setup``: from a bot token to a working bot in one command.

It reads the token (``--token-file``, the environment or ``[discord] bot_token``, else a hidden
prompt; never echoed or logged), asks Discord who the bot is (``GET /users/@me``,
``GET /applications/@me``), writes the ``[discord]`` table (Gateway mode, the application id, the
token in a file of its own, mode 0600, unless it came from the environment), registers the slash
commands, prints the invite link, and says which privileged intent is still off in the portal.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote, urlencode

import aiohttp

from adapters.discord.cli import AUTHORIZE, PERMISSIONS, command_definitions, register
from adapters.discord.config import TOKEN_ENV, DiscordSettings, load
from gateway import Settings

# What the bot needs in a channel in Gateway mode: the endpoint mode's three, plus Attach Files for
# odds pictures in its own posts and Read Message History for catching up on prefix commands after a
# failover (catch_up.py) (developers/topics/permissions.mdx).
BOT_PERMISSIONS = {**PERMISSIONS, "Attach Files": 1 << 15, "Read Message History": 1 << 16}
# Application flags (developers/resources/application.mdx): the Message Content intent is on when
# either is set (LIMITED: under 100 servers, no review needed).
GATEWAY_MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 18, 1 << 19
TOKEN_FILE = "discord-token"
HEADERS = {"User-Agent": "DiscordBot (nightcap-gateway, 0.1)"}


class SetupError(Exception):
    """A step failed; the message says what to do."""


@dataclass
class Bot:
    user_id: str
    username: str
    application_id: str
    application_name: str
    flags: int

    @property
    def message_content(self) -> bool:
        return bool(self.flags & (GATEWAY_MESSAGE_CONTENT | GATEWAY_MESSAGE_CONTENT_LIMITED))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--token-file", metavar="PATH", help="read the bot token from this file")
    parser.add_argument("--guild", metavar="ID", help="register the commands in one server (instant)")
    parser.add_argument("--api-url", metavar="URL", help="the REST base (default: [discord] api_url)")
    parser.add_argument("--no-register", action="store_true", help="leave the slash commands as they are")
    parser.add_argument(
        "--no-prefix", action="store_true", help="no !roll prefix commands (no privileged intent)"
    )


def invite_link(application_id: str) -> str:
    query = {
        "client_id": application_id,
        "scope": "bot applications.commands",
        "permissions": str(sum(BOT_PERMISSIONS.values())),
        "integration_type": "0",
    }
    return f"{AUTHORIZE}?{urlencode(query, quote_via=quote)}"


def read_token(args: argparse.Namespace, config: DiscordSettings) -> tuple[str, str]:
    """The token and where it came from: "file", "settings" (env or config) or "prompt"."""
    if args.token_file:
        try:
            token = Path(args.token_file).expanduser().read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SetupError(f"cannot read {args.token_file}: {exc.strerror}") from None
        return token, "file"
    configured = config.token()
    if configured:
        return configured, "settings"
    if not sys.stdin.isatty():
        names = " or ".join(TOKEN_ENV)
        raise SetupError(f"no bot token: set {names}, pass --token-file, or run this in a terminal")
    return getpass.getpass(
        "Bot token (Developer Portal → your application → Bot → Reset Token): "
    ).strip(), "prompt"


async def who(api: str, token: str, timeout: float) -> Bot:
    headers = {**HEADERS, "Authorization": f"Bot {token}"}
    async with aiohttp.ClientSession(headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)) as http:
        replies: list[Any] = []
        for path in ("/users/@me", "/applications/@me"):
            try:
                async with http.get(api + path) as response:
                    if response.status == 401:
                        raise SetupError(
                            "Discord refused this token (401). Copy it again: Developer Portal → your"
                            " application → Bot → Reset Token."
                        )
                    if response.status != 200:
                        raise SetupError(f"GET {path} answered {response.status}; try again later")
                    replies.append(await response.json())
            except (aiohttp.ClientError, TimeoutError) as exc:
                raise SetupError(f"cannot reach Discord at {api}: {type(exc).__name__}") from None
    me, app = replies
    return Bot(
        user_id=str(me.get("id")),
        username=str(me.get("username")),
        application_id=str(app.get("id")),
        application_name=str(app.get("name")),
        flags=int(app.get("flags") or 0),
    )


def _toml(value: str | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_table(path: Path, values: dict[str, str | bool]) -> None:
    """Set ``values`` in the file's ``[discord]`` table (made when missing), leaving every other line
    as it was; the result must parse, or the file is left untouched."""
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = before.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "[discord]"), None)
    if start is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines.append("[discord]")
        start = len(lines) - 1
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    for key, value in values.items():
        line = f"{key} = {_toml(value)}"
        found = next((i for i in range(start + 1, end) if re.match(rf"\s*{key}\s*=", lines[i])), None)
        if found is None:
            lines.insert(start + 1, line)
            end += 1
        else:
            lines[found] = line
    after = "\n".join(lines) + "\n"
    try:
        tomllib.loads(after)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{path} would not parse after the change ({exc}); edit [discord] by hand") from None
    path.write_text(after, encoding="utf-8")


def save_token(directory: Path, token: str) -> Path:
    path = directory / TOKEN_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    os.chmod(path, 0o600)  # an existing file keeps its mode through O_CREAT
    return path


def run(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    config = load(settings.section("discord"))
    api = (args.api_url or config.api_base).rstrip("/")
    config_path = Path(getattr(args, "config", None) or os.environ.get("GATEWAY_CONFIG") or "gateway.toml")
    try:
        token, source = read_token(args, config)
        if not token:
            raise SetupError("no token given")
        bot = asyncio.run(who(api, token, config.request_timeout))
        print(
            f"Bot: {bot.username} (user {bot.user_id});"
            f" application {bot.application_name} ({bot.application_id})",
            file=out,
        )
        values: dict[str, str | bool] = {"mode": "gateway", "application_id": bot.application_id}
        if args.api_url:
            values["api_url"] = api
        if not args.no_prefix:
            values["prefix"] = config.prefix or settings.gateway.prefix
        if source != "settings":
            token_path = save_token(config_path.resolve().parent, token)
            values["bot_token_file"] = str(token_path)
            print(
                f"Token saved to {token_path} (mode 0600); the settings name the file, not the token.",
                file=out,
            )
        else:
            print("Token: from your settings/environment; keep it set when the gateway runs.", file=out)
        write_table(config_path, values)
        print(
            f"Wrote [discord] in {config_path}: " + ", ".join(f"{k} = {v}" for k, v in values.items()),
            file=out,
        )
        if not args.no_register:
            registered = config.model_copy(update={"application_id": bot.application_id, "api_base": api})
            commands = command_definitions(settings)
            status, data = asyncio.run(register(registered, token, args.guild, commands))
            if status != 200 or not isinstance(data, list):
                raise SetupError(f"Discord refused the commands ({status}): {str(data)[:300]}")
            where = f"in server {args.guild}" if args.guild else "globally (can take a while to show)"
            print(f"Registered {len(data)} slash commands {where}.", file=out)
    except SetupError as exc:
        print(f"gateway discord setup: {exc}", file=sys.stderr)
        return 1
    print("", file=out)
    print("1. Add the bot to your server (open as someone with Manage Server):", file=out)
    print(f"   {invite_link(bot.application_id)}", file=out)
    granted = ", ".join(BOT_PERMISSIONS)
    print(f"   scopes: bot, applications.commands; permissions: {granted}", file=out)
    if args.no_prefix:
        print("2. Intents: none privileged needed (slash commands only).", file=out)
    elif bot.message_content:
        print("2. Intents: Message Content is on: !roll works in channels the bot can read.", file=out)
    else:
        print(
            "2. Intents: Message Content is OFF, so !roll will not work (slash commands will). Switch on"
            " 'Message Content Intent' under Privileged Gateway Intents at"
            f" https://discord.com/developers/applications/{bot.application_id}/bot",
            file=out,
        )
    print(f"3. Start it: gateway --config {config_path} serve", file=out)
    return 0
