"""Test doubles for the gateway, its plugins and third-party adapters: a chat over a real router, a
settable clock, an adapter that records what the outbox delivers, and fresh vaults.

``pip install nightcap-gateway`` brings the pytest plugin ``gateway.testing.plugin`` along (entry point
``pytest11``), so the fixtures ``chat``, ``any_chat``, ``vault_url`` and ``sqlite_url`` are there in any
project's tests with no ``conftest.py``; the names below are imported from ``gateway.testing``::

    async def test_flip(chat: Chat) -> None:
        chat.dice.extend([2, 1])
        assert (await chat.one("flip 2")).result["successes"] == 1

The async fixtures need pytest-asyncio (the ``test`` extra has it).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from gateway.core.adapter import Adapter
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.hookspecs import hookimpl
from gateway.core.registry import AdapterSpec
from gateway.core.services import Services
from gateway.core.settings import Settings
from gateway.core.spec import RuleSystem
from gateway.core.types import Channel, Identity, InboundMessage, Outbound, Reply
from gateway.vault.repo import StlogLine, stlog_entries

__all__ = [
    "POSTGRES_URL_VARIABLE",
    "Chat",
    "Clock",
    "FakeAdapter",
    "adapter_plugin",
    "eventually",
    "make_settings",
    "migrated_vault",
    "postgres_database",
    "rule_system_plugin",
    "start_chat",
]

POSTGRES_URL_VARIABLE = "GATEWAY_TEST_POSTGRES_URL"
"""The environment variable naming a PostgreSQL server for tests (``postgresql+asyncpg://.../db``):
when it is set, ``vault_url`` and ``any_chat`` run each test on PostgreSQL too, in a database of its own."""


@dataclass
class Clock:
    """A clock that stands still until told: ``clock.advance(minutes=11)``, or set ``clock.now``.

    Pass it as the gateway's ``clock`` (``start_chat`` does), so time-dependent rules (link codes,
    challenge timeouts, outbox retries) are tested without waiting."""

    now: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 20, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        """Move time forward by ``timedelta(**kw)``: ``advance(seconds=30)``."""
        self.now += timedelta(**kw)


@dataclass
class Chat:
    """A running gateway to talk to as users do: ``await chat.say("roll 3", as_="mira")`` returns the
    replies; ``chat.dice.extend([9, 5, 10])`` scripts the next faces; ``chat.clock`` moves time.

    Messages go through the real router and a real vault, so what a test sees is what a platform
    would be answered. ``start_chat`` builds one; the ``chat`` and ``any_chat`` fixtures stop it."""

    gateway: Gateway
    dice: ScriptedDice
    clock: Clock
    # The page size every message says unless told (``InboundMessage.page_bytes``; IRC's is 350).
    page_bytes: int | None = None

    @property
    def services(self) -> Services:
        """The gateway's services (vault, router, settings, outbox), for tests that look behind a reply."""
        return self.gateway.services

    async def say(
        self,
        text: str,
        as_: str = "alice",
        *,
        platform: str = "console",
        channel: str = "main",
        st: bool = False,
        verified: bool = True,
        message_id: str | None = None,
        prefixed: bool = False,
        page_bytes: int | None = None,
    ) -> list[Reply]:
        """Say ``text`` as user ``as_`` in ``channel``; the replies. ``st=True`` says it with the
        Storyteller role the platform vouches for; ``verified=False`` as an unverified identity."""
        message = InboundMessage(
            sender=Identity(platform=platform, id=as_, display_name=as_.title(), verified=verified),
            channel=Channel(platform=platform, id=channel),
            text=text,
            message_id=message_id,
            roles=frozenset({"storyteller"}) if st else frozenset(),
            prefixed=prefixed,
            page_bytes=page_bytes if page_bytes is not None else self.page_bytes,
        )
        return await self.gateway.services.handle(message)

    async def one(self, text: str, as_: str = "alice", **kw: Any) -> Reply:
        """Like ``say``, for a command that answers with exactly one reply (asserted); that reply."""
        replies = await self.say(text, as_, **kw)
        assert len(replies) == 1, replies
        return replies[0]

    async def stlog(self) -> list[StlogLine]:
        """The whole Storyteller log as ``st log`` reads it (rolls and other entries), oldest first."""
        async with self.gateway.services.vault.transaction() as session:
            return await stlog_entries(session, limit=1_000_000)

    def retry_now(self) -> None:
        """Let the outbox retry what failed now: the clock stands still, so a backoff never ends by
        itself; this moves it past the longest backoff and wakes every delivery worker."""
        outbox = self.gateway.services.settings.outbox
        self.clock.advance(seconds=outbox.max_delay * 1.5 + 1)
        self.gateway.outbox.wake()

    async def stop(self) -> None:
        """Stop the gateway: its adapters and outbox workers, then the vault."""
        await self.gateway.stop()


