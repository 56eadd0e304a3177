"""What the running gateway offers handlers and adapters, built in one step from the settings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from gateway.core.core_messages import locale_for
from gateway.core.dice import DiceSource
from gateway.core.events import Events
from gateway.core.offload import Offload
from gateway.core.router import Handled, Router, StateOf
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage, Reply
from gateway.delivery.leases import Leases
from gateway.delivery.outbox import Outbox
from gateway.vault import Vault
from gateway.vault.models import utcnow
from gateway.vault.sender import read_locales

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    from gateway.core.plugins import Plugins
    from gateway.core.spec import RuleSystem
    from gateway.core.summary import SheetSummary
    from gateway.core.web_pages import WebPage
    from gateway.vault.models import Character

T = TypeVar("T")


class Services:
    """The settings, the plugins, the dice and the clock it is given; the vault (with its event hub),
    the leases, the outbox, the router and the offload pool it builds from them. Handlers see it as
    ``ctx.services``; adapters get it as ``AdapterServices``, the part that is theirs to use."""

    def __init__(
        self,
        settings: Settings,
        plugins: Plugins,
        *,
        dice: DiceSource,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.settings = settings
        self.plugins = plugins
        self.dice = dice
        self.clock = clock
        # What units of work did, after they commit (``gateway.core.events``); the vault fires it.
        self.events = Events()
        self.vault = Vault(
            settings.vault.url,
            busy_timeout_ms=settings.vault.busy_timeout_ms,
            group_commit=settings.vault.group_commit,
            events=self.events,
        )
        # Ownership of once-per-deployment work (IRC connections, Matrix sync loops).
        self.leases = Leases(self.vault, settings.cluster.failover_seconds)
        self.outbox = Outbox(self)
        self.router = Router(self)
        # Heavy pure work off the event loop (``gateway.core.offload``); ``Gateway.stop`` shuts it down.
        # The forkserver imports the rule systems' command modules once, for every worker.
        handlers = {c.handler.__module__ for c in plugins.registry.commands.values() if c.system}
        self.offload = Offload(
            settings.gateway.offload_workers, settings.gateway.offload_timeout, sorted(handlers)
        )
        # Per-process scratch space (``ready`` for /healthz, caches a plugin keeps per gateway).
        self.state: dict[str, object] = {}

    async def handle(self, message: InboundMessage) -> list[Reply]:
        """Run one inbound message through the router; the outbox wakes for what it queued."""
        return await self.router.handle(message)

    async def run(self, message: InboundMessage, state: StateOf[T] | None = None) -> Handled[T]:
        """``handle``, with what the message's unit learnt: the sender, the reader's language, the
        Storyteller flag, and ``state``'s answer, a read the adapter runs inside that same unit."""
        return await self.router.run(message, state)

    async def sheet_summary(
        self, session: AsyncSession, character: Character, locale: str | None = None
    ) -> SheetSummary:
        """What the character's rule system says its sheet shows (``RuleSystem.summary``)."""
        return await self.plugins.load_summary(session, character, locale)

    def bare_command(self, text: str) -> str | None:
        """``text`` when the whole line is the name of a command that runs without the prefix on chat
        platforms (Decanter's ``* * *``), in any rule system; else None."""
        return self.plugins.registry.bare_match(text)

    def systems(self) -> Mapping[str, RuleSystem]:
        """The installed rule systems by name."""
        return self.plugins.systems()

    def system_settings(self, system: str) -> object | None:
        """The rule system's validated settings section (``[nightcap]``), None when it has none."""
        return self.plugins.system_settings.get(system)

    def web_tools(self) -> list[WebPage]:
        """Every public web tool: each rule system's, then the system-free ones (``gateway_web_tools``)."""
        return self.plugins.web_tools()

    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None:
        """How the roll's own rule system tells a logged roll (``RuleSystem.roll_text``); None when
        none does."""
        return self.plugins.roll_text(roll, locale)

    async def reader_locale(self, identity: Identity, channel: Channel, fallback: str | None = None) -> str:
        """The language the router would answer ``identity`` in, in ``channel``: the person's ``lang``,
        else the channel's, else the channel's rule system's, else ``fallback`` (an adapter's own guess,
        such as the Discord client's language) or ``[gateway] locale``. For words an adapter says itself
        (button labels, its own refusals)."""
        async with self.vault.read() as unit:
            person, channel_locale, channel_system = await read_locales(unit, identity, channel)
        system = self.plugins.systems().get(channel_system or self.settings.gateway.default_system)
        default = fallback or (system.default_locale if system else None) or self.settings.gateway.locale
        return locale_for(person, channel_locale, default)


class Waker(Protocol):
    def wake(self, platforms: Iterable[str] | None = None) -> None:
        """The workers of these platforms (all when None) look for due rows now."""


class AdapterServices(Protocol):
    """What an adapter may use of the running gateway (``Services`` is one): run an inbound message,
    read settings and the clock, reach the vault through the core's adapter API (``gateway.delivery.queue``,
    ``gateway.core.adapter_state``, ``gateway.delivery.seen``), hold leases, subscribe to events, and wake its
    outbox worker when something other than a commit makes rows due (a connection came up). The web
    adapter's public tools also use the dice, the offload pool and what the rule systems offer."""

    @property
    def settings(self) -> Settings: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...
    @property
    def vault(self) -> Vault: ...
    @property
    def leases(self) -> Leases: ...
    @property
    def events(self) -> Events: ...
    @property
    def outbox(self) -> Waker: ...
    @property
    def dice(self) -> DiceSource: ...
    @property
    def offload(self) -> Offload: ...

    async def handle(self, message: InboundMessage) -> list[Reply]: ...
    async def run(self, message: InboundMessage, state: StateOf[T] | None = None) -> Handled[T]: ...
    async def sheet_summary(
        self, session: AsyncSession, character: Character, locale: str | None = None
    ) -> SheetSummary: ...
    def bare_command(self, text: str) -> str | None: ...
    def systems(self) -> Mapping[str, RuleSystem]: ...
    def system_settings(self, system: str) -> object | None: ...
    def web_tools(self) -> list[WebPage]: ...
    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None: ...
    async def reader_locale(
        self, identity: Identity, channel: Channel, fallback: str | None = None
    ) -> str: ...
