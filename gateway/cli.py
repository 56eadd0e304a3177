"""The ``gateway`` command: serve, db (upgrade, copy, backup), export and import, status, plugins,
test, and plugin subcommands (``console`` comes from the console adapter).

Each built-in command's work lives in its own module (``gateway.vault.copy``, ``gateway.vault.backup``,
``gateway.transfer``, ``gateway.status``), imported only when the command runs, as ``run_cli(args,
settings) -> exit status``.

Plugins add subcommands through the ``gateway_register_cli_commands`` hook (``gateway discord
register``, ``gateway sync discord``); they are found through the same entry points as everything else.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from gateway.registry import CliCommand
from gateway.settings import Settings, load_settings

BUILTIN_COMMANDS = ("serve", "db", "export", "import", "status", "plugins", "test")


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, dict[str, object]] = {}
    if getattr(args, "log_format", None):
        overrides.setdefault("log", {})["format"] = args.log_format
    settings = load_settings(args.config)
    if overrides:
        settings = settings.model_copy(update={"log": settings.log.model_copy(update=overrides["log"])})
    return settings


def cmd_serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from gateway.app import Gateway, build_app
    from gateway.logging import configure_logging

    settings = _settings(args)
    http = settings.http.model_copy(
        update={k: v for k, v in {"port": args.port, "host": args.host}.items() if v is not None}
    )
    settings = settings.model_copy(update={"http": http})
    configure_logging(settings.log.format, settings.log.level)
    gateway = Gateway(settings)
    web.run_app(build_app(gateway), host=http.host, port=http.port, print=None, handle_signals=True)
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if args.db_command == "copy":
        from gateway.vault.copy import run_cli as copy

        return copy(args, settings)
    if args.db_command == "backup":
        from gateway.vault.backup import run_cli as backup

        return backup(args, settings)
    return _db_upgrade(settings)


def _db_upgrade(settings: Settings) -> int:
    from gateway.app import Gateway
    from gateway.logging import configure_logging

    configure_logging(settings.log.format, settings.log.level)

    async def run() -> None:
        gateway = Gateway(settings, platforms=())
        await gateway.upgrade_vault()
        await gateway.services.vault.dispose()

    asyncio.run(run())
    print(f"vault at {settings.vault.url} is up to date")
    return 0


def cmd_transfer(args: argparse.Namespace) -> int:
    from gateway.transfer import run_cli as transfer

    return transfer(args, _settings(args))


def cmd_status(args: argparse.Namespace) -> int:
    from gateway.status import run_cli as status

    return status(args, _settings(args))


def cmd_plugins(args: argparse.Namespace) -> int:
    from gateway.plugins import Plugins, build_plugin_manager

    settings = _settings(args)
    plugins = Plugins(build_plugin_manager(settings.plugins.block))
    print("plugins:", ", ".join(plugins.names()))
    print("rule systems:", ", ".join(sorted(plugins.systems())))
    print("adapters:", ", ".join(sorted(s.platform for s in plugins.adapter_specs)))
    return 0


def cmd_test(args: argparse.Namespace, extra: Sequence[str]) -> int:
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    return subprocess.call([sys.executable, "-m", "pytest", *extra], cwd=root, env=env)


def plugin_cli_commands(argv: Sequence[str] = ()) -> list[CliCommand]:
    """Subcommands the installed plugins add (honouring the block list of the config, if readable)."""
    from gateway.plugins import Plugins, build_plugin_manager

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config", default=os.environ.get("GATEWAY_CONFIG"))
    known, _ = pre.parse_known_args(list(argv))
    try:
        block = load_settings(known.config).plugins.block
    except Exception:  # a broken config is reported by the command that reads it
        block = []
    return Plugins(build_plugin_manager(block)).cli_commands


def add_plugin_commands(sub: argparse._SubParsersAction, commands: Sequence[CliCommand]) -> None:
    """Plugin subcommands; a malformed or clashing one is skipped with a warning, never fatal."""
    groups: dict[str, argparse._SubParsersAction] = {}
    taken: set[str] = set()
    for spec in commands:
        words = spec.name.split()
        bad = not 1 <= len(words) <= 2 or words[0] in BUILTIN_COMMANDS or " ".join(words) in taken
        bad = bad or (len(words) == 1 and words[0] in groups) or (len(words) == 2 and words[0] in taken)
        if bad:
            print(f"gateway: skipping plugin subcommand {spec.name!r} (malformed or taken)", file=sys.stderr)
            continue
        taken.add(" ".join(words))
        if len(words) == 1:
            parser = sub.add_parser(words[0], help=spec.help)
        else:
            if words[0] not in groups:
                group = sub.add_parser(words[0], help=f"{words[0]} commands")
                groups[words[0]] = group.add_subparsers(dest=f"{words[0]}_command", required=True)
            parser = groups[words[0]].add_parser(words[1], help=spec.help)
        if spec.configure is not None:
            spec.configure(parser)
        parser.set_defaults(plugin_command=spec)


def build_parser(plugin_commands: Sequence[CliCommand] = ()) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gateway", description="Tabletop role-playing message gateway")
    parser.add_argument("--config", default=os.environ.get("GATEWAY_CONFIG"), help="TOML settings file")
    parser.add_argument("--log-format", choices=["auto", "pretty", "json"], help="log output format")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the gateway: HTTP server, adapters, outbox")
    serve.add_argument("--port", type=int, help="HTTP port (default 8080, setting [http] port)")
    serve.add_argument("--host", help="HTTP host (default 127.0.0.1, setting [http] host)")

    db = sub.add_parser("db", help="vault maintenance").add_subparsers(dest="db_command", required=True)
    db.add_parser("upgrade", help="apply every migration")
    copy = db.add_parser("copy", help="copy the whole vault into an empty one (SQLite <-> PostgreSQL)")
    copy.add_argument("--to", required=True, metavar="URL", help="the empty target vault")
    copy.add_argument("--from", dest="source", metavar="URL", help="the source (default: [vault] url)")
    backup = db.add_parser("backup", help="a consistent online backup of a SQLite vault")
    backup.add_argument("path", metavar="PATH", help="the backup file to write")

    for verb, what in (("export", "write"), ("import", "read")):
        group = sub.add_parser(verb, help=f"{verb} chronicle data").add_subparsers(dest="what", required=True)
        chars = group.add_parser("characters", help=f"{what} sheets, pools and history as versioned JSON")
        if verb == "export":
            chars.add_argument("--system", help="only characters of this rule system")
            chars.add_argument("--out", metavar="FILE", help="write here instead of standard output")
        else:
            chars.add_argument("file", metavar="FILE", help="a file written by gateway export characters")
        chars.set_defaults(verb=verb)

    status = sub.add_parser("status", help="processes, leases, adapters and outbox of this vault")
    status.add_argument("--json", action="store_true", help="one JSON document instead of text")

    sub.add_parser("plugins", help="list installed plugins, rule systems and adapters")
    sub.add_parser("test", help="run the test suite (extra arguments go to pytest)")
    add_plugin_commands(sub, plugin_commands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["test"]:
        parser = build_parser()
        # Everything after "test" belongs to pytest.
        sys.exit(cmd_test(parser.parse_args(argv[:1]), argv[1:]))
    from gateway.logging import configure_logging

    configure_logging("auto", "warning")  # quiet until a command sets up its own logging
    parser = build_parser(plugin_cli_commands(argv))
    args = parser.parse_args(argv)
    handlers = {
        "serve": cmd_serve,
        "db": cmd_db,
        "export": cmd_transfer,
        "import": cmd_transfer,
        "status": cmd_status,
        "plugins": cmd_plugins,
    }
    try:
        spec = getattr(args, "plugin_command", None)
        if spec is not None:
            sys.exit(spec.run(args, _settings(args)))
        sys.exit(handlers[args.command](args))
    except FileNotFoundError as exc:
        parser.error(str(exc))
