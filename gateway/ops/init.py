"""``gateway init``: a commented ``gateway.toml`` for the platforms a group uses.

It asks on a terminal (or takes ``--platforms``, ``--irc-host``, ``--timezone``), then writes each
platform's table with the defaults that fit it: a fresh Second Life secret, Discord in Gateway mode
(a bot token, no public server; ``gateway discord setup`` fills it in), TLS on for a real IRC
network and off for one on this machine, ``trust_nicks`` explained, the chronicle's time zone (SLT
for a Second Life group, else the machine's). ``gateway config check`` passes what it writes; the
repository's ``gateway.example.toml`` is its output for every platform.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PLATFORMS = ("secondlife", "discord", "matrix", "irc")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
SLT = "America/Los_Angeles"


@dataclass(frozen=True)
class Choices:
    platforms: tuple[str, ...]
    timezone: str
    irc_host: str = "irc.libera.chat"
    irc_channel: str = "#nightcap"
    secret: str = ""  # the Second Life shared secret; "" makes a fresh one


def render(choices: Choices) -> str:
    """The whole commented TOML text."""
    parts = [_core(choices)]
    for platform in PLATFORMS:
        if platform in choices.platforms:
            parts.append(_TABLES[platform](choices))
    parts.append(_stlog(choices))
    return "\n".join(parts)


def _core(choices: Choices) -> str:
    zone_note = (
        "# Second Life runs on SLT (Pacific time): check-in days and nights turn at its midnight."
        if choices.timezone == SLT and "secondlife" in choices.platforms
        else "# The zone where the group's days turn (check-in at its midnight): an IANA name."
    )
    return f"""\
# Nightcap Gateway settings, written by `gateway init`. Check them with
#   gateway config check gateway.toml
# and start with
#   gateway --config gateway.toml serve
# Every key can also be set in the environment: GATEWAY_<SECTION>__<KEY> (GATEWAY_HTTP__PORT=9000).

[gateway]
default_system = "nightcap"   # the rule system of a channel nobody set (`gateway plugins` lists them)
locale = "en"                 # en, cs or ru
prefix = "!"                  # what players type before a command in chat rooms (!roll 5)
{zone_note}
timezone = "{choices.timezone}"

[http]
host = "127.0.0.1"   # 0.0.0.0 to accept connections from other machines (put TLS in front)
port = 8080          # the web pages, /healthz, and what Second Life and Discord call

[vault]
url = "sqlite+aiosqlite:///vault.db"   # or postgresql+asyncpg://USER@HOST/DB for several processes
"""


def _secondlife(choices: Choices) -> str:
    import secrets  # here: every command's parser imports this module, and secrets brings hashlib

    secret = choices.secret or secrets.token_urlsafe(32)
    return f"""\
[secondlife]
# The key every in-world object signs its requests with: paste the same text into each object's
# no-modify "Nightcap Config" script. Keep it secret; a new one means updating every object.
shared_secret = "{secret}"
"""


def _discord(choices: Choices) -> str:
    return """\
[discord]
# Gateway mode: the bot connects out to Discord with its token; no public HTTPS server needed.
# `gateway --config gateway.toml discord setup` asks for the token, checks it, fills in this table,
# registers the slash commands and prints the invite link (docs: running/discord).
mode = "gateway"     # or "interactions": Discord POSTs to https://YOUR.HOST/discord/interactions
# application_id = "123456789012345678"
# The bot token is a password: in a file (mode 0600) or the environment, DISCORD_BOT_TOKEN=...
# bot_token_file = "discord-token"
prefix = "!"         # !roll 3 in channels (switch on the Message Content Intent); "" for slash only
# Endpoint mode instead: mode = "interactions" and the application's public key (64 hex digits).
# public_key = "the application's hex public key"

[discord.channels]   # name = channel id (Developer Mode, then Copy Channel ID); the bot posts there
# stlog = "234567890123456789"

[discord.webhooks]   # or name = webhook URL (Server Settings > Integrations > Webhooks)
# sheets = "https://discord.com/api/webhooks/ID/TOKEN"
"""


def _matrix(choices: Choices) -> str:
    return """\
[matrix]
# One table per bot account: fill this one in and uncomment it (the README's Matrix section).
# [matrix.main]
# homeserver = "https://matrix.example.org"
# user_id = "@nightcap:example.org"
# password_env = "NIGHTCAP_MATRIX_PASSWORD"   # first login only: the token then lives in the vault
# rooms = ["#chronicle:example.org"]
# allowed_inviters = ["@storyteller:example.org"]
"""


def _irc(choices: Choices) -> str:
    local = choices.irc_host in LOCAL_HOSTS
    network = "local" if local else choices.irc_host.split(".")[-2] if "." in choices.irc_host else "net"
    if local:
        tls = """\
