"""Slash commands generated from the commands' declarations, and the way back from an interaction to
the command line a person would type.

Every registered command (the core's and each rule system's, read from the plugin registry the
gateway's services hold) becomes a slash command; a multi-word name becomes a subcommand under its
first word (``char new`` is ``/char new``, ``st power`` is ``/st power``). Each typed parameter
(``gateway.core.params.Param``) is an option of Discord's type for its kind: a bounded integer, a
string with choices, a boolean for a flag, a string that autocompletes (``adapters.discord.complete``)
for traits, powers, characters, notation and house rules, a user picker for a person. A command
several systems declare is one slash command: the union of their options by name, the widest range,
a plain string where two systems disagree on a parameter's kind, so the commands are the same in
every channel and the channel's system decides what a line means; it answers privately (an
ephemeral deferral) when any of them declares ``private``. A command declared with ``params=()``
has no option; one that declares nothing (``Command.declared``) takes one free-text option.

The way back: an interaction's option values go through ``gateway.core.params.render`` to the words a
person types, and the router binds them with the one parser. ``/gw text:`` runs any command line;
``/macro run`` runs a macro.

Public for other modules of the adapter (the Gateway mode too): ``definitions(commands)`` (the JSON
array a bulk overwrite PUTs; the same commands give the same array, byte for byte),
``command_line(data, slashes)`` (an APPLICATION_COMMAND's ``data`` to a ``Parsed`` line),
``of(services)`` (the generated commands of a running gateway, built once),
``registered(services)`` (its commands) and ``changed(stored, wanted)`` (which commands a
registration would change: none, and the PUT can be skipped).
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import structlog

from gateway import AdapterServices, Command
from gateway.core.params import INTEGER_KINDS, Kind, Param, render

log = structlog.get_logger(__name__)

CHAT_INPUT, SUB_COMMAND, STRING, INTEGER, BOOLEAN, USER = 1, 1, 3, 4, 5, 6
# default_member_permissions: MANAGE_GUILD (1 << 5), for a slash command whose every command is the
# Storytellers'. Discord hides it from members without it until a server admin overrides that per
# role or channel (Server Settings > Integrations); the router still checks the Storyteller role.
MANAGE_GUILD = str(1 << 5)

# Discord's limits (application-commands.mdx; /work/shared/protocols-2.md 1.3).
MAX_COMMANDS = 100
MAX_OPTIONS = 25  # options of a command, and subcommands of a command
MAX_CHOICES = 25
MAX_DESCRIPTION = 100
MAX_NAME = 32
MAX_INTEGER = 2**53 - 1
MAX_TEXT = 8000  # a command's names, descriptions and choices together
WORD_LENGTH = 100  # one word: a name, a trait
TEXT_LENGTH = 1800  # the rest of a line: within a 2000-character message with the command's name

# The gateway's message languages as Discord's locale codes (reference.mdx "Locales"); a language
# Discord has no code for is left out of the localisations.
DISCORD_LOCALES = {
    "cs": "cs",
    "ru": "ru",
    "uk": "uk",
    "pl": "pl",
    "de": "de",
    "fr": "fr",
    "it": "it",
    "nl": "nl",
    "da": "da",
    "fi": "fi",
    "no": "no",
    "hu": "hu",
    "ro": "ro",
    "tr": "tr",
    "el": "el",
    "bg": "bg",
    "hr": "hr",
    "lt": "lt",
    "ja": "ja",
    "ko": "ko",
    "th": "th",
    "vi": "vi",
    "hi": "hi",
    "es": "es-ES",
    "pt": "pt-BR",
    "sv": "sv-SE",
    "zh": "zh-CN",
}

# Kinds whose option asks the gateway for choices as the user types (``adapters.discord.complete``
# answers by the kind: a pool completes its last word with the traits of the channel's system).
COMPLETED = frozenset({"pool", "trait", "power", "character", "own_character", "notation", "house_rule"})
CHOICE, MACRO = "choice", "macro"  # completions of a choice with more than 25 words, of a macro's name

GW = "gw"
PLATFORM = "discord"  # identity keys are discord:<user id>
# A command that declares no parameters reads its words itself: one free-text option.
ARGS = Param(
    "args",
    "text",
    "what follows the command, as you would type it",
    texts={
        "cs": ("", "co následuje za příkazem, jak byste to napsali"),
        "ru": ("", "что идёт после команды, как вы бы это написали"),
    },
)
GW_TEXT = Param(
    "text",
    "text",
    "the command, e.g. char set origin Human",
    required=True,
    texts={"cs": ("", "příkaz, např. help roll"), "ru": ("текст", "команда, например help roll")},
)
GW_TEXTS = {"cs": "Libovolný příkaz brány", "ru": "Любая команда шлюза"}


@dataclass(frozen=True)
class Slash:
    """A slash command or subcommand. ``words``: the gateway command it runs (None: a group whose
    subcommands run). ``params``: the merged parameters in the order a person types them (``render``
    reads them); ``completes``: option name -> what autocomplete offers."""

    name: str
    description: str
    texts: Mapping[str, str] = field(default_factory=dict)  # locale -> description
    words: str | None = None
    params: tuple[Param, ...] = ()
    completes: Mapping[str, str] = field(default_factory=dict)
    subcommands: tuple[Slash, ...] = ()
    storyteller: bool = False
    # Each declaring command's positional parameters in its own order (the way back checks a gap).
    orders: tuple[tuple[str, ...], ...] = ()
    # A declaring command answers privately (``Command.private``): the deferral of a slow one is
    # ephemeral from the start, since the first follow-up takes the deferral's visibility (a public
    # "thinking" must not turn into a sheet).
    private: bool = False

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def sub(self, name: str) -> Slash | None:
        return next((s for s in self.subcommands if s.name == name), None)

    def definition(self, *, sub: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": clip(self.description or self.name)}
        if sub:
            out["type"] = SUB_COMMAND
        else:
            out["type"] = CHAT_INPUT
            out["contexts"] = [0, 1]  # guilds and the bot's DM
            if self.storyteller:
                out["default_member_permissions"] = MANAGE_GUILD
        if self.subcommands:
            out["options"] = [s.definition(sub=True) for s in self.subcommands]
        elif self.params:
            out["options"] = self.options()
        texts = descriptions(self.texts)
        if texts:
            out["description_localizations"] = texts
        return out if sub else fit(out)

    def options(self) -> list[dict[str, Any]]:
        """Discord's options: the required ones first (Discord's rule), each group in typed order."""
        ordered = [p for p in self.params if p.required] + [p for p in self.params if not p.required]
        taken: dict[str, set[str]] = {}  # locale -> localised names given (unique within a command)
        return [option(p, self.completes.get(p.name), taken) for p in ordered]


def text_size(item: Mapping[str, Any]) -> int:
    """What Discord counts toward a command's 8000 characters: every name, description and choice,
    each at its longest localisation (application-commands.mdx "Slash Commands")."""

    def longest(key: str) -> int:
        return max([len(item.get(key, "")), *map(len, (item.get(f"{key}_localizations") or {}).values())])

    size = longest("name") + longest("description")
    size += sum(
        max([len(c["name"]), *map(len, (c.get("name_localizations") or {}).values())]) + len(str(c["value"]))
        for c in item.get("choices", [])
    )
    return size + sum(text_size(o) for o in item.get("options", []))


def _nested(item: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for child in item.get("options", []):
        yield child
        yield from _nested(child)


def fit(command: dict[str, Any]) -> dict[str, Any]:
    """``command`` within Discord's 8000 characters: over it, its options and subcommands lose their
    localised descriptions, then their localised names (the English ones stay); ``build`` reports
    one that is still over."""
    for key in ("description_localizations", "name_localizations"):
        if text_size(command) <= MAX_TEXT:
            break
        for child in _nested(command):
            child.pop(key, None)
            for choice in child.get("choices", []) if key == "name_localizations" else ():
                choice.pop(key, None)
    return command


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """One line of at most ``limit`` characters, cut at a word with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut).rstrip(" ,;:") + "…"


