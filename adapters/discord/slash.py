"""Slash commands that mirror the command language, and the way back from an interaction to a command line.

Each slash command (and subcommand) names the words of a gateway command; its options are appended in
the order declared. Free-text options (``raw``) go in as typed, so ``/roll pool:physical +1 wp vs
mental`` becomes ``roll physical +1 wp vs mental``; single values such as a character name are quoted
when they hold spaces. ``/gw text:<any command line>`` reaches everything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SUB_COMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5

TIERS = ("basic", "adept", "advanced", "epic", "legendary")
TRAITS = ("physical", "mental", "social", "spirit")
FIELDS = ("name", "origin", "subgroup", "aptitude", "advantage", "weakness")
POOLS = ("willpower", "essence", "health")


@dataclass(frozen=True)
class Opt:
    """One option. ``raw``: free text appended as typed; ``flag``: a boolean that appends that word;
    ``prefix``: a word written before the value (``vs``)."""

    name: str
    description: str
    type: int = STRING
    required: bool = False
    raw: bool = False
    flag: str | None = None
    prefix: str | None = None
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_length: int | None = None

    def definition(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.type,
            "name": self.name,
            "description": self.description,
            "required": self.required,
        }
        if self.choices:
            out["choices"] = [{"name": c, "value": c} for c in self.choices]
        if self.min_value is not None:
            out["min_value"] = self.min_value
        if self.max_length is not None:
            out["max_length"] = self.max_length
        return out


@dataclass(frozen=True)
class Slash:
    """A slash command or subcommand. ``words`` is the gateway command it runs (default: its name)."""

    name: str
    description: str
    options: tuple[Opt, ...] = ()
    subcommands: tuple[Slash, ...] = ()
    words: str | None = None
    private: bool = False

    @property
    def line(self) -> str:
        return self.words if self.words is not None else self.name

    def definition(self, *, sub: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description}
        if sub:
            out["type"] = SUB_COMMAND
        else:
            out["type"] = 1  # CHAT_INPUT
            out["contexts"] = [0, 1]  # guilds and the bot's DM
        if self.subcommands:
            out["options"] = [s.definition(sub=True) for s in self.subcommands]
        elif self.options:
            out["options"] = [o.definition() for o in self.options]
        return out


def _name(description: str = "the character's name", required: bool = True) -> Opt:
    return Opt("name", description, required=required, max_length=60)


def _text(name: str, description: str, required: bool = True) -> Opt:
    return Opt(name, description, required=required, raw=True, max_length=1800)


POOL = _text("pool", "trait or number, modifiers, wp, vs: e.g. physical +1 wp vs mental")

COMMANDS: tuple[Slash, ...] = (
    Slash(
        "roll",
        "Roll a pool, or a contest with vs",
        (POOL, Opt("secret", "only you and the Storytellers see it", BOOLEAN, flag="secret")),
    ),
    Slash("odds", "Exact odds of each degree for a pool (or a contest with vs)", (POOL,)),
    Slash("prove", "Show your approved character's traits, Willpower and Essence"),
    Slash("sheet", "Show your whole sheet (only to you)", private=True),
    Slash("checkin", "Daily check-in: roll Spirit, regain Essence and 1 Willpower"),
    Slash("heal", "Spend Essence to heal", (Opt("levels", "health levels to heal", INTEGER, min_value=1),)),
    Slash("health", "Show your health track", private=True),
    Slash(
        "damage", "Record damage on your character", (Opt("levels", "damage", INTEGER, True, min_value=1),)
    ),
    Slash(
        "power",
        "Use or manage powers",
        subcommands=(
            Slash(
                "use",
                "Pay the Essence and roll the keyed trait",
                (
                    _name("the power's name"),
                    Opt("tier", "cast at a lower tier", choices=TIERS),
                    _text("extra", "modifiers, wp, secret: e.g. +1 wp", required=False),
                    Opt("against", "contest it: a power NAME [TIER], or a TRAIT", raw=True, prefix="vs"),
                ),
            ),
            Slash(
                "add",
                "Learn a power (character creation)",
                (
                    _name("the power's name"),
                    Opt("tier", "tier", required=True, choices=TIERS),
                    Opt("trait", "the trait it keys off", required=True, choices=TRAITS),
                ),
            ),
            Slash("remove", "Forget a power (character creation)", (_name("the power's name"),)),
        ),
    ),
    Slash(
        "char",
        "Your characters",
        subcommands=(
            Slash("new", "Start a new character", (_name(),)),
            Slash("use", "Make one of your characters the active one", (_name(),)),
            Slash(
                "set",
                "Set a narrative field",
                (Opt("field", "which field", required=True, choices=FIELDS), _text("text", "the new text")),
            ),
            Slash("budget", "What is left of the creation budget", private=True),
            Slash("submit", "Hand the finished sheet to the Storytellers"),
            Slash("list", "Your characters", private=True),
        ),
    ),
    Slash(
        "trait",
        "Set a trait (character creation)",
        (
            Opt("trait", "which trait", required=True, choices=TRAITS),
            Opt("rating", "the new rating", INTEGER, True, min_value=0),
        ),
    ),
    Slash(
        "challenge",
        "Challenge a character to a contest",
        (_text("args", "NAME TRAIT [+N] [wp], or cancel", False),),
    ),
    Slash(
        "defend",
        "Answer a challenge with your own roll",
        (_text("args", "TRAIT [+N] [wp], or power NAME [TIER]"),),
    ),
    Slash("concede", "Give a challenge up without rolling"),
    Slash(
        "attack",
        "Attack: a contest whose margin, less soak, is damage",
        (_text("args", "TARGET [TRAIT] [+weapon] [wp]"),),
    ),
    Slash(
        "init",
        "Combat order in this channel",
        subcommands=(
            Slash("start", "Open a fight here"),
            Slash(
                "join",
                "Join the fight (Storytellers: add an NPC)",
                (_text("args", "[NAME [PHYSICAL]]", False),),
            ),
            Slash("roll", "Roll Physical for order"),
            Slash("next", "Pass the turn on"),
            Slash("list", "Show the order and the round"),
            Slash(
                "move",
                "Put someone at a place in the order",
                (_name(), Opt("position", "1 is first", INTEGER, True, min_value=1)),
            ),
            Slash("end", "End the fight"),
        ),
    ),
    Slash(
        "extended",
        "Extended actions",
        subcommands=(
            Slash(
                "start",
                "Start an extended action",
                (
                    Opt("target", "successes needed", INTEGER, True, min_value=1),
                    Opt("rolls", "rolls allowed", INTEGER, True, min_value=1),
                    Opt("trait", "the trait rolled", choices=TRAITS),
                ),
            ),
            Slash("roll", "Roll the next step", (_text("args", "[TRAIT] [+N|-N] [wp]", False),)),
            Slash("status", "Show your extended action"),
            Slash("abandon", "Give your extended action up"),
        ),
    ),
    Slash(
        "team",
        "Team actions",
        subcommands=(
            Slash(
                "start",
                "Lead a team action",
                (
                    Opt("trait", "the trait rolled", required=True, choices=TRAITS),
                    _text("mods", "+N/-N", False),
                ),
            ),
            Slash("roll", "Roll for the team", (Opt("wp", "spend Willpower", BOOLEAN, flag="wp"),)),
            Slash("status", "Show the open team actions here"),
            Slash("cancel", "Call a team action off", (Opt("leader", "whose", max_length=60),)),
        ),
    ),
    Slash(
        "assist",
        "Help a team leader: +1 die, or a sure success with wp",
        (Opt("leader", "whose action", max_length=60), Opt("wp", "spend Willpower", BOOLEAN, flag="wp")),
    ),
    Slash(
        "link",
        "Join this Discord account to your other platforms",
        (Opt("code", "the code another platform gave you (leave empty to get one)", max_length=32),),
        private=True,
    ),
    Slash(
        "unlink",
        "Split a platform off your person",
        (Opt("platform", "e.g. irc", required=True),),
        private=True,
    ),
    Slash(
        "verify",
        "Look a roll up in the log by its id",
        (Opt("id", "the roll id, e.g. k3f9m2x", required=True),),
    ),
    Slash(
        "help",
        "List commands, or explain one",
        (_text("command", "a command", required=False),),
        private=True,
    ),
    Slash(
        "st",
        "Storyteller tools",
        subcommands=(
            Slash(
                "add", "Make someone a Storyteller", (Opt("identity", "e.g. discord:1234", required=True),)
            ),
            Slash("remove", "Remove a Storyteller", (Opt("identity", "e.g. discord:1234", required=True),)),
            Slash("list", "List the Storytellers", private=True),
            Slash(
                "roster", "Characters by state", (Opt("which", "filter", choices=("unlocked", "approved")),)
            ),
            Slash("search", "Find characters by name", (_text("text", "part of a name"),)),
            Slash("show", "Show a character's sheet", (_name(),), private=True),
            Slash("approve", "Lock a sheet and send it to the log and Discord", (_name(),)),
            Slash("unapprove", "Return a sheet to creation", (_name(),)),
            Slash(
                "set",
                "Set a narrative field on a character",
                (
                    _name(),
                    Opt("field", "which field", required=True, choices=FIELDS),
                    _text("text", "new text"),
                ),
            ),
            Slash(
                "trait",
                "Set a trait with no limits",
                (
                    _name(),
                    Opt("trait", "which trait", required=True, choices=TRAITS),
                    Opt("rating", "the new rating", INTEGER, True, min_value=0),
                ),
            ),
            Slash(
                "power",
                "Edit a character's powers",
                (_name(), _text("args", "add NAME TIER TRAIT | remove NAME")),
            ),
            Slash(
                "pool",
                "Set a pool by hand",
                (
                    _name(),
                    Opt("pool", "which pool", required=True, choices=POOLS),
                    Opt("value", "the new value", INTEGER, True, min_value=0),
                ),
            ),
            Slash("roll", "An NPC or situational roll", (_text("pool", "N [+N|-N] [LABEL] [secret]"),)),
            Slash(
                "rollstat",
                "Roll a character's trait for them",
                (
                    _name(),
                    Opt("trait", "which trait", required=True, choices=TRAITS),
                    _text("mods", "+N/-N", False),
                ),
            ),
            Slash(
                "announce", "Announce to every channel of the chronicle", (_text("text", "the announcement"),)
            ),
            Slash(
                "emote",
                "A roleplay emote (start with here for this channel only)",
                (_text("text", "the emote"),),
            ),
            Slash(
                "soak",
                "Set a character's or NPC's soak",
                (_name(), Opt("value", "soak", INTEGER, True, min_value=0)),
            ),
            Slash("export", "Send one sheet to the Discord export", (_name(),)),
            Slash("sync", "Force Web Sync: every approved sheet to Discord, paced"),
            Slash("history", "A character's audit log", (_name(),), private=True),
            Slash(
                "log", "The Storyteller log", (_text("args", "[NAME] [--since ...]", False),), private=True
            ),
        ),
    ),
    Slash("gw", "Any gateway command line", (_text("text", "the command, e.g. char set origin Human"),)),
)
BY_NAME = {c.name: c for c in COMMANDS}
# Commands whose answers are private: a deferral for them is ephemeral from the start.
PRIVATE_WORDS = {
    "sheet",
    "link",
    "unlink",
    "help",
    "health",
    "char budget",
    "st list",
    "st show",
    "st history",
}
PRIVATE_WORDS |= {"st log"}


def definitions() -> list[dict[str, Any]]:
    """The JSON array for the bulk-overwrite PUT."""
    return [c.definition() for c in COMMANDS]


def quote(value: str) -> str:
    value = " ".join(value.split())
    if not value or (not any(ch.isspace() for ch in value) and value[0] not in "\"'"):
        return value
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "'") + '"'


@dataclass
class Parsed:
    line: str
    private: bool
    options: dict[str, Any] = field(default_factory=dict)


def _values(options: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    return {str(o.get("name")): o.get("value") for o in options or [] if "value" in o}


def command_line(data: Mapping[str, Any]) -> Parsed | None:
    """The gateway command line for an APPLICATION_COMMAND's ``data``; None for an unknown command."""
    slash = BY_NAME.get(str(data.get("name", "")))
    if slash is None:
        return None
    options = data.get("options") or []
    if slash.name == "gw":
        text = str(_values(options).get("text") or "")
        first = " ".join(text.split()[:2]).casefold()
        private = (
            first in PRIVATE_WORDS or first.split(" ")[0] in PRIVATE_WORDS or "secret" in text.casefold()
        )
        return Parsed(line=text, private=private)
    words = [slash.line]
    private = slash.private
    spec = slash
    if slash.subcommands:
        chosen = next((o for o in options if o.get("type") == SUB_COMMAND), None)
        sub = next((s for s in slash.subcommands if chosen and s.name == chosen.get("name")), None)
        if sub is None:
            return None
        words.append(sub.line)
        private = private or sub.private
        spec, options = sub, chosen.get("options") or []  # type: ignore[union-attr]
    values = _values(options)
    for opt in spec.options:
        value = values.get(opt.name)
        if value is None or value == "":
            continue
        if opt.flag:
            if value is True:
                words.append(opt.flag)
                private = private or opt.flag == "secret"
            continue
        if opt.prefix:
            words.append(opt.prefix)
        if opt.raw:
            words.append(" ".join(str(value).split()))
        elif isinstance(value, bool):
            words.append("yes" if value else "no")
        else:
            words.append(quote(str(value)))
    return Parsed(line=" ".join(w for w in words if w), private=private, options=values)