tls = false          # a server on this machine speaks plain text (port 6667)
# No services here to say who is logged in: take nicks at their word, so that players can make
# characters. Only on a private server where nobody can take another's nick.
trust_nicks = true"""
    else:
        tls = """\
tls = true           # port 6697, certificate checked
# Players identify to the network's services (NickServ); an unidentified nick may roll bare pools
# but not make characters. trust_nicks = true takes nicks at their word: private servers only.
trust_nicks = false"""
    return f"""\
[irc.{network}]
host = "{choices.irc_host}"
{tls}
nick = "nightcap"
channels = ["{choices.irc_channel}"]   # "#chan" or "#chan key"
"""


def _stlog(choices: Choices) -> str:
    return """\
[stlog]
# Where the Storyteller log goes (rolls, check-ins, approvals): "console" prints it on the
# terminal of `gateway serve`; e.g. "irc:NETWORK/#channel-st", "discord:stlog" (a name under
# [discord.channels] or [discord.webhooks]).
targets = ["console"]
"""


_TABLES: dict[str, Callable[[Choices], str]] = {
    "secondlife": _secondlife,
    "discord": _discord,
    "matrix": _matrix,
    "irc": _irc,
}


def parse_platforms(text: str) -> tuple[str, ...]:
    """``"sl, irc"`` -> ``("secondlife", "irc")``; ``all``; ``none`` or empty: none."""
    aliases = {"sl": "secondlife", "second life": "secondlife", "all": ",".join(PLATFORMS), "none": ""}
    words = [aliases.get(word.strip().lower(), word.strip().lower()) for word in text.split(",")]
    found = [p for word in words for p in word.split(",") if p]
    unknown = [p for p in found if p not in PLATFORMS]
    if unknown:
        raise ValueError(f"unknown platform {unknown[0]!r}: choose from {', '.join(PLATFORMS)}, all or none")
    return tuple(p for p in PLATFORMS if p in found)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--platforms", metavar="LIST", help=f"comma-separated: {', '.join(PLATFORMS)}, all, none"
    )
    parser.add_argument("--irc-host", metavar="HOST", help="the IRC server (default irc.libera.chat)")
    parser.add_argument("--irc-channel", metavar="CHANNEL", default="#nightcap", help="the channel to join")
    parser.add_argument(
        "--timezone", metavar="ZONE", help="IANA zone (default: SLT with Second Life, else this machine's)"
    )
    parser.add_argument(
        "--out", metavar="FILE", default="gateway.toml", help="where to write (default gateway.toml)"
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def run_cli(args: argparse.Namespace, ask: Callable[[str], str] = input) -> int:
    from gateway.core.settings import machine_timezone

    out = Path(args.out)
    if out.exists() and not args.force:
        print(f"{out} exists: keep it, or run again with --force (or --out OTHER.toml)", file=sys.stderr)
        return 1
    interactive = sys.stdin.isatty()
    try:
        text = args.platforms
        if text is None and interactive:
            text = ask(f"Platforms your group uses ({', '.join(PLATFORMS)}; all; none) [none]: ")
        platforms = parse_platforms(text or "")
        irc_host = args.irc_host
        if "irc" in platforms and irc_host is None and interactive:
            irc_host = ask("IRC server (localhost for one on this machine) [irc.libera.chat]: ").strip()
    except ValueError as exc:
        print(f"gateway init: {exc}", file=sys.stderr)
        return 2
    except EOFError:
        return 2
    zone = args.timezone or (SLT if "secondlife" in platforms else machine_timezone())
    choices = Choices(platforms, zone, irc_host or "irc.libera.chat", args.irc_channel)
    out.write_text(render(choices), encoding="utf-8")
    print(f"wrote {out} ({', '.join(platforms) or 'the web pages and the console only'}; time zone {zone})")
    if "secondlife" in platforms:
        print(
            "  Second Life: a fresh shared_secret is in it; the chronicle runs on SLT (America/Los_Angeles)"
        )
    if "discord" in platforms:
        print(f"  Discord: gateway --config {out} discord setup  (token, slash commands, invite link)")
    print(f"next: gateway config check {out}   then: gateway --config {out} serve")
    return 0
