"""The ``gateway`` command: serve, db (upgrade, copy, backup), export and import, status, plugins,
config check, test, and plugin subcommands (``console`` comes from the console adapter).

Each built-in command's work lives in its own module (``gateway.vault.copy``, ``gateway.vault.backup``,
``gateway.features.transfer.cli``, ``gateway.ops.status``), imported only when the command runs, as
``run_cli(args,
settings) -> exit status``.

Plugins add subcommands through the ``gateway_register_cli_commands`` hook (``gateway discord
register``, ``gateway sync discord``); they are found through the same entry points as everything else.
Every subcommand's ``--help`` ends with examples: a plugin's own ``parser.epilog`` if its ``configure``
sets one, else lines made from its arguments.

A config that does not load is reported as ``gateway.ops.config_check`` lines (file:line, key, what is
wrong), never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from gateway import __version__
from gateway.core.heap import cli_process, loading
from gateway.ops.cli_plugins import command_word, declared_words, load_cli_commands

if TYPE_CHECKING:
    from gateway.core.settings import Settings
    from gateway.core.spec import CliCommand

# Commands that log nothing (structlog is imported only if they load plugins).
QUIET_COMMANDS = ("init", "config", "plugins", "status")
BUILTIN_COMMANDS = ("init", "serve", "db", "export", "import", "status", "plugins", "config", "test")
T = TypeVar("T")


def _friendly(config: str | None, build: Callable[[], T]) -> T:
    """``build()``; when the settings are what stops it, raise ``ConfigError`` with the check's lines."""
    from gateway.ops.config_check import ConfigError, check, config_errors

    try:
        return build()
    except Exception as exc:
        if not isinstance(exc, config_errors()):
            raise
        problems = check(config).problems
        if problems:
            raise ConfigError(problems) from exc
        raise


def _settings(args: argparse.Namespace) -> Settings:
    from gateway.core.settings import load_settings

    overrides: dict[str, dict[str, object]] = {}
    if getattr(args, "log_format", None):
        overrides.setdefault("log", {})["format"] = args.log_format
    settings = _friendly(args.config, lambda: load_settings(args.config))
    if overrides:
        settings = settings.model_copy(update={"log": settings.log.model_copy(update=overrides["log"])})
    return settings


def cmd_serve(args: argparse.Namespace) -> int:
    from gateway.core.app import Gateway, build_app
    from gateway.ops.logging import configure_logging
    from gateway.ops.server import serve

    settings = _settings(args)
    http = settings.http.model_copy(
        update={k: v for k, v in {"port": args.port, "host": args.host}.items() if v is not None}
    )
    settings = settings.model_copy(update={"http": http})
    configure_logging(settings.log.format, settings.log.level)
    gateway = _friendly(args.config, lambda: Gateway(settings))

    def announce() -> None:
        from gateway.ops.banner import startup_block

        platforms = [spec.platform for spec in gateway.plugins.adapter_specs]
        block = startup_block(settings, gateway.adapters, platforms, terminal=sys.stdin.isatty())
        # sys.stderr at call time: above the console's prompt when one is open.
        print("\n".join(block), file=sys.stderr, flush=True)

    gateway.on_started = announce
    serve(build_app(gateway), http)
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
    import asyncio

    from gateway.core.app import Gateway
    from gateway.ops.logging import configure_logging

    configure_logging(settings.log.format, settings.log.level)

    async def run() -> None:
        gateway = Gateway(settings, platforms=())
        await gateway.upgrade_vault()
        await gateway.services.vault.dispose()

    asyncio.run(run())
    print(f"vault at {settings.vault.url} is up to date")
    return 0


def cmd_transfer(args: argparse.Namespace) -> int:
    from gateway.features.transfer.cli import run_cli as transfer

    return transfer(args, _settings(args))


def cmd_status(args: argparse.Namespace) -> int:
    from gateway.ops.status import run_cli as status

    return status(args, _settings(args))