def valid_name(name: str) -> bool:
    """Discord's naming rule for chat-input commands and options: 1-32 letters, digits, ``-_'``,
    lower case where the letter has one."""
    return (
        0 < len(name) <= MAX_NAME and all(ch.isalnum() or ch in "-_'" for ch in name) and name == name.lower()
    )


def descriptions(texts: Mapping[str, str]) -> dict[str, str]:
    """``description_localizations`` from ``{gateway locale: description}``, in Discord's codes."""
    out = {}
    for locale, text in sorted(texts.items()):
        code = DISCORD_LOCALES.get(locale)
        if code and text.strip():
            out[code] = clip(text)
    return out


def option(param: Param, complete: str | None, taken: dict[str, set[str]]) -> dict[str, Any]:
    """One option of Discord's type for ``param``'s kind, with its localised label and description."""
    out: dict[str, Any] = {"name": param.name, "description": clip(param.description or param.name)}
    if param.kind == "flag":
        out["type"] = BOOLEAN
    elif param.kind == "person" and not param.many:
        out["type"] = USER  # the user picker; the way back writes the pick as discord:<id>
    elif param.kind in INTEGER_KINDS and not param.many:
        out["type"] = INTEGER
        if param.minimum is not None:
            out["min_value"] = max(param.minimum, -MAX_INTEGER)
        if param.maximum is not None:
            out["max_value"] = min(param.maximum, MAX_INTEGER)
    else:
        out["type"] = STRING
        out["max_length"] = TEXT_LENGTH if param.rest else WORD_LENGTH
        if param.kind == "choice" and not complete:
            out["choices"] = [_choice(param, c) for c in param.choices]
        elif complete:
            out["autocomplete"] = True
    out["required"] = param.required
    names: dict[str, str] = {}
    texts: dict[str, str] = {}
    for locale, (label, text) in sorted(param.texts.items()):
        code = DISCORD_LOCALES.get(locale)
        if code is None:
            continue
        name = "-".join(label.casefold().split())
        if label and valid_name(name) and name != param.name and name not in taken.setdefault(code, set()):
            taken[code].add(name)
            names[code] = name
        if text.strip():
            texts[code] = clip(text)
    if names:
        out["name_localizations"] = names
    if texts:
        out["description_localizations"] = texts
    return out


