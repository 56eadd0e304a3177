"""Gateway mode: the bot's own websocket to Discord, kept by hikari.

hikari does the protocol: ``GET {api_url}/gateway/bot`` for the URL, shard count and session-start
limits, HELLO and heartbeats, IDENTIFY in ``max_concurrency`` windows, RESUME on
``resume_gateway_url`` after a drop, INVALID_SESSION, RECONNECT, the 120-events-a-minute send limit
and the close codes. This module only chooses the intents, hands every dispatch's raw JSON to the
adapter (the same dicts the Interactions Endpoint receives, so the same code answers them), and
decides what a connection that ends means: 4014 (a privileged intent the portal has not switched
on) connects again without Message Content, once said; 4004 (a bad token) or a 401 stops for good
with one clear log line; anything else is hikari's to retry.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import hikari
import structlog

from adapters.discord.config import DiscordSettings

log = structlog.get_logger(__name__)

Handler = Callable[[Mapping[str, Any]], Awaitable[None]]

# GUILDS for the guilds' own events, GUILD_MESSAGES and DIRECT_MESSAGES for MESSAGE_CREATE; only
# MESSAGE_CONTENT is privileged (developers/events/gateway.mdx, "Gateway Intents").
BASE_INTENTS = hikari.Intents.GUILDS | hikari.Intents.GUILD_MESSAGES | hikari.Intents.DM_MESSAGES
CONTENT = hikari.Intents.MESSAGE_CONTENT
BAD_TOKEN, DISALLOWED_INTENTS = 4004, 4014
SEEN = 4096  # dispatches remembered by id: a RESUME may replay what was handled before the drop
RESTART_DELAY = 5.0  # after hikari gave up on a reconnectable failure (its own backoff ran first)

CONTENT_REFUSED = (
    "Discord refused the Message Content intent (close code 4014): prefix commands such as !roll are"
    " off; slash commands still work. Switch on 'Message Content Intent' under Bot in the Developer"
    " Portal and restart."
)


class Seen:
    """The last ``size`` ids handled in this process, oldest forgotten first."""

    def __init__(self, size: int = SEEN) -> None:
        self.size = size
        self._ids: OrderedDict[str, None] = OrderedDict()

    def add(self, key: str) -> bool:
        """True the first time ``key`` is added (since it was last forgotten)."""
        if key in self._ids:
            return False
        self._ids[key] = None
        if len(self._ids) > self.size:
            self._ids.popitem(last=False)
        return True


class GatewayConnection:
    """One hikari ``GatewayBot`` used as a connection only: no cache, no entity models, no logging set-up."""

    def __init__(
        self,
        config: DiscordSettings,
        token: str,
        on_interaction: Handler,
        on_message: Handler,
        on_ready: Handler | None = None,
    ) -> None:
        self.config = config
        self.on_ready = on_ready
        self.token = token
        self.on_interaction = on_interaction
        self.on_message = on_message
        self.want_content = bool(config.prefix)
        self.content_refused = False
        self.state = "stopped"
        self.problem: str | None = None
        self.session: dict[str, Any] = {}
        self.events = {"ready": 0, "resumed": 0, "interactions": 0, "messages": 0, "replayed": 0}
        self.seen = Seen()
        self.bot: hikari.GatewayBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def intents(self) -> hikari.Intents:
        return BASE_INTENTS | CONTENT if self.want_content and not self.content_refused else BASE_INTENTS

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="discord gateway")

    async def stop(self) -> None:
        # Cancelling the run ends hikari's start or join; its ``finally`` closes the bot (close code
        # 1000: the session ends and Discord shows the bot offline at once).
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=self.config.request_timeout)
        self.state = "stopped"

    async def _run(self) -> None:
        while True:
            outcome = await self._session()
            if outcome == "content":
                continue  # again at once, without the privileged intent
            if outcome == "stop":
                return
            self.state = "reconnecting"
            await asyncio.sleep(RESTART_DELAY)

    def _build(self) -> hikari.GatewayBot:
        bot = hikari.GatewayBot(
            self.token,
            intents=self.intents,
            rest_url=self.config.api_base,
            logs=None,  # the gateway's own logging is configured already; hikari's loggers join it
            banner=None,
            cache_settings=hikari.impl.CacheSettings(components=hikari.api.CacheComponents.NONE),
            suppress_optimization_warning=True,
        )
        bot.subscribe(hikari.ShardPayloadEvent, self._payload)
        return bot

    async def _session(self) -> str:
        """One bot from start to end: "content" (retry without the intent), "stop", or "retry"."""
        try:
            self.bot = bot = self._build()
        except ValueError:  # hikari reads the bot's user id out of the token's first part
            return self._fatal("the bot token is not a Discord bot token (USER_ID.TIMESTAMP.HMAC)")
        self.state = "connecting"
        starting = asyncio.ensure_future(
            bot.start(
                check_for_updates=False,  # no PyPI look-up from a gateway
                shard_count=self.config.shards,
                shard_ids=self.config.shard_ids,
            )
        )
        try:
            try:
                await asyncio.shield(starting)
            except asyncio.CancelledError:
                # Stopped while connecting: hikari 2.7 adds a shard to the bot only once its start
                # returns, so a start cancelled mid-way leaves that shard running where close() cannot
                # see it (and the loop cannot end). Let the start finish; the finally closes it all.
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(starting, self.config.request_timeout)
                raise
            self.state = "connected"
            await bot.join()
            return "retry"
        except asyncio.CancelledError:
            raise
        except hikari.UnauthorizedError:
            return self._fatal("Discord refused the bot token (401)")
        except hikari.GatewayServerClosedConnectionError as closed:
            if closed.code == DISALLOWED_INTENTS and self.intents & CONTENT:
                self.content_refused = True
                log.warning("discord message content refused", hint=CONTENT_REFUSED)
                return "content"
            if closed.code == BAD_TOKEN:
                return self._fatal("Discord refused the bot token (close code 4004)")
            if not closed.can_reconnect:
                return self._fatal(
                    f"Discord closed the connection for good (code {closed.code}: {closed.reason})"
                )
            log.warning("discord gateway closed", code=closed.code, reason=closed.reason)
            return "retry"
        except Exception as exc:  # the network, a 5xx on /gateway/bot, hikari giving up
            self.problem = f"{type(exc).__name__}: {str(exc)[:200]}"
            log.warning("discord gateway failed; connecting again", error=self.problem)
            return "retry"
        finally:
            if bot.is_alive:
                try:
                    await asyncio.shield(bot.close())
                except Exception as exc:  # closing a half-started bot; nothing is left to do
                    log.debug("discord gateway close failed", error=type(exc).__name__)
            self.bot = None

    def _fatal(self, what: str) -> str:
        self.state = "stopped"
        self.problem = f"{what}: not retrying. Check DISCORD_BOT_TOKEN or [discord] bot_token."
        log.error("discord gateway stopped", problem=self.problem)
        return "stop"

    # ------------------------------------------------------------------ events

    async def _payload(self, event: hikari.ShardPayloadEvent) -> None:
        name, payload = event.name, dict(event.payload)  # a read-only view: the adapter reads plain dicts
        if name == "READY":
            self.events["ready"] += 1
            self.session = {
                "user": str((payload.get("user") or {}).get("id") or ""),
                "guilds": len(payload.get("guilds") or ()),
                "shard": payload.get("shard"),
            }
            self.state = "connected"
            log.info("discord gateway ready", intents=int(self.intents), **self.session)
            if self.on_ready is not None:
                await self.on_ready(payload)
            return
        if name == "RESUMED":
            self.events["resumed"] += 1
            self.state = "connected"
            log.info("discord gateway resumed")
            return
        if name == "INTERACTION_CREATE":
            kind, handler = "interactions", self.on_interaction
        elif name == "MESSAGE_CREATE":
            kind, handler = "messages", self.on_message
        else:
            return
        if not self.seen.add(f"{name}:{payload.get('id')}"):
            self.events["replayed"] += 1  # handled before the drop; the router would refuse it too
            return
        self.events[kind] += 1
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            await handler(payload)
        except Exception:
            log.exception("discord gateway event failed", event=name)
        finally:
            if task is not None:
                self._handlers.discard(task)

    def status(self) -> dict[str, object]:
        status: dict[str, object] = {
            "mode": "gateway",
            "gateway": self.state,
            "intents": int(self.intents),
            "prefix_commands": (
                "off: Message Content intent refused (4014)"
                if self.content_refused
                else ("on" if self.want_content else "off (no [discord] prefix)")
            ),
            **{f"gateway_{key}": value for key, value in self.events.items()},
        }
        if self.problem:
            status["gateway_problem"] = self.problem
        return status