def cmd_plugins(args: argparse.Namespace) -> int:
    """The installed plugins from their entry points (nothing imported); ``--load`` imports them and
    lists what each registers (rule systems, adapters)."""
    from importlib.metadata import entry_points

    from gateway.ops.cli_plugins import CLI_GROUP, PLUGIN_GROUP, distribution_label

    settings = _settings(args)
    if args.load:
        from gateway.core.plugins import Plugins, build_plugin_manager
        from gateway.ops.logging import configure_logging

        configure_logging("auto", "warning")
        plugins = Plugins(build_plugin_manager(settings.plugins.block))
        print("plugins:", ", ".join(plugins.names()))
        print("rule systems:", ", ".join(sorted(plugins.systems())))
        print("adapters:", ", ".join(sorted(s.platform for s in plugins.adapter_specs)))
        return 0
    blocked = set(settings.plugins.block)
    words: dict[str, list[str]] = {}
    installed = entry_points()  # one scan of the installed distributions for both groups
    for ep in installed.select(group=CLI_GROUP):
        words.setdefault(ep.value, []).append(ep.name)
    for ep in sorted(installed.select(group=PLUGIN_GROUP), key=lambda ep: ep.name):
        dist = distribution_label(ep.dist)
        notes = [f"commands: {', '.join(sorted(words[ep.value]))}"] if ep.value in words else []
        notes += ["blocked by [plugins] block"] if ep.name in blocked else []
        print(f"{ep.name:<16} {ep.value:<28} {dist}" + "".join(f"  ({note})" for note in notes))
    print("(`gateway plugins --load` imports them and lists their rule systems and adapters)")
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    """``gateway config check [FILE]``: each mistake on one line (exit 1), or ok and what it configures."""
    from gateway.ops.config_check import check

    config = args.file or args.config
    if config is not None and not Path(config).is_file():
        print(f"{config}: no such file")
        return 1
    report = check(config)
    if not report.ok:
        print("\n".join(report.problems))
        return 1
    print(f"{config}: ok" if config else "no config file: the defaults and the GATEWAY_* environment are ok")
    for line in report.summary:
        print(f"  {line}")
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    from gateway.ops.init import run_cli

    return run_cli(args)


def test_workers(extra: Sequence[str]) -> int:
    """How many pytest-xdist workers ``gateway test`` starts: one per core for the whole suite (its
    real-server tests dominate and spread well), none when the arguments pick tests (a path or a
    node: starting workers costs more than it saves) or choose for themselves (``-n``, ``-p
    no:xdist``); ``GATEWAY_TEST_WORKERS`` overrides. 0 means no xdist."""
    import importlib.util

    chosen = os.environ.get("GATEWAY_TEST_WORKERS")
    if chosen is not None:
        return int(chosen) if chosen.isdigit() else 0
    if importlib.util.find_spec("xdist") is None:
        return 0
    own = any(
        a in ("-n", "--numprocesses", "no:xdist") or a.startswith(("-n", "--numprocesses=")) for a in extra
    )
    values = {"-k", "-m", "-p", "-o", "-c", "--rootdir", "--basetemp", "--deselect", "--ignore", "--maxfail"}
    paths = [
        a for i, a in enumerate(extra) if not a.startswith("-") and (i == 0 or extra[i - 1] not in values)
    ]
    informational = any(a in ("--version", "-V", "--help", "-h", "--co", "--collect-only") for a in extra)
    if own or paths or informational:
        return 0
    cores = os.cpu_count() or 1
    return cores if cores > 1 else 0