def _choice(param: Param, choice: str) -> dict[str, Any]:
    """A choice of a picker, its name in each language that has a label for it."""
    out: dict[str, Any] = {"name": choice[:100], "value": choice[:100]}
    names = {
        code: label[:100]
        for locale, labels in sorted(param.choice_texts.items())
        if (code := DISCORD_LOCALES.get(locale)) is not None
        and (label := labels.get(choice, choice)) != choice
    }
    if names:
        out["name_localizations"] = names
    return out


# --------------------------------------------------------------------------- merging the declarations


def _widest(a: int | None, b: int | None, pick: Any) -> int | None:
    return None if a is None or b is None else int(pick(a, b))


def combine(a: Param, b: Param) -> Param:
    """One option for a parameter two systems declare under one name: the widest range and every
    choice when they agree on the kind; a string otherwise (the channel's system reads it), whose
    choices, if either has some, autocomplete as suggestions."""
    texts = {**b.texts, **a.texts}
    if a.kind == b.kind and a.keyword == b.keyword:
        return dataclasses.replace(
            a,
            many=a.many or b.many,
            minimum=_widest(a.minimum, b.minimum, min),
            maximum=_widest(a.maximum, b.maximum, max),
            choices=tuple(dict.fromkeys((*a.choices, *b.choices))),
            texts=texts,
            choice_texts=_merged_labels(a, b),
        )
    keyword = a.keyword if a.keyword == b.keyword else None
    kind: Kind = "text" if a.rest or b.rest else "word"
    choices = tuple(dict.fromkeys((*a.choices, *b.choices)))
    return Param(a.name, kind, a.description, keyword=keyword, choices=choices, texts=texts)


