"""Slash commands that mirror the command language, and the way back from an interaction to a command line.

Each slash command (and subcommand) names the words of a gateway command; its options are appended in
the order declared. Free-text options (``raw``) go in as typed, so ``/roll pool:physical +1 wp vs
mental`` becomes ``roll physical +1 wp vs mental``; single values such as a character name are quoted
when they hold spaces. ``/gw text:<any command line>`` reaches everything else.

Typed options write what a person would type: an integer ``modifier:-2`` is ``-2``, ``dc:3`` is ``dc 3``
(each system's difficulty has its own option, named by the system's word, so Discord checks its
bounds), a USER option is ``discord:<id>``. Options marked ``complete`` ask the gateway for choices as
the user types (autocomplete, ``adapters.discord.complete``): the traits, powers and characters of the
channel's rule system, so the commands are the same in every system and the choices are not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adapters.discord import macro_command

SUB_COMMAND, STRING, INTEGER, BOOLEAN, USER = 1, 3, 4, 5, 6
# default_member_permissions: MANAGE_GUILD (1 << 5). Discord hides the command from members without
# it until a server admin overrides that per role or channel (Server Settings > Integrations); the
# router still checks the Storyteller role on every command, so this only keeps the menu tidy.
MANAGE_GUILD = str(1 << 5)
MODIFIER = 10  # +N/-N bounds of a typed modifier
DEFAULT_MAX_POOL = 50  # [gateway] max_pool's default; ``definitions(max_pool=...)`` takes the setting

# What a ``complete`` option offers: the channel system's trait names (completing the last word of a
# pool), the active character's powers, the system's characters, the sender's own characters.
TRAIT, POWER, CHARACTER, OWN = "trait", "power", "character", "own"
NOTATION = "notation"  # dice notation examples (``gateway.notation.examples``)

Texts = Mapping[str, tuple[str, str]]  # locale -> (localised name or "", localised description)

TIERS = ("basic", "adept", "advanced", "epic", "legendary")
FIELDS = ("name", "origin", "subgroup", "aptitude", "advantage", "weakness")
POOLS = ("willpower", "essence", "health")


@dataclass(frozen=True)
class Opt:
    """One option. ``raw``: free text appended as typed; ``flag``: a boolean that appends that word;
    ``prefix``: a word written before the value (``vs``, ``dc``); ``signed``: an integer written
    ``+N``/``-N`` (0 leaves it out); ``complete``: what autocomplete offers (TRAIT, POWER, ...);
    ``texts``: Czech and Russian names and descriptions."""

    name: str
    description: str
    type: int = STRING
    required: bool = False
    raw: bool = False
    flag: str | None = None
    prefix: str | None = None
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    signed: bool = False
    complete: str | None = None
    texts: Texts = field(default_factory=dict)

    def definition(self, max_pool: int = DEFAULT_MAX_POOL) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.type,
            "name": self.name,
            "description": self.description,
            "required": self.required,
        }
        if self.choices:
            out["choices"] = [{"name": c, "value": c} for c in self.choices]
        if self.complete:
            out["autocomplete"] = True
        if self.min_value is not None:
            out["min_value"] = self.min_value
        if self.max_value is not None:
            out["max_value"] = max_pool if self.max_value == POOL_MAX else self.max_value
        if self.max_length is not None:
            out["max_length"] = self.max_length
        return {**out, **localised(self.texts)}


@dataclass(frozen=True)
class Slash:
    """A slash command or subcommand. ``words`` is the gateway command it runs (default: its name)."""

    name: str
    description: str
    options: tuple[Opt, ...] = ()
    subcommands: tuple[Slash, ...] = ()
    words: str | None = None
    private: bool = False
    permissions: str | None = None  # default_member_permissions (top-level commands only)
    texts: Texts = field(default_factory=dict)

    @property
    def line(self) -> str:
        return self.words if self.words is not None else self.name

    def definition(self, *, sub: bool = False, max_pool: int = DEFAULT_MAX_POOL) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description}
        if sub:
            out["type"] = SUB_COMMAND
        else:
            out["type"] = 1  # CHAT_INPUT
            out["contexts"] = [0, 1]  # guilds and the bot's DM
            if self.permissions is not None:
                out["default_member_permissions"] = self.permissions
        if self.subcommands:
            out["options"] = [s.definition(sub=True, max_pool=max_pool) for s in self.subcommands]
        elif self.options:
            out["options"] = [o.definition(max_pool) for o in self.options]
        return {**out, **localised(self.texts)}


POOL_MAX = -1  # max_value placeholder: [gateway] max_pool, filled in by ``definitions``


def localised(texts: Texts) -> dict[str, dict[str, str]]:
    """``name_localizations`` / ``description_localizations`` from ``{locale: (name, description)}``;
    an empty name keeps the English one in that locale."""
    out: dict[str, dict[str, str]] = {}
    names = {locale: name for locale, (name, _) in texts.items() if name}
    if names:
        out["name_localizations"] = names
    if texts:
        out["description_localizations"] = {locale: text for locale, (_, text) in texts.items()}
    return out


def _name(
    description: str = "the character's name", required: bool = True, complete: str | None = CHARACTER
) -> Opt:
    return Opt("name", description, required=required, max_length=60, complete=complete)


def _trait(description: str = "which trait", required: bool = True) -> Opt:
    return Opt("trait", description, required=required, max_length=60, complete=TRAIT)


def _text(name: str, description: str, required: bool = True) -> Opt:
    return Opt(name, description, required=required, raw=True, max_length=1800)


POOL = Opt(
    "pool",
    "trait or number, modifiers, wp, vs: e.g. physical +1 wp vs mental",
    raw=True,
    max_length=1800,
    complete=TRAIT,
    texts={
        "cs": ("", "vlastnost nebo počet kostek a modifikátory, např. obratnost +1"),
        "ru": ("", "атрибут или число кубиков и модификаторы, например сила +1"),
    },
)
MOD = Opt(
    "modifier",
    f"dice added or taken away, -{MODIFIER} to +{MODIFIER}",
    INTEGER,
    min_value=-MODIFIER,
    max_value=MODIFIER,
    signed=True,
    texts={
        "cs": ("modifikátor", f"kostky navíc nebo méně, -{MODIFIER} až +{MODIFIER}"),
        "ru": ("модификатор", f"добавить или убрать кубики, от -{MODIFIER} до +{MODIFIER}"),
    },
)


def _difficulty(word: str, description: str, low: int, high: int, texts: Texts) -> Opt:
    return Opt(word, description, INTEGER, min_value=low, max_value=high, prefix=word, texts=texts)


# One option per system's difficulty word, so Discord holds each to that system's range.
DIFFICULTIES = (
    _difficulty("dc", "Decanter: the DC, 1 (easy) to 8 (superhuman)", 1, 8, {}),
    _difficulty(
        "diff",
        "Dramatic Systems: difficulty 2 to 10; Night Wanderers: 2 to 6",
        2,
        10,
        {"ru": ("трудность", "трудность: Dramatic Systems от 2 до 10, «Ночные скитальцы» от 2 до 6")},
    ),
    _difficulty(
        "tn", "Pravidla: the target number, 2 to 6", 2, 6, {"cs": ("", "Pravidla: cílové číslo, 2 až 6")}
    ),
)
AGAINST = Opt(
    "against",
    "a contest: the other side's pool (written after vs)",
    raw=True,
    prefix="vs",
    max_length=200,
    texts={
        "cs": ("proti", "souboj: kostky protistrany (zapíše se za vs)"),
        "ru": ("против", "состязание: кубики другой стороны (пишется после vs)"),
    },
)
SECRET = Opt(
    "secret",
    "only you and the Storytellers see it",
    BOOLEAN,
    flag="secret",
    texts={
        "cs": ("tajně", "uvidíte to jen vy a Vypravěči"),
        "ru": ("тайно", "увидите только вы и Рассказчики"),
    },
)
# /roll and /odds take dice notation (``2d6+3``, in every system) or a number of dice in ``dice``.
NOTATION_DICE = Opt(
    "dice",
    "dice notation (2d6+3, 4d6kh3, d20 adv) or a number of dice",
    raw=True,
    max_length=200,
    complete=NOTATION,
    texts={
        "cs": ("kostky", "kostková notace (2d6+3, 4d6kh3, d20 adv) nebo počet kostek"),
        "ru": ("кубики", "нотация кубиков (2d6+3, 4d6kh3, d20 adv) или их число"),
    },
)
ROLL_OPTIONS = (POOL, NOTATION_DICE, MOD, *DIFFICULTIES, AGAINST)
IDENTITY_TEXTS: Texts = {
    "cs": ("identita", "identita na jiné platformě, např. irc:mira"),
    "ru": ("личность", "личность на другой платформе, например irc:mira"),
}
USER_TEXTS: Texts = {"cs": ("uživatel", "uživatel Discordu"), "ru": ("пользователь", "пользователь Discord")}


def _someone(verb: str) -> tuple[Opt, Opt]:
    """A Discord user (``discord:<id>``) or any platform's identity, for ``st add`` / ``st remove``."""
    return (
        Opt("user", f"the Discord user to {verb}", USER, texts=USER_TEXTS),
        Opt("identity", "another platform's identity, e.g. irc:mira", max_length=100, texts=IDENTITY_TEXTS),
    )