def cmd_test(args: argparse.Namespace, extra: Sequence[str]) -> int:
    import importlib.util
    import subprocess
    import time

    root = Path(__file__).resolve().parents[2]
    if importlib.util.find_spec("pytest") is None:
        # A runtime-only install (what ``python3 -m gateway serve`` sets up).
        print(
            "gateway: the test tools are not installed: `python3 -m gateway test` installs them"
            " (or pip install -e '.[test]')",
            file=sys.stderr,
        )
        return 2
    env = dict(os.environ)
    workers = test_workers(extra)
    spread = ["-n", str(workers), "--dist", "loadgroup"] if workers else []
    started = time.monotonic()
    status = subprocess.call([sys.executable, "-m", "pytest", *spread, *extra], cwd=root, env=env)
    how = (
        f"{workers} workers (pytest-xdist, GATEWAY_TEST_WORKERS=0 for one process)"
        if workers
        else "one process"
    )
    if "--version" not in extra:
        print(
            f"gateway test: {time.monotonic() - started:.0f} s wall, {how}; exit status {status}",
            file=sys.stderr,
        )
    return status


def _block(argv: Sequence[str]) -> list[str]:
    """The config's ``[plugins] block`` list, if the config is readable."""
    from gateway.core.settings import load_settings

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config", default=os.environ.get("GATEWAY_CONFIG"))
    known, _ = pre.parse_known_args(list(argv))
    try:
        return load_settings(known.config).plugins.block
    except Exception:  # a broken config is reported by the command that reads it
        return []


def plugin_cli_commands(argv: Sequence[str] = ()) -> list[CliCommand]:
    """Every subcommand the installed plugins add (all plugins loaded; honouring the block list)."""
    from gateway.core.plugins import Plugins, build_plugin_manager

    return Plugins(build_plugin_manager(_block(argv))).cli_commands


def commands_for(argv: Sequence[str]) -> tuple[list[CliCommand], list[str]]:
    """The plugin subcommands this command line needs, loaded, and the words to list unloaded.

    A built-in command needs none; no command (``--version``, ``--help``) lists the words declared
    in the ``gateway.cli`` entry points without importing a plugin; a declared word loads only its
    plugin; any other word loads every plugin (one that registers by the hook alone, or a typo,
    which argparse then answers with every choice)."""
    word = command_word(argv)
    if word in BUILTIN_COMMANDS:
        return [], []
    declared = declared_words()
    if word is None:
        return [], sorted(declared)
    if word in declared:
        return load_cli_commands(declared[word], _block(argv)), []
    return plugin_cli_commands(argv), []


def examples(*lines: str) -> str:
    """An ``Examples:`` epilog: one command a line, an optional ``# comment`` after it."""
    return "Examples:\n" + "\n".join(f"  {line}" for line in lines)


def _made_examples(prog: str, parser: argparse.ArgumentParser) -> str:
    """Examples from a parser's own arguments, for a plugin subcommand that brings none."""
    required = [a.metavar or a.dest.upper() for a in parser._actions if not a.option_strings]
    base = " ".join([prog, *(str(r) for r in required)])
    lines = [base]
    for action in parser._actions:
        if action.option_strings and action.dest != "help":
            flag = max(action.option_strings, key=len)
            value = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            lines.append(f"{base} {flag}{value}")
    return examples(*lines)