def _merged_labels(a: Param, b: Param) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for param in (b, a):  # ``a``'s label wins where both name one choice
        for locale, labels in param.choice_texts.items():
            merged.setdefault(locale, {}).update(labels)
    return merged


def merge(commands: Sequence[Command]) -> tuple[tuple[Param, ...], list[str]]:
    """The parameters of same-named commands as one list in typed order, and what does not fit: two
    systems typing positional parameters in a different order (the first system's order is kept)."""
    merged: dict[str, Param] = {}
    order: list[str] = []
    counts: dict[str, int] = {}
    required: dict[str, bool] = {}
    for command in commands:
        before: str | None = None
        for param in command.params:
            if param.name in merged:
                merged[param.name] = combine(merged[param.name], param)
            else:
                merged[param.name] = param
                # A new parameter goes right after its predecessor in this command's own order.
                order.insert(order.index(before) + 1 if before is not None else 0, param.name)
            counts[param.name] = counts.get(param.name, 0) + 1
            required[param.name] = required.get(param.name, True) and param.required
            before = param.name
    problems = []
    for command in commands:
        positional = [p.name for p in command.params if not p.keyword]
        seen = [name for name in order if name in positional and not merged[name].keyword]
        if seen != positional:
            problems.append(f"{command.name} ({command.system}): parameters in another order than {seen}")
    params = tuple(
        dataclasses.replace(
            merged[name],
            required=required[name] and counts[name] == len(commands) and merged[name].kind != "flag",
        )
        for name in order
    )
    return params, problems


def _order(first: str | None) -> Any:
    """Commands in the order their texts are preferred: the ``first`` system's (the gateway's default,
    whose channels are most: its ``roll`` is what ``/roll`` means there), then the core's (a command
    of every channel), then the other systems' by name."""

    def key(command: Command) -> tuple[int, str, str]:
        rank = 0 if command.system == first and first is not None else 1 if command.system is None else 2
        return (rank, command.system or "", command.name)

    return key


def leaf(name: str, words: str, commands: Sequence[Command], problems: list[str]) -> Slash:
    """The slash command (or subcommand) ``name`` running the gateway command ``words``."""
    first = commands[0]
    params, found = merge(commands)
    problems.extend(found)
    if not any(c.declared for c in commands):
        params = (ARGS,)
    if len(params) > MAX_OPTIONS:
        problems.append(f"{words}: {len(params) - MAX_OPTIONS} options over Discord's {MAX_OPTIONS} left out")
        room = MAX_OPTIONS - sum(p.required for p in params)  # the required ones stay, in typed order
        optional = {p.name for p in params if not p.required}
        kept = {p.name for p in params if p.required} | set(
            [p.name for p in params if p.name in optional][:room]
        )
        params = tuple(p for p in params if p.name in kept)
    completes: dict[str, str] = {}
    for param in params:
        if param.kind in COMPLETED:
            completes[param.name] = param.kind
        elif param.choices and (
            param.kind != "choice"
            or len(param.choices) > MAX_CHOICES
            or any(len(c) > 100 for c in param.choices)
        ):
            completes[param.name] = CHOICE  # suggested, not enforced, where the kind is no choice
    # The localised summaries of the command whose English one is shown: one system's words throughout.
    texts = {locale: summary for locale, (summary, _) in first.texts.items() if summary}
    return Slash(
        name,
        first.summary,
        texts,
        words=words,
        params=params,
        completes=completes,
        storyteller=all(c.role == "storyteller" for c in commands),
        orders=tuple(tuple(p.name for p in c.params if not p.keyword) for c in commands if c.params),
        private=any(c.private for c in commands),
    )