COMMANDS: tuple[Slash, ...] = (
    Slash(
        "roll",
        "Roll a pool, or a contest with vs",
        (*ROLL_OPTIONS, SECRET),
        texts={
            "cs": ("hod", "Hod kostkami, nebo souboj s vs"),
            "ru": ("бросок", "Бросок кубиков или состязание с vs"),
        },
    ),
    Slash(
        "odds",
        "Exact odds of each degree for a pool (or a contest with vs)",
        ROLL_OPTIONS,
        texts={
            "cs": ("šance", "Přesné šance každého výsledku hodu (nebo souboje s vs)"),
            "ru": ("шансы", "Точные шансы каждого исхода броска (или состязания с vs)"),
        },
    ),
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
                    _name("the power's name", complete=POWER),
                    Opt("tier", "cast at a lower tier", choices=TIERS),
                    _text("extra", "modifiers, wp, secret: e.g. +1 wp", required=False),
                    Opt("against", "contest it: a power NAME [TIER], or a TRAIT", raw=True, prefix="vs"),
                ),
            ),
            Slash(
                "add",
                "Learn a power (character creation)",
                (
                    _name("the power's name", complete=None),
                    Opt("tier", "tier", required=True, choices=TIERS),
                    _trait("the trait it keys off"),
                ),
            ),
            Slash(
                "remove", "Forget a power (character creation)", (_name("the power's name", complete=POWER),)
            ),
        ),
    ),
    Slash(
        "char",
        "Your characters",
        subcommands=(
            Slash("new", "Start a new character", (_name(complete=None),)),
            Slash("use", "Make one of your characters the active one", (_name(complete=OWN),)),
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
            _trait(),
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
                    _trait("the trait rolled", required=False),
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
                    _trait("the trait rolled"),
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
        (
            Opt(
                "code",
                "the code another platform gave you (leave empty to get one)",
                max_length=32,
                texts={
                    "cs": ("kód", "kód z jiné platformy (bez něj dostanete nový)"),
                    "ru": ("код", "код с другой платформы (без него вы получите новый)"),
                },
            ),
        ),
        private=True,
        texts={
            "cs": ("propojit", "Propojení tohoto účtu Discordu s vašimi účty na jiných platformách"),
            "ru": ("связать", "Связать этот аккаунт Discord с вашими аккаунтами на других платформах"),
        },
    ),
    Slash(
        "unlink",
        "Split a platform off your person",
        (
            Opt(
                "platform",
                "e.g. irc",
                required=True,
                texts={"cs": ("platforma", "např. irc"), "ru": ("платформа", "например irc")},
            ),
        ),
        private=True,
        texts={
            "cs": ("odpojit", "Odpojení jedné platformy od vašich ostatních účtů"),
            "ru": ("отвязать", "Отвязать одну платформу от остальных ваших аккаунтов"),
        },
    ),
    Slash(
        "verify",
        "Look a roll up in the log by its id",
        (
            Opt(
                "id",
                "the roll id, e.g. k3f9m2x",
                required=True,
                texts={"cs": ("", "id hodu, např. k3f9m2x"), "ru": ("", "id броска, например k3f9m2x")},
            ),
        ),
        texts={
            "cs": ("ověřit", "Vyhledání hodu v záznamu podle jeho id"),
            "ru": ("проверить", "Найти бросок в журнале по его id"),
        },
    ),
    Slash(
        "help",
        "List commands, or explain one",
        (
            Opt(
                "command",
                "a command",
                raw=True,
                max_length=1800,
                texts={"cs": ("příkaz", "příkaz"), "ru": ("команда", "команда")},
            ),
        ),
        private=True,
        texts={
            "cs": ("nápověda", "Seznam příkazů, nebo vysvětlení jednoho z nich"),
            "ru": ("помощь", "Список команд или объяснение одной из них"),
        },
    ),
    Slash(
        "st",
        "Storyteller tools",
        permissions=MANAGE_GUILD,
        texts={"cs": ("", "Nástroje Vypravěče"), "ru": ("", "Инструменты Рассказчика")},
        subcommands=(
            Slash(
                "add",
                "Make someone a Storyteller",
                _someone("make a Storyteller"),
                texts={"cs": ("", "Jmenování Vypravěče"), "ru": ("", "Назначить Рассказчика")},
            ),
            Slash(
                "remove",
                "Remove a Storyteller",
                _someone("remove"),
                texts={"cs": ("", "Odebrání Vypravěče"), "ru": ("", "Снять Рассказчика")},
            ),
            Slash(
                "list",
                "List the Storytellers",
                private=True,
                texts={"cs": ("", "Seznam Vypravěčů"), "ru": ("", "Список Рассказчиков")},
            ),
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
                    _trait(),
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
            Slash(
                "roll",
                "An NPC or situational roll",
                (
                    Opt("dice", "how many dice", INTEGER, True, min_value=0, max_value=POOL_MAX),
                    MOD,
                    Opt("label", "what the roll is for", raw=True, max_length=200),
                    SECRET,
                ),
            ),
            Slash(
                "rollstat",
                "Roll a character's trait for them",
                (
                    _name(),
                    _trait(),
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
    Slash(
        "gw",
        "Any gateway command line",
        (
            Opt(
                "text",
                "the command, e.g. char set origin Human",
                required=True,
                raw=True,
                max_length=1800,
                texts={
                    "cs": ("text", "příkaz, např. help roll"),
                    "ru": ("текст", "команда, например help roll"),
                },
            ),
        ),
        texts={"cs": ("", "Libovolný příkaz brány"), "ru": ("", "Любая команда шлюза")},
    ),
)
COMMANDS = (*COMMANDS, macro_command.command())  # /macro (issue 18): adapters/discord/macro_command.py
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


def definitions(max_pool: int = DEFAULT_MAX_POOL) -> list[dict[str, Any]]:
    """The JSON array for the bulk-overwrite PUT; pools go up to ``max_pool`` ([gateway] max_pool)."""
    return [c.definition(max_pool=max_pool) for c in COMMANDS]


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
        if opt.signed and isinstance(value, int):
            if value:
                words.append(f"{value:+d}")
            continue
        if opt.prefix:
            words.append(opt.prefix)
        if opt.type == USER:
            words.append(f"discord:{value}")
        elif opt.raw:
            words.append(" ".join(str(value).split()))
        elif isinstance(value, bool):
            words.append("yes" if value else "no")
        else:
            words.append(quote(str(value)))
    return Parsed(line=" ".join(w for w in words if w), private=private, options=values)


@dataclass(frozen=True)
class Focused:
    """The option an autocomplete interaction is about, and what the user has typed so far."""

    option: Opt
    typed: str


def focused(data: Mapping[str, Any]) -> Focused | None:
    """The focused option of an APPLICATION_COMMAND_AUTOCOMPLETE's ``data``; None when it names no
    option of ours that completes."""
    slash = BY_NAME.get(str(data.get("name", "")))
    if slash is None:
        return None
    spec, options = slash, data.get("options") or []
    if slash.subcommands:
        chosen = next((o for o in options if o.get("type") == SUB_COMMAND), None)
        sub = next((s for s in slash.subcommands if chosen and s.name == chosen.get("name")), None)
        if sub is None or chosen is None:
            return None
        spec, options = sub, chosen.get("options") or []
    typed = next((o for o in options if o.get("focused")), None)
    opt = next((o for o in spec.options if typed and o.name == typed.get("name")), None)
    if opt is None or typed is None or opt.complete is None:
        return None
    return Focused(opt, str(typed.get("value") or ""))
