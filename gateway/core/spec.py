"""The declarations a plugin hands the gateway: rule systems, commands, adapters, CLI commands.

A leaf module (at run time it imports only the leaf ``gateway.core.params``), so that ``gateway`` can
re-export these and any module can import them without an import cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from gateway.core.params import Param, usage

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gateway.core.adapter import Adapter
    from gateway.core.commands import CommandContext
    from gateway.core.i18n import Catalogue
    from gateway.core.offload import Awaited, Offloaded
    from gateway.core.services import AdapterServices
    from gateway.core.sheet_spec import SheetSpec
    from gateway.core.summary import SheetSummary
    from gateway.core.types import Invocation, Reply
    from gateway.core.web_pages import WebPage
    from gateway.rules.roll_distribution import RollDistribution
    from gateway.vault.models import Character

Role = Literal["anyone", "player", "storyteller"]
# An ``Offloaded`` answer is computed off the event loop (an ``Awaited`` one awaited) once the
# handler's unit has ended.
Handler = Callable[
    ["CommandContext", "Invocation"], Awaitable["Sequence[Reply] | Reply | Offloaded[Any] | Awaited | None"]
]


class _Undeclared(tuple[Param, ...]):
    """``Command.params`` left out: no declaration, as against ``params=()``, "takes no arguments".
    An empty tuple everywhere else; told apart by its type (which survives pickling), not identity."""

    __slots__ = ()


UNDECLARED: tuple[Param, ...] = _Undeclared()


@dataclass(frozen=True)
class Command:
    """A command. ``role``: ``anyone`` (unverified identities too), ``player`` (a verified identity,
    the default) or ``storyteller``. ``usage`` is shown by ``help`` and in errors.

    ``bare``: on chat platforms (``prefixed`` messages) the command also runs without the prefix when
    the whole message is exactly its name, such as Decanter's scene marker ``* * *``. Such a line in a
    channel whose system has no command of that name stays ordinary chat: no reply, nothing written.

    ``claims``: a system-free command with it takes the lines whose words after its name it accepts,
    even where the channel's system has a command of that name (``roll 2d6+3`` is dice notation in
    every channel); other lines go to the system's command of that name, and under an alias to
    nothing (``r 2d6`` rolls notation; ``r 3`` may call a macro named ``r``).

    ``private``: the command always answers privately (a sheet, the Storyteller log), so an adapter
    that must say before the answer whether it is public (Discord's deferral of a slow command) keeps
    it private from the start.
    """

    name: str
    handler: Handler
    summary: str
    usage: str = ""
    system: str | None = None
    role: Role = "player"
    aliases: tuple[str, ...] = ()
    bare: bool = False
    # ``help`` in other languages: locale -> (summary, usage). A locale missing here shows English.
    texts: Mapping[str, tuple[str, str]] = field(default_factory=dict, hash=False, compare=False)
    claims: Callable[[Sequence[str]], bool] | None = field(default=None, hash=False, compare=False)
    # Typed parameters (``gateway.core.params``): the router binds the words to them (``Invocation.args``)
    # and every adapter reads them for its options, completion and forms. ``()``: the command takes no
    # arguments. Left out (``UNDECLARED``): the handler reads ``Invocation.words`` itself and adapters
    # offer free text.
    params: tuple[Param, ...] = field(default=UNDECLARED, hash=False, compare=False)
    private: bool = False

    def __post_init__(self) -> None:
        if self.params and not self.usage:
            object.__setattr__(self, "usage", usage(self.name, self.params))

    @property
    def declared(self) -> bool:
        """Whether its parameters are declared (``params=()`` included)."""
        return not isinstance(self.params, _Undeclared)

    def summary_in(self, locale: str) -> str:
        return self.texts[locale][0] if locale in self.texts else self.summary

    def usage_in(self, locale: str) -> str:
        return self.texts[locale][1] if locale in self.texts else self.usage


@runtime_checkable
class HasCommands(Protocol):
    """A set of commands read when the system is registered (``gateway.CommandSet``)."""

    def commands(self) -> list[Command]: ...


CommandSource = HasCommands | Sequence[Command]


class DegreeColour:
    """The one scale every system's degree words are coloured on (``RuleSystem.degree_colours``),
    from a botch to the book's best degree, as 0xRRGGBB: each system names its degrees differently,
    the colours mean the same on every platform."""

    BOTCH = 0xC0392B
    FAILURE = 0x7F8C8D
    PARTIAL = 0xE67E22
    SUCCESS = 0x2ECC71
    STRONG = 0x3498DB
    BEST = 0xF1C40F


class RuleSystem:
    """A game system, registered as one object (``gateway_register_rule_systems``): the core
    dispatches on a channel's, a character's or a logged roll's ``system`` to it and calls its
    methods. Give the declarations to the constructor; subclass to answer the methods (``summary``,
    ``roll_text``, ``roll_distribution``), whose defaults leave the core's generic answer.

    ``commands``: the system's commands (a ``CommandSet`` or ``Command`` objects; a command with no
    ``system`` is given this one); they run in channels of this system only.

    ``titles``: its name in other languages (locale -> title, ``title_in``), where a book has one
    (Night Wanderers is «Ночные скитальцы» in Russian); ``title`` otherwise.

    ``locales``: its message languages, ``default_locale`` the book's. ``catalogue``: its message
    catalogue (``gateway.core.i18n.Catalogue``); its ``degree.<word>`` keys name the degree words a
    roll logs, which ``stats`` shows in the reader's language (``verify`` too, where ``roll_text``
    answers with ``gateway.rules.roll_text.catalogue_roll_text``).

    ``degree_colours``: each degree word a roll of the system logs -> its colour
    (``DegreeColour``); adapters colour a roll with it (Discord's embeds).

    ``settings_model``: a pydantic model of the system's ``[<name>]`` settings table, validated at
    start (a bad table stops the gateway naming the field); handlers read it with
    ``ctx.settings_for(Model)``.

    ``sheet_model``: a pydantic model a stored sheet document (``Character.sheet``) must satisfy;
    ``gateway import characters`` refuses a sheet it rejects. None: any JSON object is taken.
    ``sheet``: the sheet's declaration (``gateway.core.sheet_spec.SheetSpec``: fields, groups, ranges,
    who edits each, labels, the command lines that edit it): the core derives ``summary`` from it
    and the web draws the sheet page and its editor. None: no sheet pages, the core's bare summary.

    ``house_rules``: a ``gateway.features.house_rules.HouseRules`` model of the system's switches (each
    field's default is the book's rule); a channel's are changed with ``house set`` and handlers
    read them as ``ctx.house_rules(Model)``. None: the system has none.

    ``web_tools``: its public pages under ``/tools/``, each naming this system: odds forms
    (``gateway.core.web_tool.WebTool``), a dice roller practice table or a budget calculator
    (``gateway.core.web_pages``).

    ``defences``: the traits a character answers a challenge with (a Defend button each on Discord);
    empty when the system has no challenges."""

    def __init__(
        self,
        name: str,
        title: str,
        dice: str,
        *,
        default_locale: str = "en",
        locales: tuple[str, ...] = ("en",),
        describe: str = "",
        titles: Mapping[str, str] | None = None,
        commands: CommandSource = (),
        catalogue: Catalogue | None = None,
        degree_colours: Mapping[str, int] | None = None,
        settings_model: type[BaseModel] | None = None,
        sheet_model: type[BaseModel] | None = None,
        sheet: SheetSpec | None = None,
        house_rules: type[BaseModel] | None = None,
        web_tools: Sequence[WebPage] = (),
        defences: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.title = title
        self.dice = dice
        self.default_locale = default_locale
        self.locales = locales
        self.describe = describe
        self.titles: Mapping[str, str] = dict(titles or {})
        self.catalogue = catalogue
        self.degree_colours: Mapping[str, int] = dict(degree_colours or {})
        self.settings_model = settings_model
        self.sheet_model = sheet_model
        self.sheet = sheet
        self.house_rules = house_rules
        self.web_tools = tuple(web_tools)
        self.defences = defences
        self._commands = commands

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def title_in(self, locale: str) -> str:
        """The system's name as a reader of ``locale`` knows it."""
        return self.titles.get(locale, self.title)

    def commands(self) -> list[Command]:
        """The system's commands, each tied to it."""
        found = self._commands.commands() if isinstance(self._commands, HasCommands) else self._commands
        out: list[Command] = []
        for command in found:
            if command.system not in (None, self.name):
                raise ValueError(f"command {command.name!r} of {command.system!r} given to {self.name!r}")
            out.append(command if command.system == self.name else replace(command, system=self.name))
        return out

    def summary(
        self, character: Character, pools: Mapping[str, tuple[int, int]], locale: str
    ) -> SheetSummary | None:
        """What ``character``'s sheet shows (a ``gateway.core.summary.SheetSummary``), for a character of
        this system. ``pools`` are its ``Pool`` rows as ``name -> (current, maximum)``; ``locale``
        the reader's language (the book's when the reader has none). Read the sheet as the commands
        do; keep labels in the book's terms. Pure and quick: it runs for every HUD refresh. Adapters
        draw it (a Discord embed, a Second Life HUD's menus, a web page) without knowing the system.
        The default reads the declared ``sheet``; None without one (the core shows name, system and
        status only). Override only where the book's sheet needs code."""
        if self.sheet is None:
            return None
        if self.sheet_model is not None:
            try:
                self.sheet_model.model_validate(character.sheet or {})
            except ValueError:  # a hand-edited vault: the HUD still draws, ``sheet`` says what is wrong
                return None
        return self.sheet.summarise(
            character.name, self.name, character.status, character.sheet or {}, pools, locale
        )

    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None:
        """How ``verify`` shows a logged roll of this system: ``roll`` is the result the command logged
        (``RollLog.result``), ``locale`` the reader's language. Return the dice part of the line (each
        side of a contest with its dice, total and degree, and the outcome, in the book's terms);
        None (the default) leaves the core's line with the stored words (``gateway.rules.roll_text``).
        ``gateway.rules.roll_text.catalogue_roll_text`` is the core's line with each degree word read
        from the catalogue's ``degree.<word>`` in the reader's language. Pure and quick."""
        return None

    def roll_distribution(self, roll: Mapping[str, Any]) -> RollDistribution | None:
        """What ``stats`` counts of a logged roll of this system (``roll`` as ``roll_text`` gets it):
        a ``gateway.rules.roll_distribution.RollDistribution`` (the die size, every face drawn, the
        result's label and the exact odds of each label for that kind of roll; ``distribution``
        there builds one), or None for a roll it does not count (the default: none). Pure and
        quick: it runs once per roll counted (cache the exact odds by the roll's parameters)."""
        return None

    def degree_name(self, locale: str, label: str) -> str:
        """A logged degree word as the catalogue names it in ``locale`` (``degree.<label>``); the
        word itself when the catalogue has no such key."""
        catalogue = self.catalogue
        key = f"degree.{label}"
        if catalogue is None or key not in catalogue.messages.get(catalogue.fallback, {}):
            return label
        return str(catalogue.t(locale, key))


@dataclass(frozen=True)
class AdapterSpec:
    """A platform. ``build(services, section)`` returns the adapter, or None when the platform's
    settings table does not configure it. ``everywhere(services, section)``, if given, runs in every
    gateway process built with these settings, also one that does not run this adapter
    (``gateway console`` beside ``gateway serve`` on one vault): the place to subscribe to events
    for work that must go with each change whichever process makes it (Second Life queues its HUD
    refresh notices in the unit that edited the sheet)."""

    platform: str
    build: Callable[[AdapterServices, dict[str, Any]], Adapter | None]
    everywhere: Callable[[AdapterServices, dict[str, Any]], None] | None = None


@dataclass(frozen=True)
class CliCommand:
    """A ``gateway`` subcommand a plugin adds: ``name`` is one word (``"status"``) or two
    (``"discord register"``, ``"sync discord"``); commands sharing a first word are grouped under it.
    ``configure(parser)`` adds the arguments; ``run(args, settings)`` returns the exit code."""

    name: str
    help: str
    run: Callable[[Any, Any], int]
    configure: Callable[[Any], None] | None = None