def build(commands: Iterable[Command], extra: Iterable[Slash] = (), first: str | None = None) -> Slashes:
    """The slash commands for ``commands`` (aliases are left out: the canonical name is offered),
    with ``extra`` subcommands (``/macro run``) put under their group. A command several systems
    declare is described in the words of the ``first`` system's, else of the core's, else of the
    first system's by name."""
    by_name: dict[str, list[Command]] = {}
    for command in sorted(commands, key=_order(first)):
        by_name.setdefault(" ".join(command.name.casefold().split()), []).append(command)
    problems: list[str] = []
    groups: dict[str, dict[str, Slash]] = {}
    for name, same in sorted(by_name.items()):
        words = name.split()
        top = words[0]
        sub = "-".join(words[1:]) or top  # the bare word beside its subcommands runs as /word word
        if not valid_name(top) or not valid_name(sub):
            problems.append(f"{name}: no Discord name (reach it with /gw)")
            continue
        groups.setdefault(top, {})[sub if len(words) > 1 else ""] = leaf(sub, name, same, problems)
    for slash in extra:
        groups.setdefault(slash.name, {}).update({s.name: s for s in slash.subcommands})
    tops: list[Slash] = []
    for top, members in sorted(groups.items()):
        if top == GW:
            problems.append("gw: the name of /gw; the command is reached with /gw text:gw ...")
            continue
        if set(members) == {""}:
            tops.append(dataclasses.replace(members[""], name=top))
            continue
        bare = members.pop("", None)
        if bare is not None:
            members[top] = bare
        subs = tuple(members[k] for k in sorted(members))
        if len(subs) > MAX_OPTIONS:
            left = ", ".join(f"{top} {s.name}" for s in subs[MAX_OPTIONS:])
            problems.append(f"{top}: over Discord's {MAX_OPTIONS} subcommands, reach with /gw: {left}")
            subs = subs[:MAX_OPTIONS]
        description = bare.description if bare is not None else f"{top}: " + ", ".join(s.name for s in subs)
        tops.append(
            Slash(
                top,
                description,
                bare.texts if bare is not None else {},
                subcommands=subs,
                storyteller=all(s.storyteller for s in subs),
            )
        )
    for made in tops:
        if text_size(made.definition()) > MAX_TEXT:
            problems.append(f"{made.name}: over Discord's {MAX_TEXT} characters even in English")
    tops.append(Slash(GW, "Any gateway command line", GW_TEXTS, words="", params=(GW_TEXT,)))
    tops.sort(key=lambda s: s.name)
    if len(tops) > MAX_COMMANDS:
        problems.append(
            f"over Discord's {MAX_COMMANDS} commands: " + ", ".join(s.name for s in tops[MAX_COMMANDS:])
        )
        tops = [s for s in tops if s.name == GW] + [s for s in tops if s.name != GW][: MAX_COMMANDS - 1]
        tops.sort(key=lambda s: s.name)
    private = {name: any(c.private for c in same) for name, same in by_name.items()}
    return Slashes(tuple(tops), tuple(problems), private)


@dataclass(frozen=True)
class Slashes:
    """The generated slash commands, and what could not be offered as one (reached with ``/gw``)."""

    commands: tuple[Slash, ...]
    problems: tuple[str, ...] = ()
    # Every command name -> whether it answers privately, for a line typed into ``/gw``.
    private: Mapping[str, bool] = field(default_factory=dict)

    def definitions(self) -> list[dict[str, Any]]:
        return [c.definition() for c in self.commands]

    def get(self, name: str) -> Slash | None:
        return next((c for c in self.commands if c.name == name), None)

    def answers_privately(self, line: str) -> bool:
        """Whether the command a ``/gw`` line begins with (its longest name) answers privately."""
        words = line.casefold().split()
        named = (" ".join(words[:n]) for n in range(len(words), 0, -1))
        return next((self.private[name] for name in named if name in self.private), False)

    def chosen(self, data: Mapping[str, Any]) -> tuple[Slash, Sequence[Mapping[str, Any]]] | None:
        """The slash command or subcommand ``data`` invokes, and its options."""
        slash = self.get(str(data.get("name", "")))
        if slash is None:
            return None
        options = data.get("options") or []
        if not slash.subcommands:
            return slash, options
        picked = next((o for o in options if o.get("type") == SUB_COMMAND), None)
        sub = slash.sub(str(picked.get("name"))) if picked is not None else None
        if sub is None or picked is None:
            return None
        return sub, picked.get("options") or []


# --------------------------------------------------------------------------- the running gateway


