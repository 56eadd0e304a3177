"""Nightcap, the primary rule system: d10 pools, 7+ succeeds, 10 counts twice, 1 takes one away.

Pure rules: ``mechanics`` (dice), ``chargen`` (the creation budget), ``powers`` (tiers and costs),
``checkin`` (the day boundary), ``health``, ``sheet``, ``view``. Commands by topic: ``rolls``, ``chars``
(sheets and creation), ``play`` (powers, health, check-in), ``storyteller`` (``st ...``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.commands import Command
from gateway.hookspecs import hookimpl
from gateway.registry import RuleSystem
from plugins.nightcap import chars, config, conflict_commands, play, power_contest, storyteller
from plugins.nightcap.pools import ROLL_USAGE
from plugins.nightcap.rolls import SYSTEM, roll_command

NIGHTCAP = RuleSystem(
    name=SYSTEM,
    title="Nightcap",
    dice="d10, 7+ succeeds, 10 counts twice, 1 takes one away",
    describe="Modern supernatural stories after midnight.",
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(NIGHTCAP)


@hookimpl
def gateway_configure(settings: Any) -> None:
    """Fail at start-up, not on the first command, when ``[nightcap]`` is mistyped."""
    config.load(settings)


def _commands() -> list[Command]:
    def c(name: str, handler: Any, summary: str, usage: str, **kw: Any) -> Command:
        return Command(name, handler, summary, usage, system=SYSTEM, **kw)

    def st(name: str, handler: Any, summary: str, usage: str) -> Command:
        return c(name, handler, summary, usage, role="storyteller")

    return [
        c("roll", roll_command, "roll a pool, or a contest with vs", ROLL_USAGE, role="anyone"),
        c("char", chars.char_command, "character commands", chars.CHAR_USAGE),
        c(
            "char new",
            chars.char_new,
            "start a character (creation mode) and make it active",
            "char new NAME",
        ),
        c("char use", chars.char_use, "make one of your characters the active one", "char use NAME"),
        c("char set", chars.char_set, "set a narrative field while in creation", "char set FIELD TEXT"),
        c("char submit", chars.char_submit, "hand a finished sheet to the Storytellers", "char submit"),
        c("char budget", chars.char_budget, "trait points and power dots left", "char budget"),
        c("char list", chars.char_list, "your characters", "char list"),
        c("trait", chars.trait_command, "set a trait while in creation", "trait NAME N"),
        c("power", chars.power_command, "power commands", "power add|remove|use ..."),
        c("power add", chars.power_add, "learn a power while in creation", "power add NAME TIER TRAIT"),
        c("power remove", chars.power_remove, "drop a power while in creation", "power remove NAME"),
        c(
            "power use",
            power_contest.power_use,
            "pay a power's Essence and roll its trait; with vs, a power contest",
            f"{play.POWER_USE_USAGE}; {power_contest.POWER_VS_USAGE}",
        ),
        c("sheet", chars.sheet_command, "your whole sheet, privately", "sheet"),
        c(
            "prove",
            chars.prove_command,
            "show traits, Willpower and Essence to the scene (approved sheets)",
            "prove",
            aliases=("+prove",),
        ),
        c("health", play.health_command, "your Health track", "health"),
        c("damage", play.damage_command, "record damage on your character", "damage N"),
        c("heal", play.heal_command, "spend Essence to heal, 1 per level", "heal [N]"),
        c(
            "checkin",
            play.checkin_command,
            "the daily check-in: roll Spirit, regain Essence and 1 WP",
            "checkin",
        ),
        st("st roster", storyteller.st_roster, "list characters", "st roster [unlocked|approved]"),
        st("st search", storyteller.st_search, "find characters by name", "st search TEXT"),
        st("st show", storyteller.st_show, "a character's whole sheet", "st show NAME"),
        st(
            "st approve",
            storyteller.st_approve,
            "approve and lock a sheet, fill its pools",
            "st approve NAME",
        ),
        st("st unapprove", storyteller.st_unapprove, "return a sheet to creation", "st unapprove NAME"),
        st("st set", storyteller.st_set, "set a narrative field", "st set NAME FIELD VALUE"),
        st("st trait", storyteller.st_trait, "set a trait, no limits", "st trait NAME TRAIT N"),
        st(
            "st power",
            storyteller.st_power,
            "give, change or take a power, any tier",
            "st power NAME add POWER TIER TRAIT | st power NAME remove POWER",
        ),
        st(
            "st pool",
            storyteller.st_pool,
            "set a pool (or its maximum) by hand",
            "st pool NAME willpower|essence|health N | st pool NAME willpower|essence max N",
        ),
        st(
            "st roll", storyteller.st_roll, "an NPC or situational roll", "st roll N [+N|-N] [LABEL] [secret]"
        ),
        st(
            "st rollstat",
            storyteller.st_rollstat,
            "roll a character's trait",
            "st rollstat NAME TRAIT [+N|-N] [secret]",
        ),
        st(
            "st announce",
            storyteller.st_announce,
            "an announcement to every chronicle channel",
            "st announce TEXT",
        ),
        st("st emote", storyteller.st_emote, "a roleplay emote, everywhere or here", "st emote [here] TEXT"),
        st("st export", storyteller.st_export, "send one sheet to the sheet export", "st export NAME"),
        st("st sync", storyteller.st_sync, "send every approved sheet to the sheet export", "st sync"),
    ]


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    for command in [*_commands(), *conflict_commands.commands()]:
        register(command)
