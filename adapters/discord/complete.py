"""Autocomplete (interaction type 4): choices from the vault for the channel's rule system.

Discord asks as the user types and takes the first answer within 3 seconds (type 8, at most 25
choices; there is no deferred form), so this is one short read, cut off at ``reply_timeout`` with no
choices rather than an answer Discord would drop. The adapter knows no rules: trait and power names
come from the ``SheetSummary`` of the sender's active character in the channel's system (else of that
system's first character: a sheet shows what a system calls its traits), character names from the
system's characters in play.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

import structlog

from adapters.discord import interactions as ix
from adapters.discord import macro_command, slash
from adapters.discord.slash import clip
from gateway import AdapterServices
from gateway.core.summary import SheetSummary
from gateway.features import channels
from gateway.features.characters import characters_in, player_characters
from gateway.features.house_rules.declare import switches
from gateway.features.notation.examples import suggestions

log = structlog.get_logger(__name__)

MAX_CHOICES = 25  # Discord's limit for an autocomplete answer
CHOICE = 100  # a choice's name and string value are at most 100 characters
CHARACTERS = 200  # own characters read for ``char use`` (the 25 shown are the best matches of these)


def split_last(typed: str) -> tuple[str, str]:
    """``("dex+", "fir")`` for ``dex+fir``: a pool completes its last word (after a space or ``+``)."""
    cut = max(typed.rfind(" "), typed.rfind("+")) + 1
    return typed[:cut], typed[cut:]


def matching(names: Iterable[tuple[str, str]], typed: str, *, last_word: bool) -> list[dict[str, str]]:
    """Choices for ``(value, label)`` pairs: those starting with what is typed first, then (from two
    letters typed) those holding it, at most 25, each within Discord's 100 characters."""
    head, word = split_last(typed) if last_word else ("", typed)
    word = " ".join(word.split()).casefold()
    pairs = list(dict.fromkeys(names))
    starts = [p for p in pairs if p[0].casefold().startswith(word) or p[1].casefold().startswith(word)]
    # One letter inside a name matches nearly everything: look inside names from two letters on.
    inside = len(word) >= 2
    holds = [
        p
        for p in pairs
        if inside and p not in starts and (word in p[0].casefold() or word in p[1].casefold())
    ]
    choices = []
    for value, label in (starts + holds)[:MAX_CHOICES]:
        full = f"{head}{value}"
        if len(full) > CHOICE:
            continue
        shown = full if label.casefold() == value.casefold() else f"{full} ({label})"
        choices.append({"name": shown[:CHOICE], "value": full})
    return choices


async def choices(services: AdapterServices, interaction: Mapping[str, Any]) -> list[dict[str, str]]:
    """The choices for the focused option of an autocomplete interaction ([] when none apply), by
    the kind of parameter it is (``slash.Focused.complete``)."""
    focus = slash.focused(interaction.get("data") or {}, slash.of(services))
    if focus is None:
        return []
    kind, typed = focus.complete, focus.typed
    if kind == macro_command.MACRO:
        return await macro_command.choices(services, interaction, typed)
    if kind == "notation":
        return matching(((e, e) for e in suggestions(typed)), "", last_word=False)
    if kind == slash.CHOICE:
        reader = ix.locale(interaction) or "en"
        labels = ((c, focus.param.choice_label(c, reader)) for c in focus.param.choices)
        return matching(labels, typed, last_word=False)
    channel = ix.channel(interaction)
    sender = ix.sender(interaction)
    system = await channels.system_of(services.vault, channel) or services.settings.gateway.default_system
    if kind == "house_rule":
        return house_rules(services, system, typed, ix.locale(interaction) or "en")
    async with services.vault.transaction() as session:
        if kind == "character":
            found = await characters_in(session, system, name_contains=typed or None, limit=MAX_CHOICES)
            return matching(((c.name, c.name) for c in found), typed, last_word=False)
        player = await player_characters(session, sender.key, system, CHARACTERS)
        if kind == "own_character":
            names = player.names if player is not None else []
            return matching(((n, n) for n in names), typed, last_word=False)
        active = player.active if player is not None else None
        if active is None or active.system != system:
            if kind == "power":
                return []
            active = next(iter(await characters_in(session, system, limit=1)), None)
            if active is None:
                return []
        locale = (player.locale if player is not None else None) or ix.locale(interaction)
        summary: SheetSummary = await services.sheet_summary(session, active, locale)
    if kind == "power":
        return matching(((p.name, p.name) for p in summary.powers), typed, last_word=False)
    # A pool is a line of words: its last word completes (``dex+fir`` -> ``dex+firearms``).
    return matching(((t.key, t.label) for t in summary.traits), typed, last_word=kind == "pool")


def house_rules(services: AdapterServices, system: str, typed: str, locale: str) -> list[dict[str, str]]:
    """The house-rule switches of the channel's system, each with its meaning in the reader's language."""
    found = services.systems().get(system)
    model = found.house_rules if found is not None else None
    if model is None:
        return []
    pairs = ((name, clip(s.meaning_in(locale), 60)) for name, s in switches(model).items())
    return matching(pairs, typed, last_word=False)


async def answer(services: AdapterServices, interaction: Mapping[str, Any], timeout: float) -> dict[str, Any]:
    """The type-8 response: the choices, or none when the vault is slower than ``timeout`` allows."""
    try:
        found = await asyncio.wait_for(choices(services, interaction), timeout)
    except TimeoutError:
        log.info("discord autocomplete too slow: no choices", timeout=timeout)
        found = []
    except Exception:  # suggestions are a convenience: a failed read offers none, the command still runs
        log.exception("discord autocomplete failed")
        found = []
    return ix.autocomplete_response(found)