def registered(services: AdapterServices) -> list[Command]:
    """Every registered command of the core and the rule systems, once each (aliases left out). The
    gateway's services hold the plugins; the adapter protocol does not promise them, so a stand-in
    without them offers only ``/gw``."""
    plugins = getattr(services, "plugins", None)
    if plugins is None:
        return []
    table: Mapping[tuple[str | None, str], Command] = plugins.registry.commands
    return [command for (_, name), command in table.items() if name == command.name]


_BUILT: weakref.WeakKeyDictionary[Any, Slashes] = weakref.WeakKeyDictionary()


def of(services: AdapterServices) -> Slashes:
    """The slash commands of the running gateway, built once per plugin registry."""
    from adapters.discord import macro_command  # it builds on this module

    plugins = getattr(services, "plugins", None)
    registry = getattr(plugins, "registry", None)
    if registry is not None and registry in _BUILT:
        return _BUILT[registry]
    first = services.settings.gateway.default_system
    slashes = build(registered(services), (macro_command.command(),), first)
    for problem in slashes.problems:
        log.info("discord slash command left out", problem=problem)
    if registry is not None:
        _BUILT[registry] = slashes
    return slashes


def definitions(commands: Iterable[Command] | Slashes, first: str | None = None) -> list[dict[str, Any]]:
    """The JSON array for the bulk-overwrite PUT (``gateway discord register``): deterministic, so
    the same commands give the same array and a sync that compares finds nothing to change.
    ``first``: the system whose words describe a command several declare (the default system)."""
    if isinstance(commands, Slashes):
        return commands.definitions()
    from adapters.discord import macro_command

    return build(commands, (macro_command.command(),), first).definitions()


# Keys compared both ways by ``changed`` (with what Discord's stored command shows when unset); the
# other keys of ours are compared where Discord echoes them (``required``: false is left out).
BOTH_WAYS: dict[str, Any] = {
    "options": [],
    "choices": [],
    "default_member_permissions": None,
    "name_localizations": None,
    "description_localizations": None,
}
ECHO_DEFAULTS: dict[str, Any] = {"required": False}


def _same(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, dict):
        if not isinstance(theirs, dict):
            return False
        keys = set(ours) | (set(BOTH_WAYS) & set(theirs))
        return all(
            _same(
                ours.get(k, BOTH_WAYS.get(k)),
                theirs.get(k, ECHO_DEFAULTS.get(k)) if k not in BOTH_WAYS else theirs.get(k) or BOTH_WAYS[k],
            )
            for k in keys
        )
    if isinstance(ours, list):
        return isinstance(theirs, list) and len(ours) == len(theirs) and all(map(_same, ours, theirs))
    return bool(ours == theirs)


def changed(stored: Sequence[Mapping[str, Any]], wanted: Sequence[Mapping[str, Any]]) -> list[str]:
    """The names of the commands a bulk overwrite with ``wanted`` would change in ``stored`` (what
    ``GET /applications/{id}/commands?with_localizations=true`` returns): [] when registering again
    would change nothing, so a process may skip the PUT. Discord's own fields (``id``, ``version``)
    are not compared."""
    by_name = {str(c.get("name")): c for c in stored}
    names = {str(w.get("name")) for w in wanted}
    out = [str(w["name"]) for w in wanted if not _same(dict(w), by_name.get(str(w["name"])))]
    return out + sorted(name for name in by_name if name not in names)


# --------------------------------------------------------------------------- the way back


@dataclass
class Parsed:
    """The command line of an interaction. ``before``: (an optional positional parameter left out, a
    later one given): the line would read the later value as the earlier one (``init join physical:3``
    as a character named 3), so the adapter answers ``texts`` ``option.before`` instead of running it."""

    line: str
    private: bool
    options: dict[str, Any] = field(default_factory=dict)
    before: tuple[Param, Param] | None = None