class FakeAdapter(Adapter):
    """An adapter for any platform name that keeps what the outbox delivers to it, so a plugin or a
    third-party adapter tests the outbox path (queued replies, Storyteller-log lines, retries) with
    no platform behind it.

    ``FakeAdapter("echo")`` serves platform ``echo``; run it with ``start_chat(url, adapters=[fake])``
    (or register ``fake.plugin()`` with a ``Gateway``). ``delivered`` holds the rows delivered, in
    order; ``attempts`` every call of ``deliver``, failed ones too. ``fail(...)`` makes the next
    deliveries raise, say, ``RetryLater`` or ``DeliveryFailed``. The outbox marks a row delivered just
    after ``deliver`` returns, so read the vault's rows only once the outbox has settled them."""

    def __init__(self, platform: str = "fake") -> None:
        # ``Adapter.platform`` is a class attribute on real adapters; one double serves any name.
        vars(self)["platform"] = platform
        self.delivered: list[Outbound] = []
        self.attempts: list[Outbound] = []
        self.running = False
        self._failures: dict[str | None, list[BaseException]] = {}

    def fail(self, *errors: BaseException, target: str | None = None) -> None:
        """The next deliveries (to ``target``, or to any target when None) raise ``errors``, one per
        attempt, in order: ``fake.fail(RetryLater("503"), DeliveryFailed("webhook deleted"))``."""
        self._failures.setdefault(target, []).extend(errors)

    def texts(self, target: str | None = None) -> list[str]:
        """The text of each delivered row (to ``target`` only, when given), in order."""
        return [m.text for m in self.delivered if target is None or m.target == target]

    async def wait_for(self, count: int = 1, *, timeout: float = 30.0) -> list[Outbound]:
        """Wait until ``count`` rows in all have been delivered; the delivered rows. Fails after
        ``timeout`` seconds, saying what did arrive."""
        await eventually(lambda: len(self.delivered) >= count, timeout=timeout, message=self._progress)
        return list(self.delivered)

    async def wait_for_attempts(self, count: int = 1, *, timeout: float = 30.0) -> list[Outbound]:
        """Wait until ``deliver`` has been called ``count`` times in all (failed attempts count); they."""
        await eventually(lambda: len(self.attempts) >= count, timeout=timeout, message=self._progress)
        return list(self.attempts)

    def plugin(self) -> object:
        """A plugin that registers this adapter for its platform (for ``Gateway(extra_plugins=...)``)."""
        return adapter_plugin(self)

    async def start(self) -> None:
        self.running = True

    async def stop(self) -> None:
        self.running = False

    async def deliver(self, message: Outbound) -> None:
        """Record ``message``; raise the next scripted failure for its target instead, if any."""
        self.attempts.append(message)
        failures = self._failures.get(message.target) or self._failures.get(None)
        if failures:
            raise failures.pop(0)
        self.delivered.append(message)

    def _progress(self) -> str:
        return f"{self.platform}: delivered {self.texts()!r} in {len(self.attempts)} attempts"


class _AdapterPlugin:
    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter

    @hookimpl
    def gateway_register_adapters(self, register: Callable[[AdapterSpec], None]) -> None:
        register(AdapterSpec(platform=self.adapter.platform, build=lambda services, section: self.adapter))


def adapter_plugin(adapter: Adapter) -> object:
    """A plugin that registers ``adapter`` (already built) for ``adapter.platform``."""
    return _AdapterPlugin(adapter)


class _RuleSystemPlugin:
    def __init__(self, systems: tuple[RuleSystem, ...]) -> None:
        self.systems = systems

    @hookimpl
    def gateway_register_rule_systems(self, register: Callable[[RuleSystem], None]) -> None:
        for system in self.systems:
            register(system)


def rule_system_plugin(*systems: RuleSystem) -> object:
    """A plugin that registers ``systems`` (for ``Gateway(extra_plugins=...)``; ``start_chat(systems=...)``
    does it for you): a rule system is one object, its commands with it."""
    return _RuleSystemPlugin(systems)


