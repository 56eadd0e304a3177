"""Plugin subcommands of the ``gateway`` command, found without importing every plugin.

A plugin that adds subcommands declares their first words in the entry-point group ``gateway.cli``
(``discord = "adapters.discord"``, ``sync = "adapters.discord"``): the name is the word typed, the
value the plugin module whose ``gateway_register_cli_commands`` hook registers them. So:

- ``gateway --version``, a built-in command (``serve``, ``config check``, ``status``) imports no
  plugin at all;
- ``gateway --help`` lists the declared words from the entry points' names alone;
- ``gateway discord register`` imports only the module(s) declared for ``discord``;
- a word nobody declared falls back to loading every ``gateway.plugins`` entry point, so a plugin
  that registers subcommands through the hook only still works (just slower to start).

Only the standard library and pluggy are imported here: this runs before every command.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from importlib.metadata import Distribution, EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING

from gateway.core.entry_points import group

if TYPE_CHECKING:
    from gateway.core.spec import CliCommand

CLI_GROUP = "gateway.cli"
PLUGIN_GROUP = "gateway.plugins"
# Options of the top-level parser that take a value (skipped when looking for the command word).
VALUE_OPTIONS = ("--config", "--log-format")


def command_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is not a top-level option or its value."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def declared_words() -> dict[str, list[EntryPoint]]:
    """The ``gateway.cli`` entry points by word (several plugins may share a group word)."""
    words: dict[str, list[EntryPoint]] = {}
    for ep in group(CLI_GROUP):
        words.setdefault(ep.name, []).append(ep)
    return words


def distribution_label(dist: Distribution | None) -> str:
    """``name version`` of an installed distribution, from its metadata's header lines alone.
    ``dist.name`` and ``dist.version`` parse the whole file with the e-mail parser, README
    included: a tenth of a second each, for every entry point of ``gateway plugins``."""
    if dist is None:
        return "?"
    folder = getattr(dist, "_path", None)  # a PathDistribution's .dist-info: read up to the header's end
    if isinstance(folder, Path) and (folder / "METADATA").is_file():
        return _header_label(folder / "METADATA")
    head = (dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "").partition("\n\n")[0]
    return _label(head.splitlines())


@functools.cache
def _header_label(metadata: Path) -> str:
    lines: list[str] = []
    with metadata.open(encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                break
            lines.append(line.rstrip("\n"))
    return _label(lines)


def _label(header: Iterable[str]) -> str:
    fields = dict(line.partition(": ")[::2] for line in header if ": " in line)
    return f"{fields.get('Name', '?')} {fields.get('Version', '?')}"


def load_cli_commands(entry_points_: Iterable[EntryPoint], block: Iterable[str] = ()) -> list[CliCommand]:
    """The subcommands registered by the modules these entry points name, minus blocked plugins
    (``[plugins] block`` holds ``gateway.plugins`` names: a module blocked there stays unloaded)."""
    import pluggy

    from gateway.core import hookspecs

    blocked_values = {ep.value for ep in group(PLUGIN_GROUP) if ep.name in set(block)}
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for ep in entry_points_:
        if ep.value in blocked_values:
            continue
        module = ep.load()
        if not pm.is_registered(module):
            pm.register(module)
    commands: list[CliCommand] = []
    pm.hook.gateway_register_cli_commands(register=commands.append)
    return commands