def _values(options: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    return {str(o.get("name")): o.get("value") for o in options or [] if "value" in o}


def _typed(param: Param, value: Any) -> tuple[Param, Any]:
    """``param`` and ``value`` as ``render`` takes them: whitespace folded, a value of the wrong type
    (a forged payload) passed on as a word for the router to refuse in the reader's language."""
    if value is None:
        return param, None
    if isinstance(value, str):
        value = " ".join(value.split())
        if not param.rest and '"' in value and "'" in value:
            value = value.replace('"', "'")  # one quote kind left to quote a name with spaces in
        # (``render`` quotes a word that starts with a quote: quoting it here too quoted it twice)
    if param.kind == "flag":
        return param, value is True
    if param.kind == "person" and isinstance(value, str) and value.isascii() and value.isdigit():
        return param, f"{PLATFORM}:{value}"  # a picked user's id (a USER option's value)
    if (
        param.kind in INTEGER_KINDS
        and not param.many
        and (isinstance(value, bool) or not isinstance(value, int))
    ):
        return dataclasses.replace(param, kind="word"), str(value)
    return param, value


def command_line(data: Mapping[str, Any], slashes: Slashes) -> Parsed | None:
    """The gateway command line for an APPLICATION_COMMAND's ``data``; None for a command (or
    subcommand) that is not among ``slashes``."""
    found = slashes.chosen(data)
    if found is None:
        return None
    slash, options = found
    values = _values(options)
    if slash.name == GW and slash.words == "":
        text = " ".join(str(values.get("text") or "").split())
        private = slashes.answers_privately(text)
        return Parsed(line=text, private=private or "secret" in text.casefold().split())
    words = str(slash.words)
    typed = dict(_typed(p, values.get(p.name)) for p in slash.params)
    before = _gap(slash, {p.name: v for p, v in typed.items()})
    # A keyword parameter that takes the rest of the line goes last (``vs POOL``), or it would
    # swallow the flags and keyword values rendered after it.
    params = tuple(sorted(typed, key=lambda p: bool(p.keyword and p.rest)))
    line = " ".join([words, *render(params, {p.name: v for p, v in typed.items()})]).strip()
    flagged = any(p.kind == "flag" and p.keyword == "secret" and v for p, v in typed.items())
    return Parsed(line=line, private=slash.private or flagged, options=values, before=before)


def _given(param: Param, value: Any) -> bool:
    if param.kind == "modifier" and isinstance(value, int) and not isinstance(value, bool):
        return value != 0  # a modifier of 0 is left out of the line
    return value is not None and value != "" and value is not False


def _gap(slash: Slash, values: Mapping[str, Any]) -> tuple[Param, Param] | None:
    """(the first positional parameter left out before one given, that one) when every command that
    could read the options (declares each positional one given) would read the later value in the
    earlier one's place; None when one reads them as a person would type them."""
    given = {p.name for p in slash.params if not p.keyword and _given(p, values.get(p.name))}
    if not given:
        return None
    found: tuple[Param, Param] | None = None
    for order in slash.orders:
        if not given <= set(order):
            continue
        last = max(order.index(name) for name in given)
        missing = next((name for name in order[:last] if name not in given), None)
        if missing is None:
            return None
        if found is None:
            later = next(name for name in order[order.index(missing) :] if name in given)
            found = (_must(slash.param(missing)), _must(slash.param(later)))
    return found


def _must(param: Param | None) -> Param:
    assert param is not None, "a declared parameter is among the merged ones"
    return param


@dataclass(frozen=True)
class Focused:
    """The option an autocomplete interaction is about: its parameter, what autocomplete offers for
    it (a ``Param`` kind, ``choice`` or ``macro``) and what the user has typed so far."""

    param: Param
    complete: str
    typed: str


def focused(data: Mapping[str, Any], slashes: Slashes) -> Focused | None:
    """The focused option of an APPLICATION_COMMAND_AUTOCOMPLETE's ``data``; None when it names no
    option of ours that completes."""
    found = slashes.chosen(data)
    if found is None:
        return None
    slash, options = found
    typed = next((o for o in options if o.get("focused")), None)
    if typed is None:
        return None
    name = str(typed.get("name"))
    param, complete = slash.param(name), slash.completes.get(name)
    if param is None or complete is None:
        return None
    return Focused(param, complete, str(typed.get("value") or ""))
