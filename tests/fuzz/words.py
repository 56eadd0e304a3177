"""The words random command lines are made of: every command of every installed rule system, and
plausible and hostile tokens (numbers of every size and script, traits, modifiers, surrogates,
control characters, long strings). Hypothesis strategies for the suite, ``random_line`` for the long
run, so both draw from the same pool."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from hypothesis import strategies as st

from gateway.core.plugins import Plugins, build_plugin_manager
from gateway.core.registry import Registry
from gateway.features import builtin, linking, storytellers

SYSTEMS = ("nightcap", "decanter", "dramatic", "pravidla", "nightwanderers")

NUMBERS = (
    "0", "1", "2", "3", "4", "5", "6", "7", "10", "12", "20", "100", "999", "1000", "1001", "-1", "-3",
    "+1", "+2", "-10", "++1", "--1", "+-1", "3+2", "2-1", "1e3", "0x10", "3.5", "1_000", "007",
    "99999999999999999999", "-99999999999999999999", "9223372036854775808", "1" + "0" * 40,
    "9" * 5000, "+" + "9" * 30, "²", "①", "१२", "٣", "３", "x²", "+²", "-①", "½", "Ⅻ",
)  # fmt: skip
TRAITS = (
    "physical", "mental", "social", "spirit", "strength", "dexterity", "stamina", "wits", "charisma",
    "firearms", "dex", "dex+firearms", "wits+1", "physical+1", "str-1", "willpower", "essence",
    "health", "blood", "humanity", "celerity", "hunting", "basic", "advanced", "adept", "epic",
)  # fmt: skip
FLAGS = (
    "wp", "willpower", "vs", "secret", "tn", "cc", "diff", "dc", "need", "npc", "adv", "dis", "half",
    "force", "aid", "ext", "direct", "indirect", "surprise", "hard", "--limit", "--since", "2h", "all",
    "yes", "no", "on", "off", "for", "to", "new", "use", "set", "add", "remove", "start", "stop", "roll",
    "join", "move", "clear", "x", "*", "'", '"', "Mira", "Dorian", "Ghoul", "Bob", "alice", "gm",
)  # fmt: skip
HOSTILE = (
    "\udc00", "\ud800x", "a\udfffb", "\x00", "nul\x00byte", "\x1b[31m", "\u202e", "\u200b", "\ufeff",
    "\r", "\t", "\x7f", "💀", "👨‍👩‍👧", "ß", "İ", "ǅ", "Ⅷ", "%s", "{name}", "{0}", "$(id)", "';--",
    "<b>", "@everyone", "\\", "'unterminated", '"quoted name"', "a" * 300, "é" * 2000, "vs" * 50,
)  # fmt: skip
TOKENS = NUMBERS + TRAITS + FLAGS + HOSTILE


@functools.cache
def _registry() -> Registry:
    """The registry a gateway builds: every installed plugin and the core's own commands."""
    return Plugins(build_plugin_manager(extra=[builtin, linking, storytellers])).registry


def command_names(system: str) -> list[str]:
    """Every name and alias a channel of ``system`` answers, from the plugin registry itself."""
    registry = _registry()
    names = {
        name
        for (owner, name), command in registry.commands.items()
        if owner in (None, system) and command in registry.visible(system)
    }
    return sorted(names)


def _token() -> st.SearchStrategy[str]:
    return st.sampled_from(TOKENS) | st.text(max_size=12) | st.integers().map(str)


def lines(system: str) -> st.SearchStrategy[str]:
    """A command of ``system`` followed by up to eight words, or (rarely) any text at all."""
    head = st.sampled_from(command_names(system))
    tail = st.lists(_token(), max_size=8)
    return st.tuples(head, tail).map(lambda t: " ".join([t[0], *t[1]])) | st.text(max_size=60)


def random_line(rng: random.Random, names: Sequence[str]) -> str:
    """One random command line for the long run (the same pools, drawn without hypothesis)."""
    words = [rng.choice(names)]
    for _ in range(rng.randint(0, 8)):
        pick = rng.random()
        if pick < 0.8:
            words.append(rng.choice(TOKENS))
        elif pick < 0.9:
            words.append(str(rng.randint(-(10 ** rng.randint(1, 25)), 10 ** rng.randint(1, 25))))
        else:
            words.append("".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(1, 6))))
    return " ".join(words)