async def eventually(
    done: Callable[[], bool],
    *,
    timeout: float = 30.0,
    interval: float = 0.02,
    message: str | Callable[[], str] = "the condition never held",
) -> None:
    """Wait until ``done()`` is true, checking every ``interval`` seconds: for what the gateway does
    after a reply (outbox deliveries, background tasks). Fails after ``timeout`` seconds with
    ``message`` (or what ``message()`` says then)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        if loop.time() >= deadline:
            raise AssertionError(message() if callable(message) else message)
        await asyncio.sleep(interval)


def make_settings(url: str, **sections: Any) -> Settings:
    """Settings on the vault at ``url``, with ``sections`` as the TOML tables would give them:
    ``make_settings(url, outbox={"base_delay": 0.01}, nightcap={"wound_penalties": True})``."""
    return Settings(vault={"url": url}, **sections)


async def start_chat(
    url: str,
    *,
    extra_plugins: Iterable[object] = (),
    systems: Iterable[RuleSystem] = (),
    adapters: Iterable[Adapter] = (),
    platforms: Iterable[str] = (),
    **sections: Any,
) -> Chat:
    """A started gateway on a migrated vault at ``url``, with scripted dice and a ``Clock``; call
    ``await chat.stop()`` when done (the fixtures do).

    Installed plugins (entry points) are loaded as in production, and ``extra_plugins`` too (a module
    or object with ``@hookimpl`` functions), and the rule systems ``systems`` (a ``RuleSystem`` object
    each, as an uninstalled plugin would register it). No installed adapter runs unless its platform is named
    in ``platforms``; ``adapters`` (a ``FakeAdapter``, say) run as they are. ``sections`` are settings
    tables, as for ``make_settings``."""
    adapters, systems = list(adapters), tuple(systems)
    clock = Clock()
    dice = ScriptedDice([])
    gateway = Gateway(
        make_settings(url, **sections),
        dice=dice,
        clock=clock,
        extra_plugins=[
            *extra_plugins,
            *([rule_system_plugin(*systems)] if systems else []),
            *(adapter_plugin(a) for a in adapters),
        ],
        platforms=(*platforms, *(a.platform for a in adapters)),
    )
    await migrated_vault(url)
    await gateway.upgrade_vault()
    await gateway.start()
    return Chat(gateway=gateway, dice=dice, clock=clock)


# One migrated SQLite vault per process, copied into each fresh one (see ``migrated_vault``).
_template: list[str] = []


async def migrated_vault(url: str) -> None:
    """Bring the fresh SQLite vault at ``url`` (no file yet, or an empty one) to the core's newest
    revision by copying a vault migrated once in this process, instead of running every migration
    again (Alembic takes about 0.15 s a vault, for thousands of tests). Anything else is left alone:
    a vault with content, and PostgreSQL, where a copy (``CREATE DATABASE ... TEMPLATE``) measured
    no faster than the migrations. ``Gateway.upgrade_vault`` after it (``start_chat`` calls it) still
    applies what a test's own plugins add, and every migration wherever this did nothing."""
    parsed = make_url(url)
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        return
    if (os.path.exists(path) and os.path.getsize(path) > 0) or not os.path.isdir(
        os.path.dirname(path) or "."
    ):
        return  # a vault with content, or one SQLite itself must refuse (no such directory)
    if not _template:
        template = os.path.join(tempfile.mkdtemp(prefix="gw-template-"), "vault.db")
        gateway = Gateway(make_settings(f"sqlite+aiosqlite:///{template}"))
        try:
            await gateway.upgrade_vault()
        finally:
            await gateway.services.vault.dispose()
        _template.append(template)
    shutil.copyfile(_template[0], path)


def drop_templates() -> None:
    """Remove this process's migrated vault (the pytest plugin does at the end of the session)."""
    while _template:
        shutil.rmtree(os.path.dirname(_template.pop()), ignore_errors=True)


@contextmanager
def postgres_database(server_url: str | None = None) -> Iterator[str]:
    """A fresh, empty database on the PostgreSQL server of ``server_url`` (default: the URL in
    ``GATEWAY_TEST_POSTGRES_URL``); its URL, and it is dropped afterwards."""
    server_url = server_url or os.environ.get(POSTGRES_URL_VARIABLE)
    if not server_url:
        raise LookupError(f"{POSTGRES_URL_VARIABLE} is not set")
    name = f"gw_test_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        engine = create_async_engine(server_url, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(sql))
        await engine.dispose()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
