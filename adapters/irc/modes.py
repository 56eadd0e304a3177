"""Channel modes as the bot sees them, and what counts as a protected Storyteller-log channel.

Pure bookkeeping, no I/O: ``IrcConnection`` feeds it ``RPL_CHANNELMODEIS`` (324, asked with ``MODE
#chan`` after each join), ``MODE`` changes and the ``NAMES`` (353) prefixes, and asks what to send.

A channel is *protected* when nobody can simply join it: it has a key (``+k``) or is invite-only
(``+i``). ``+s`` (secret) only hides it from ``LIST`` and ``WHOIS``; anyone who guesses the name can
still join, so ``+s`` alone does not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PROTECTING = frozenset("ki")
# stlog kinds whose text carries a whole character sheet (submitted, approved).
SHEET_KINDS = frozenset({"approve", "submit"})


@dataclass
class ChannelModes:
    """One joined channel: its flag and parameter modes (letters), its key, whether we are an operator."""

    modes: set[str] = field(default_factory=set)
    key: str | None = None
    known: bool = False  # 324 has arrived: ``modes`` is the whole truth, not just the changes seen
    op: bool = False
    asked: bool = False  # MODE #chan sent on this join

    @property
    def protected(self) -> bool:
        return bool(self.modes & PROTECTING)

    def shown(self) -> str:
        return "+" + "".join(sorted(self.modes)) if self.known else "?"


def mode_classes(isupport: dict[str, str]) -> tuple[str, str, str, str]:
    """ISUPPORT ``CHANMODES=A,B,C,D``: list modes, always a parameter, a parameter when set, flags."""
    parts = (isupport.get("CHANMODES") or "beI,k,l,imnpst").split(",")
    parts += [""] * (4 - len(parts))
    return parts[0], parts[1], parts[2], parts[3]


def prefix_modes(isupport: dict[str, str]) -> dict[str, str]:
    """ISUPPORT ``PREFIX=(qaohv)~&@%+``: mode letter -> nick prefix symbol."""
    value = isupport.get("PREFIX") or "(ov)@+"
    if not value.startswith("(") or ")" not in value:
        return {"o": "@", "v": "+"}
    letters, _, symbols = value[1:].partition(")")
    return dict(zip(letters, symbols, strict=False))


def op_letters(isupport: dict[str, str]) -> str:
    """Prefix modes that let their holder set channel modes: ``o`` and every rank above it."""
    letters = "".join(prefix_modes(isupport))
    return letters[: letters.index("o") + 1] if "o" in letters else "o"


def op_symbols(isupport: dict[str, str]) -> str:
    prefixes = prefix_modes(isupport)
    return "".join(prefixes.get(letter, "") for letter in op_letters(isupport)) or "@"


def apply_modes(
    state: ChannelModes,
    modestring: str,
    args: list[str],
    *,
    isupport: dict[str, str],
    is_me: Any,
) -> None:
    """Apply ``+sk-i key`` to ``state``; ``is_me(nick)`` tells whether a prefix mode is about us."""
    lists, always, when_set, _flags = mode_classes(isupport)
    ranks = op_letters(isupport)
    prefixes = prefix_modes(isupport)
    queue = list(args)
    adding = True
    for letter in modestring:
        if letter in "+-":
            adding = letter == "+"
            continue
        if letter in prefixes:
            nick = queue.pop(0) if queue else ""
            if letter in ranks and is_me(nick):
                state.op = adding
            continue
        if letter in lists:
            if queue:
                queue.pop(0)
            continue
        argument: str | None = None
        if letter in always or (letter in when_set and adding):
            argument = queue.pop(0) if queue else None
        if adding:
            state.modes.add(letter)
            if letter == "k" and argument and argument != "*":
                state.key = argument
        else:
            state.modes.discard(letter)
            if letter == "k":
                state.key = None


def wanted_modes(state: ChannelModes, want: str, key: str | None) -> list[str] | None:
    """The ``MODE`` parameters (after the channel) that give a log channel what is configured: the
    letters of ``want`` (``"si"``) and ``+k key`` when a key is configured; None when nothing is missing."""
    missing = "".join(sorted({c for c in want if c.isalpha() and c != "k"} - state.modes))
    params: list[str] = []
    if key and "k" not in state.modes:
        missing += "k"
        params.append(key)
    if not missing:
        return None
    return ["+" + missing, *params]


def sensitive(payload: dict[str, Any]) -> bool:
    """Whether an outbox row must not reach a channel anyone can join: a sheet, a secret roll, a
    Storyteller-log line that carries a submitted or approved sheet."""
    kind = payload.get("kind")
    if kind == "sheet":
        return True
    if kind != "stlog":
        return False
    result = payload.get("result") or {}
    if isinstance(result, dict) and result.get("secret"):
        return True
    return payload.get("stlog_kind") in SHEET_KINDS or str(payload.get("text", "")).startswith("(secret)")