def _sub(group: argparse._SubParsersAction, name: str, help: str, *lines: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = group.add_parser(
        name, help=help, description=help, epilog=examples(*lines), formatter_class=HELP_FORMAT
    )
    return parser


HELP_FORMAT = argparse.RawDescriptionHelpFormatter


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
            parser = sub.add_parser(words[0], help=spec.help, formatter_class=HELP_FORMAT)
        else:
            if words[0] not in groups:
                group = sub.add_parser(words[0], help=f"{words[0]} commands", formatter_class=HELP_FORMAT)
                groups[words[0]] = group.add_subparsers(dest=f"{words[0]}_command", required=True)
            parser = groups[words[0]].add_parser(words[1], help=spec.help, formatter_class=HELP_FORMAT)
        if spec.configure is not None:
            spec.configure(parser)
        if not parser.epilog:
            parser.epilog = _made_examples(f"gateway {spec.name}", parser)
        parser.set_defaults(plugin_command=spec)
    # A group's own help lists its subcommands as examples.
    for word, group_action in groups.items():
        group_parser = sub.choices[word]
        group_parser.epilog = examples(*(f"gateway {word} {name}" for name in group_action.choices))


def build_parser(
    plugin_commands: Sequence[CliCommand] = (), unloaded: Sequence[str] = ()
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gateway",
        description="Tabletop role-playing message gateway",
        formatter_class=HELP_FORMAT,
        epilog=examples(
            "gateway serve                          # the gateway on 127.0.0.1:8080, SQLite vault.db",
            "gateway --config gateway.toml serve    # with a settings file",
            "gateway config check gateway.toml      # find mistakes in it first",
            "gateway console --as mira              # type commands in this terminal",
            "gateway SUBCOMMAND --help              # each subcommand's options and examples",
        ),
    )
    parser.add_argument("--version", action="version", version=f"gateway {__version__}")
    parser.add_argument("--config", default=os.environ.get("GATEWAY_CONFIG"), help="TOML settings file")
    parser.add_argument("--log-format", choices=["auto", "pretty", "json"], help="log output format")
    sub = parser.add_subparsers(dest="command", required=True)

    init = _sub(
        sub,
        "init",
        "write a commented gateway.toml for the platforms your group uses (asks on a terminal)",
        "gateway init",
        "gateway init --platforms secondlife,discord",
        "gateway init --platforms irc --irc-host localhost --out local.toml",
    )
    from gateway.ops.init import configure_parser

    configure_parser(init)
    serve = _sub(
        sub,
        "serve",
        "run the gateway: HTTP server, adapters, outbox",
        "gateway serve",
        "gateway serve --port 9000 --host 0.0.0.0",
        "gateway --config gateway.toml --log-format json serve",
    )
    serve.add_argument("--port", type=int, help="HTTP port (default 8080, setting [http] port)")
    serve.add_argument("--host", help="HTTP host (default 127.0.0.1, setting [http] host)")

    db_parser = _sub(
        sub,
        "db",
        "vault maintenance",
        "gateway db upgrade",
        "gateway db copy --to postgresql+asyncpg://gw@db/vault",
        "gateway db backup backups/vault.db",
    )
    db = db_parser.add_subparsers(dest="db_command", required=True)
    _sub(
        db,
        "upgrade",
        "apply every migration",
        "gateway db upgrade",
        "GATEWAY_VAULT_URL=postgresql+asyncpg://gw@db/vault gateway db upgrade",
    )
    copy = _sub(
        db,
        "copy",
        "copy the whole vault into an empty one (SQLite <-> PostgreSQL)",
        "gateway db copy --to postgresql+asyncpg://gw@db/vault     # stop the gateway first",
        "gateway db copy --from sqlite+aiosqlite:///old.db --to sqlite+aiosqlite:///new.db",
    )
    copy.add_argument("--to", required=True, metavar="URL", help="the empty target vault")
    copy.add_argument("--from", dest="source", metavar="URL", help="the source (default: [vault] url)")
    backup = _sub(
        db,
        "backup",
        "a consistent online backup of a SQLite vault",
        "gateway db backup backups/vault-$(date +%%F).db",
    )
    backup.add_argument("path", metavar="PATH", help="the backup file to write")

    for verb, what in (("export", "write"), ("import", "read")):
        lines: tuple[str, ...]
        if verb == "export":
            lines = (
                "gateway export characters > chronicle.json",
                "gateway export characters --system nightcap --out nightcap.json",
            )
        else:
            lines = ("gateway import characters chronicle.json",)
        top = _sub(sub, verb, f"{verb} chronicle data", *lines)
        group = top.add_subparsers(dest="what", required=True)
        chars = _sub(group, "characters", f"{what} sheets, pools and history as versioned JSON", *lines)
        if verb == "export":
            chars.add_argument("--system", help="only characters of this rule system")
            chars.add_argument("--out", metavar="FILE", help="write here instead of standard output")
        else:
            chars.add_argument("file", metavar="FILE", help="a file written by gateway export characters")
        chars.set_defaults(verb=verb)

    status = _sub(
        sub,
        "status",
        "processes, leases, adapters and outbox of this vault",
        "gateway status",
        "gateway status --json | jq .outbox",
    )
    status.add_argument("--json", action="store_true", help="one JSON document instead of text")

    plugins = _sub(
        sub,
        "plugins",
        "list installed plugins (from their entry points; --load: their rule systems and adapters)",
        "gateway plugins",
        "gateway plugins --load",
    )
    plugins.add_argument("--load", action="store_true", help="import every plugin and list what it registers")
    config = _sub(
        sub,
        "config",
        "settings files",
        "gateway config check gateway.toml",
        "GATEWAY_CONFIG=gateway.toml gateway config check",
    )
    config_sub = config.add_subparsers(dest="config_command", required=True)
    config_check = _sub(
        config_sub,
        "check",
        "check a settings file: each mistake on one line, or what it configures",
        "gateway config check gateway.toml",
        "gateway --config gateway.toml config check",
        "GATEWAY_HTTP__PORT=9000 gateway config check gateway.toml   # the environment counts too",
    )
    config_check.add_argument(
        "file", nargs="?", metavar="FILE", help="the TOML file (default: --config or GATEWAY_CONFIG)"
    )
    _sub(
        sub,
        "test",
        "run the test suite (extra arguments go to pytest)",
        "gateway test",
        "gateway test tests/core -x -q",
        "gateway test -k console",
    )
    add_plugin_commands(sub, plugin_commands)
    for word in unloaded:
        # Listed by name only: its plugin is imported when the word is typed.
        if word not in sub.choices:
            _sub(sub, word, f"a plugin's commands (gateway {word} --help)", f"gateway {word} --help")
    return parser


def walk_parsers(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every subcommand's parser with the words that reach it (``("db", "copy")``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*words, name), child
                yield from walk_parsers(child, (*words, name))


def main(argv: Sequence[str] | None = None) -> None:
    try:
        with cli_process():
            _main(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader went away (``gateway config check | head -3``): no traceback. Python would
        # flush stdout again at exit and fail once more, so point it at /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)  # 128 + SIGPIPE, what a shell reports for a command a pipe ended


def _main(argv: list[str]) -> None:
    if argv[:1] == ["test"]:
        parser = build_parser()
        # Everything after "test" belongs to pytest.
        sys.exit(cmd_test(parser.parse_args(argv[:1]), argv[1:]))
    with loading():
        parser = build_parser(*commands_for(argv))
        args = parser.parse_args(argv)
        from gateway.ops.config_check import ConfigError  # the settings' models: pydantic

    if args.command not in QUIET_COMMANDS:
        from gateway.ops.logging import configure_logging

        configure_logging("auto", "warning")  # quiet until a command sets up its own logging
    handlers = {
        "init": cmd_init,
        "serve": cmd_serve,
        "db": cmd_db,
        "export": cmd_transfer,
        "import": cmd_transfer,
        "status": cmd_status,
        "plugins": cmd_plugins,
        "config": cmd_config,
    }
    try:
        spec = getattr(args, "plugin_command", None)
        if spec is not None:
            settings = _settings(args)
            sys.exit(_friendly(args.config, lambda: spec.run(args, settings)))
        if args.command in QUIET_COMMANDS:
            # A quick command loads, reads and prints: no collection while it does (0.02-0.04 s of
            # `status` and `config check`), what it made frozen, so that the one at exit walks none.
            with loading():
                sys.exit(handlers[args.command](args))
        sys.exit(handlers[args.command](args))
    except ConfigError as exc:
        print("\n".join(exc.lines), file=sys.stderr)
        print("gateway: the settings above stop it; `gateway config check` shows them again", file=sys.stderr)
        sys.exit(2)
    except FileNotFoundError as exc:
        parser.error(str(exc))
