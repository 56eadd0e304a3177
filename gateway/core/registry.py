"""The lookup the router uses: the rule systems and commands plugins registered (see
``gateway.core.spec``)."""

from __future__ import annotations

from gateway.core.spec import AdapterSpec, CliCommand, Command, RuleSystem

# Re-exported for code that imported them from here before ``gateway.core.spec`` held them.
__all__ = ["AdapterSpec", "CliCommand", "Command", "Registry", "RuleSystem"]


class Registry:
    def __init__(self) -> None:
        self.systems: dict[str, RuleSystem] = {}
        # (system or None, name) -> command
        self.commands: dict[tuple[str | None, str], Command] = {}
        self._max_words = 1
        # Names of ``bare`` commands: said alone they run without the prefix on chat platforms.
        self.bare_names: set[str] = set()

    def add_system(self, system: RuleSystem) -> None:
        """A rule system, with its commands; the core dispatches on ``system.name`` to it."""
        if system.name in self.systems:
            raise ValueError(f"rule system {system.name!r} registered twice")
        for tool in system.web_tools:
            if tool.system != system.name:
                raise ValueError(f"web tool {tool.slug!r} of {tool.system!r} given to {system.name!r}")
        self.systems[system.name] = system
        for command in system.commands():
            self.add_command(command)

    def add_command(self, command: Command) -> None:
        for name in (command.name, *command.aliases):
            key = (command.system, name)
            if key in self.commands:
                raise ValueError(f"command {name!r} registered twice for system {command.system!r}")
            self.commands[key] = command
            self._max_words = max(self._max_words, len(name.split()))
            if command.bare:
                self.bare_names.add(name)

    def bare_match(self, text: str) -> str | None:
        """``text`` when the whole message is a bare command's name (any system), else None."""
        stripped = text.strip()
        return stripped if stripped.casefold() in self.bare_names else None

    def find(self, system: str, words: list[str]) -> tuple[Command, int] | None:
        """The command for the longest matching name, and how many words its name took."""
        folded = [w.casefold() for w in words[: self._max_words]]
        for n in range(len(folded), 0, -1):
            name = " ".join(folded[:n])
            command = self.commands.get((system, name)) or self.commands.get((None, name))
            if command is not None:
                claimed = self._claimed(system, name, command, words[n:])
                if claimed is not None:
                    return claimed, n
        return None

    def _claimed(self, system: str, name: str, command: Command, rest: list[str]) -> Command | None:
        """A system-free command with ``claims`` takes the line when it accepts ``rest``; else the
        system's own command of that name does, or (none) the claiming command under its own name,
        and nothing under an alias (so a macro of that name may run)."""
        core = self.commands.get((None, name))
        if core is None or core.claims is None:
            return command
        if core.claims(rest):
            return core
        own = self.commands.get((system, name))
        if own is not None:
            return own
        return core if name == core.name else None

    def visible(self, system: str) -> list[Command]:
        """Commands usable in a channel of ``system``, each once, by name."""
        seen: dict[str, Command] = {}
        for (sys_name, _), command in self.commands.items():
            shadowed = sys_name is None and (system, command.name) in self.commands
            if sys_name in (None, system) and command.name not in seen and not shadowed:
                seen[command.name] = command
        return sorted(seen.values(), key=lambda c: c.name)
