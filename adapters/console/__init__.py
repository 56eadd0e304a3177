"""The console adapter: the operator's own terminal.

``gateway console`` runs a read-eval-print loop (``repl.py``). Under ``gateway serve`` the adapter
reads commands from the terminal when stdin is one, and prints Storyteller-log lines addressed to
``console``. On a terminal both use one prompt (``prompt.py``, prompt_toolkit) with history and Tab
completion (``complete.py``; the names come from ``names.py``); piped input is read line by line.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
from collections.abc import Callable
from typing import Any

from adapters.console.adapter import ConsoleAdapter
from gateway import AdapterServices, AdapterSpec, CliCommand, Settings, hookimpl


def build(services: AdapterServices, section: dict[str, Any]) -> ConsoleAdapter | None:
    if section.get("enabled", True) is False:
        return None
    return ConsoleAdapter(services, section)


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform="console", build=build))


def configure_cli(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--as", dest="as_", metavar="NAME", help="identity console:NAME (default: OS user)")
    parser.add_argument("--st", action="store_true", help="act as a Storyteller (the operator's terminal)")
    parser.add_argument("--system", help="rule system for the console channel")
    parser.add_argument("--json", action="store_true", help="print each reply as one JSON object per line")
    parser.add_argument("-v", "--verbose", action="store_true", help="show log lines too")


def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    from adapters.console.repl import run_console
    from gateway import configure_logging

    configure_logging(settings.log.format, settings.log.level if args.verbose else "warning")
    name = args.as_ or getpass.getuser() or "console"
    return asyncio.run(
        run_console(settings, name=name, storyteller=args.st, system=args.system, as_json=args.json)
    )


@hookimpl
def gateway_register_cli_commands(register: Callable[[CliCommand], None]) -> None:
    register(
        CliCommand("console", "type commands in this terminal (or pipe them in)", run_cli, configure_cli)
    )
