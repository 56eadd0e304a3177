"""The Discord adapter: interactions in (the Interactions Endpoint, or the bot's own Gateway websocket
in Gateway mode, see connection.py), webhooks, follow-ups and bot messages out.

Inbound: ``POST /discord/interactions``. The raw body is verified (Ed25519 over timestamp + body) before
anything else; PING answers PONG; a slash command becomes a command line and runs through the router.
If the replies are ready within ``reply_timeout`` they ride on the HTTP response; otherwise the
response is a deferral (type 5) and the replies follow through the outbox as interaction follow-ups.

Outbound: outbox rows for platform ``discord``. The target is either a webhook name from
``[discord.webhooks]`` (Storyteller-log lines, sheet exports, any text) or ``interaction/<id>``
(follow-ups, which carry their token and expire after 15 minutes). Delivery waits on the header-driven
limiter; a long wait hands the row back to the outbox (``Throttled`` with the exact delay) so other
targets keep moving. A webhook that answers 404 is disabled and reported, never retried.

Gateway mode adds: interactions from the websocket, answered through the callback endpoint with the
same answer the endpoint would return; prefix commands (MESSAGE_CREATE) run with their replies
queued like IRC's; and the bot posting into channels (``[discord.channels]`` names, or a channel
``GUILD/CHANNEL`` seen), private replies of a prefix command as a DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import re
import time
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import orjson
import structlog
from aiohttp import web

from adapters.body import BadBody, read_limited
from adapters.discord import complete, components, render, slash, texts
from adapters.discord import interactions as ix
from adapters.discord.catch_up import SCOPE as SCOPE_PREFIX
from adapters.discord.catch_up import CatchUp
from adapters.discord.config import DiscordSettings, Webhook
from adapters.discord.limiter import RateLimiter, WaitTooLong
from adapters.discord.reader import reader_locale
from adapters.discord.verify import Verifier
from gateway import (
    Adapter,
    AdapterServices,
    DeliveryFailed,
    Handled,
    InboundMessage,
    Outbound,
    Repeated,
    Reply,
    RetryLater,
    Throttled,
)
from gateway.core.adapter_state import AdapterState
from gateway.core.core_messages import say
from gateway.delivery import queue
from gateway.delivery.leases import Lease, run_owned
from gateway.delivery.pacing import Backoff
from gateway.delivery.queue import claim_lease
from gateway.rules.charts import Picture, picture

if TYPE_CHECKING:
    from adapters.discord.connection import GatewayConnection

log = structlog.get_logger(__name__)

PATH = "/discord/interactions"
FOLLOWUP = "interaction/"
SCOPE_SENT = "discord.sent"
SCOPE_STATE = "discord"
SCOPE_DISABLED = "discord.disabled"
SCOPE_BUTTONS = "discord.buttons"  # command lines too long for a custom_id, by key
SCOPE_DEFERRED = "discord.deferred"  # deferred interactions whose command has not queued its answer
FALLBACK = "/fallback"  # the target suffix of a deferred command's answer if its process dies
BUTTON_DAYS = 30
FOLLOWUP_GRACE = 0.5  # let Discord take our HTTP response before the first follow-up arrives
LEDGER_DAYS = 2
MAX_INTERACTION = 64 * 1024  # Discord's payloads are a few kB; the app refuses more than this anyway
INLINE_429_RETRIES = 5
GATEWAY_LEASE = "discord:gateway"


def gateway_lease(config: DiscordSettings) -> str:
    """The lease of this process's Gateway sessions: one per shard set, so processes given different
    ``shard_ids`` run side by side and those given the same set stand by for each other."""
    if config.shard_ids is None:
        return GATEWAY_LEASE
    return f"{GATEWAY_LEASE}:{','.join(map(str, sorted(set(config.shard_ids))))}/{config.shards}"


CHANNEL_TARGET = re.compile(r"^(?:\d+|@me)/(?P<channel>\d+)$")  # GUILD/CHANNEL, or @me/CHANNEL (a DM)


# The picture must be drawn by then (seconds after the interaction arrived) and the callback be
# answered within Discord's 3 seconds; past the first, the answer goes without it.
PICTURE_BY = 2.6
ANSWER_BY = 2.95
ANSWERED: dict[str, Any] = {}  # the answer went to the callback endpoint: the request gets 202


def respond(answer: dict[str, Any]) -> web.Response:
    return web.Response(status=202) if answer is ANSWERED else web.json_response(answer)


def multipart(body: Mapping[str, Any], drawn: Picture) -> aiohttp.FormData:
    """Discord's file upload: the JSON in ``payload_json``, the file in ``files[0]``."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    form.add_field("files[0]", drawn.png, filename=drawn.filename, content_type=drawn.mimetype)
    return form


def idempotent(body: Mapping[str, Any], row_id: int) -> dict[str, Any]:
    """A bot message (``POST /channels/ID/messages``) for outbox row ``row_id`` that Discord creates
    once: ``nonce`` (at most 25 characters) names the row and ``enforce_nonce`` makes Discord return the
    message it already created from that nonce, by the same bot "in the past few minutes", instead of
    a second one. So a post repeated after a kill -9 (the row comes back after its lease) is not
    doubled within that window. Webhook posts and follow-ups take no nonce: their window stays."""
    return {**body, "nonce": f"gw-{row_id}"[:25], "enforce_nonce": True}


class Refused(DeliveryFailed):
    """Discord refused the message itself (400, 401, 403, 413): sending it again cannot help."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def fingerprint(webhook: Webhook) -> str:
    """Which URL a disabled record is about: a new URL in the settings enables the name again."""
    return hashlib.sha256(f"{webhook.id}/{webhook.token}".encode()).hexdigest()[:16]


async def _end(tasks: set[Any], grace: float) -> None:
    """Let ``tasks`` run ``grace`` seconds more, then cancel those still running and wait for them."""
    if tasks and grace > 0:
        await asyncio.wait(list(tasks), timeout=grace)
    for task in list(tasks):
        task.cancel()
    if tasks:
        await asyncio.wait(list(tasks))


class DiscordAdapter(Adapter):
    platform = "discord"
    # Discord's rate limits are the bot's across every process, and the limiter learns them in memory:
    # one process of the vault delivers at a time (interaction responses are each process's own).
    delivery_lease = "discord:delivery"

    def __init__(self, services: AdapterServices, config: DiscordSettings) -> None:
        self.services = services
        self.config = config
        self.verifier = Verifier(config.public_key, config.timestamp_tolerance) if config.public_key else None
        self.limiter = RateLimiter(
            webhook_cap=(config.webhook_cap.requests, config.webhook_cap.seconds),
            channel_cap=(config.channel_cap.requests, config.channel_cap.seconds),
            margin=config.reset_margin,
        )
        self.wall = time.time
        # What the rule systems say of their rolls and challenges: degree colours, Defend buttons.
        systems = services.systems()
        self.colours = render.Colours.of_systems(systems.values())
        self.defences = {name: system.defences for name, system in systems.items() if system.defences}
        self.http: aiohttp.ClientSession | None = None
        self.disabled: dict[str, dict[str, Any]] = {}
        self._pending: set[asyncio.Task[None]] = set()  # follow-ups of deferred commands
        self._commands: set[asyncio.Task[tuple[list[Reply], str | None]]] = set()  # commands being run
        self._sent: set[int] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        vault = services.vault

        def clock() -> datetime:
            return self.services.clock()

        # The limiter's learnt buckets, disabled webhooks, and the rows Discord has taken (see _send).
        self.state = AdapterState(vault, SCOPE_STATE, clock=clock)
        self.disabled_state = AdapterState(vault, SCOPE_DISABLED, clock=clock)
        self.sent_state = AdapterState(vault, SCOPE_SENT, clock=clock)
        self.button_state = AdapterState(vault, SCOPE_BUTTONS, clock=clock)
        self.deferred_state = AdapterState(vault, SCOPE_DEFERRED, clock=clock)
        self.catch_up = CatchUp(AdapterState(vault, SCOPE_PREFIX, clock=clock), wall=lambda: self.wall())
        token = config.token()
        self.bot_token = token
        self.connection: GatewayConnection | None = None
        if config.gateway_mode and token:
            from adapters.discord.connection import GatewayConnection  # hikari: in Gateway mode only

            self.connection = GatewayConnection(
                config, token, self.gateway_interaction, self.gateway_message, self.gateway_ready
            )
        self._dm_channels: dict[str, str] = {}  # user id -> their DM channel with the bot
        self._owner: asyncio.Task[None] | None = None
        self.gateway_owned = False
        self._synced = False

    # ------------------------------------------------------------------ life cycle

    def add_routes(self, app: web.Application) -> None:
        if self.verifier is not None:
            app.router.add_post(PATH, self.interactions)

    async def start(self) -> None:
        self.http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.config.request_timeout),
            headers={"User-Agent": "DiscordBot (nightcap-gateway, 0.1)"},
        )
        async with self.services.vault.unit() as unit:
            self.disabled.update(await self.disabled_state.items(db=unit))
            cutoff = self.services.clock() - timedelta(days=LEDGER_DAYS)
            await self.sent_state.prune(cutoff, db=unit)
            await self.button_state.prune(self.services.clock() - timedelta(days=BUTTON_DAYS), db=unit)
            await self.catch_up.state.prune(cutoff, db=unit)
            await self.deferred_state.prune(cutoff, db=unit)
            self._sent.update(int(k) for k in await self.sent_state.items(db=unit) if k.isdigit())
        if self.connection is not None:
            self._owner = asyncio.create_task(
                run_owned(self.services.leases, gateway_lease(self.config), self._own_gateway),
                name="discord-gateway-lease",
            )

    async def stop(self) -> None:
        # Commands still running after a deferral: let them finish and queue their follow-ups. Those
        # that do not finish in time are cancelled (their unit rolls back; the follow-up says so), and
        # every task is awaited: none may hold a vault connection past the vault's dispose.
        grace = self.config.request_timeout
        owner, self._owner = self._owner, None
        if owner is not None:
            owner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await owner
        if self._pending:
            await asyncio.wait(list(self._pending), timeout=grace)
        await _end(self._commands, 0)
        await _end(self._pending, grace)
        for timer in self._timers:
            timer.cancel()
        if self.http is not None:
            await self.http.close()
            self.http = None

    async def delivery_started(self) -> None:
        """Now the one process sending to Discord: start from the buckets the previous owner saved."""
        state = await self.state.get("limiter")
        if state is not None:
            self.limiter.load(state)

    async def delivery_stopped(self) -> None:
        await self.state.put("limiter", self.limiter.dump())

    def status(self) -> dict[str, object]:
        """Discord is HTTP both ways, so no connection: the rate limiter's buckets and what it met."""
        limiter = self.limiter
        now = limiter.clock()
        buckets = limiter.buckets.values()
        mode: dict[str, object] = {"mode": "interactions"}
        if self.connection is not None:
            mode = self.connection.status()
            if not self.gateway_owned:
                mode["gateway"] = f"standby: another process holds {gateway_lease(self.config)}"
        return {
            **mode,
            "requests": limiter.stats.requests,
            "rate_limited_429": limiter.stats.rate_limited,
            "global_limited": limiter.stats.global_limited,
            "buckets": len(limiter.buckets),
            "buckets_exhausted": sum(
                b.remaining <= 0 and (b.reset_at is None or b.reset_at > now) for b in buckets
            ),
            "routes_blocked": sum(until > now for until in limiter.blocked.values()),
            "global_wait_seconds": round(max(0.0, limiter.global_until - now), 3),
            "webhooks_disabled": sorted(self.disabled),
        }

    # ------------------------------------------------------------------ inbound

    async def interactions(self, request: web.Request) -> web.Response:
        try:
            body = await read_limited(request, MAX_INTERACTION)
        except BadBody as bad:
            return bad.json_response()
        assert self.verifier is not None
        problem = self.verifier.check(
            request.headers.get("X-Signature-Ed25519"),
            request.headers.get("X-Signature-Timestamp"),
            body,
            self.wall(),
        )
        if problem is not None:
            log.info("discord interaction refused", reason=problem, remote=request.remote)
            return web.json_response({"error": "invalid request signature"}, status=401)
        try:
            interaction = orjson.loads(body)
        except orjson.JSONDecodeError:
            return web.json_response({"error": "not an interaction: the body is not JSON"}, status=400)
        problem = ix.malformed(interaction)
        if problem is not None:
            return web.json_response({"error": f"not an interaction: {problem}"}, status=400)
        return respond(await self.answer(interaction))

    async def answer(self, interaction: Mapping[str, Any]) -> dict[str, Any]:
        """The answer to a well-formed interaction, however it came (endpoint or Gateway):
        an interaction response, or ``ANSWERED`` when it went to the callback endpoint already."""
        kind = interaction["type"]
        if kind == ix.PING:
            return {"type": ix.PONG}
        if kind == ix.AUTOCOMPLETE:
            return await complete.answer(self.services, interaction, self.config.reply_timeout)
        if kind == ix.MESSAGE_COMPONENT:
            return await self._click(interaction)
        if kind != ix.APPLICATION_COMMAND:
            return ix.message_response("This gateway answers slash commands only.", True)
        parsed = slash.command_line(interaction.get("data") or {}, slash.of(self.services))
        if parsed is None or not parsed.line.strip():
            name = str((interaction.get("data") or {}).get("name", ""))[:32]
            text = (
                f"/{name} is not a command of this gateway: run `gateway discord register` to refresh them."
            )
            return ix.message_response(text, True)
        if parsed.before is not None:  # a later option without an earlier one: say so, run nothing
            locale = await reader_locale(self.services, interaction)
            first, later = (p.label_in(locale) for p in parsed.before)
            return ix.message_response(texts.t(locale, "option.before", first=first, later=later), True)
        return await self._run(interaction, parsed)

    # ------------------------------------------------------------------ Gateway mode

    async def _own_gateway(self, lease: Lease | None) -> None:
        """The websocket runs while this process holds ``discord:gateway``: one session per bot among
        the processes of a vault (Discord sends each event to one session; two would answer twice).
        Cancelled (shutdown, or the lease lost), it closes; another process identifies anew."""
        assert self.connection is not None
        self.gateway_owned = True
        self.connection.start()
        try:
            await asyncio.Future()
        finally:
            self.gateway_owned = False
            await self.connection.stop()

    async def gateway_interaction(self, interaction: Mapping[str, Any]) -> None:
        """INTERACTION_CREATE from the websocket: the endpoint's answer, sent to the callback endpoint
        (Discord takes no answer over the websocket)."""
        problem = ix.malformed(interaction)
        if problem is not None:
            log.warning("discord gateway interaction ignored", reason=problem)
            return
        received = self.wall()
        answer = await self.answer(interaction)
        if answer is ANSWERED:
            return
        assert self.http is not None, "the adapter is started"
        url = (
            f"{self.config.api_base}/interactions/{interaction.get('id')}/{interaction.get('token')}/callback"
        )
        try:
            timeout = aiohttp.ClientTimeout(total=max(0.05, received + ANSWER_BY - self.wall()) + 1.0)
            async with self.http.post(url, json=answer, timeout=timeout) as response:
                body = await response.read()
                if not 200 <= response.status < 300:
                    log.warning(
                        "discord callback refused",
                        status=response.status,
                        body=body[:200].decode("utf-8", "replace"),
                    )
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("discord callback failed", error=type(exc).__name__)

    async def gateway_message(self, message: Mapping[str, Any]) -> None:
        """MESSAGE_CREATE: a prefix command (``!roll 3``) runs as on IRC, its replies queued to the
        channel (the router refuses a message id twice, so a replayed event is not answered again)."""
        author = message.get("author")
        content = message.get("content")
        if not isinstance(author, dict) or author.get("bot") or message.get("webhook_id"):
            return  # our own posts, other bots, webhooks
        prefix = self.config.prefix
        if not prefix or not isinstance(content, str) or not content.startswith(prefix):
            return
        member = message.get("member") if isinstance(message.get("member"), dict) else None
        origin = {"member": member, "user": author, **{k: message.get(k) for k in ("channel_id", "guild_id")}}
        if ix.malformed({"type": 0, **origin}) is not None:
            return
        inbound = InboundMessage(
            sender=ix.sender(origin),
            channel=ix.channel(origin),
            text=content[len(prefix) :],
            message_id=f"message:{message.get('id')}",
            prefixed=False,
            sync_reply=False,
            reply_to=str(message.get("id") or "") or None,
        )
        await self.services.handle(inbound)
        await self.catch_up.handled(message)  # the next session catches up from here (catch_up.py)

    async def gateway_ready(self, ready: Mapping[str, Any]) -> None:
        application = ready.get("application")
        app_id = (
            application.get("id") if isinstance(application, dict) else None
        ) or self.config.application_id
        if app_id:
            await self.sync_commands(str(app_id))
        if self.config.prefix and self.http is not None:
            # A new session: what an earlier one was sent and never answered is only in the channels.
            await self.catch_up.run(self.http, self.config.api_base, self._auth(), self.gateway_message)

    async def sync_commands(self, application_id: str) -> None:
        """The slash commands, bulk-overwritten once per process (the same PUT twice changes nothing)."""
        from adapters.discord import cli

        where = self.config.sync_commands
        if self._synced or where == "off" or not self.bot_token:
            return
        self._synced = True
        config = self.config.model_copy(update={"application_id": application_id})
        guild = None if where == "global" else where
        status, data = await cli.register(
            config, self.bot_token, guild, slash.definitions(slash.of(self.services))
        )
        if status != 200:
            log.warning("discord command sync refused", status=status, body=str(data)[:300])
        else:
            log.info("discord commands synced", commands=len(data), guild=guild)

    async def _run(
        self, interaction: Mapping[str, Any], parsed: slash.Parsed, *, only_caller: bool = False
    ) -> dict[str, Any]:
        # An interaction id seen before is answered "Already handled.", not with the first replies
        # (they may be ephemeral, for the first caller only).
        message = dataclasses.replace(ix.inbound(interaction, parsed), refuse_repeat=True)
        received = self.wall()  # the interaction token lasts followup_ttl from now
        task = asyncio.create_task(self._handle(message, interaction))
        self._commands.add(task)
        task.add_done_callback(self._commands.discard)
        done, _ = await asyncio.wait({task}, timeout=self.config.reply_timeout)
        if task not in done:
            follow = asyncio.create_task(
                self._follow_up_later(task, interaction, received, parsed.line, only_caller)
            )
            self._pending.add(follow)
            follow.add_done_callback(self._pending.discard)
            log.info("discord interaction deferred", command=parsed.line[:60])
            return ix.deferral(parsed.private)
        replies, locale = task.result()
        bodies = await self._bodies(interaction, replies, parsed.line, only_caller, locale)
        if not bodies:
            return ix.message_response("Already handled.", True)
        if len(bodies) > 1:
            await self._enqueue_follow_ups(interaction, bodies[1:], received)
        if render.CHART in bodies[0] and await self._callback_with_picture(interaction, bodies[0], received):
            return ANSWERED
        return {"type": ix.CHANNEL_MESSAGE, "data": render.attach(bodies[0], None)}

    async def _picture(self, body: Mapping[str, Any]) -> Picture | None:
        chart = body.get(render.CHART)
        return await picture(self.services, {"chart": chart}) if chart is not None else None

    async def _callback_with_picture(
        self, interaction: Mapping[str, Any], body: dict[str, Any], received: float
    ) -> bool:
        """Answer with the picture attached: an HTTP response body cannot carry a file, so the answer
        goes to the callback endpoint as multipart (the request is then answered 202, no body).
        False (answer as before, without the picture) when it cannot be drawn or posted in time."""
        assert self.http is not None, "the adapter is started"
        try:
            drawn = await asyncio.wait_for(
                self._picture(body), max(0.05, received + PICTURE_BY - self.wall())
            )
        except TimeoutError:
            drawn = None
        if drawn is None:
            return False
        url = (
            f"{self.config.api_base}/interactions/{interaction.get('id')}/{interaction.get('token')}/callback"
        )
        form = multipart({"type": ix.CHANNEL_MESSAGE, "data": render.attach(body, drawn)}, drawn)
        try:
            timeout = aiohttp.ClientTimeout(total=max(0.05, received + ANSWER_BY - self.wall()))
            async with self.http.post(url, data=form, timeout=timeout) as response:
                await response.read()
                ok = 200 <= response.status < 300
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("discord callback with picture failed", error=type(exc).__name__)
            return False
        if not ok:
            log.warning("discord callback with picture refused", status=response.status)
        return ok

    async def _bodies(
        self,
        interaction: Mapping[str, Any],
        replies: list[Reply],
        line: str,
        only_caller: bool = False,
        locale: str | None = None,
    ) -> list[dict[str, Any]]:
        """The Discord messages for ``replies`` to ``line``: embeds for rolls, buttons for next steps,
        their labels in the reader's language (``locale``, when the command's unit told it).
        ``only_caller``: every message ephemeral (a button whose answer is the clicker's alone)."""
        grouped = render.group_replies(
            replies, lambda r: bool(components.actions(line, r, defences=self.defences))
        )
        # Only a reply with an embed or buttons has words of ours: look the language up for those.
        if locale is None:
            needed = any(g.result for g in grouped)
            locale = await reader_locale(self.services, interaction) if needed else "en"
        bodies = []
        for reply in grouped:
            private = reply.private or only_caller
            body = render.reply_message(reply.text, private, reply.result, locale, self.colours)
            buttons = []
            for action in components.actions(line, reply.result, locale, self.defences):
                custom_id, key = components.encode(action)
                if key is not None:
                    await self.button_state.put(key, {"line": action.line, "private": action.private})
                buttons.append((action, custom_id))
            if buttons:
                body["components"] = components.rows(buttons)
            bodies.append(body)
        return bodies

    async def _click(self, interaction: Mapping[str, Any]) -> dict[str, Any]:
        """A button of ours was clicked: run its line as the clicker (the router decides what they may)."""
        click = components.decode(ix.custom_id(interaction))
        if click is not None and click.key is not None:
            stored = await self.button_state.get(click.key)
            line = stored.get("line") if stored else None
            click = components.Click(line, bool(stored and stored.get("private"))) if line else None
        if click is None or not click.line:
            locale = await reader_locale(self.services, interaction)
            return ix.message_response(texts.t(locale, "button.unknown"), True)
        parsed = slash.Parsed(line=click.line, private=click.private)
        return await self._run(interaction, parsed, only_caller=click.private)

    async def _handle(
        self, message: InboundMessage, interaction: Mapping[str, Any]
    ) -> tuple[list[Reply], str | None]:
        """The replies, and the reader's language as the command's own unit found it (None when no
        unit resolved the sender: ``_bodies`` looks it up then)."""
        try:
            handled: Handled[None] = await self.services.run(message)
        except Repeated:
            return [], None
        if handled.sender is None:
            return handled.replies, None
        return handled.replies, handled.reader_locale(ix.locale(interaction))

    async def _follow_up_later(
        self,
        task: asyncio.Task[tuple[list[Reply], str | None]],
        interaction: Mapping[str, Any],
        received: float,
        line: str,
        only_caller: bool,
    ) -> None:
        locale: str | None = None
        # If this process dies before the command queues its answer, whichever process delivers says
        # so while the token lasts. (Written here, not before the deferral: on SQLite the command's unit
        # holds the write lock, and the deferral must leave within Discord's 3 seconds.)
        reader = await reader_locale(self.services, interaction)
        interrupted = render.text_message(texts.t(reader, "interrupted"), private=True)  # as any error
        await self._enqueue_follow_ups(interaction, [interrupted], received, fallback=True)
        try:
            replies, locale = await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not task.cancelled() or (current is not None and current.cancelling()):
                raise  # this follow-up itself is being cancelled
            locale = await reader_locale(self.services, interaction)
            replies = [Reply(text=texts.t(locale, "interrupted"), error="internal")]
        except Exception:
            log.exception("discord deferred command failed")
            locale = await reader_locale(self.services, interaction)
            replies = [Reply(text=say(locale, "internal"), error="internal")]
        bodies = await self._bodies(interaction, replies, line, only_caller, locale) or [
            render.text_message("Done.", private=True)
        ]
        await self._enqueue_follow_ups(interaction, bodies, received)

    def fallback_after(self) -> float:
        """Seconds after a deferral when its fallback answer is due: past the longest a live command
        runs (the offload pool's bound, and a stop's grace twice), so it speaks for a dead one only."""
        return self.services.settings.gateway.offload_timeout + 2 * self.config.request_timeout

    async def _enqueue_follow_ups(
        self,
        interaction: Mapping[str, Any],
        bodies: list[dict[str, Any]],
        received: float,
        *,
        fallback: bool = False,
    ) -> None:
        """Queue ``bodies`` as the interaction's follow-ups; with ``fallback``, as the answer sent
        only if no command queues one first (the deferred-interaction record says which)."""
        now = self.services.clock()
        wait = self.fallback_after() if fallback else FOLLOWUP_GRACE
        due = now + timedelta(seconds=wait)
        base = {
            "kind": "followup",
            "application_id": str(interaction.get("application_id") or self.config.application_id or ""),
            "token": str(interaction.get("token") or ""),
            "channel_id": str(interaction.get("channel_id") or ""),
            "expires_at": received + self.config.followup_ttl,
        }
        key = str(interaction.get("id"))
        # Its own target, so the fallback row never holds the command's answers back.
        target = f"{FOLLOWUP}{key}{FALLBACK if fallback else ''}"
        async with self.services.vault.unit() as unit:
            for body in bodies:
                text = body.get("content") or "\n".join(e.get("description", "") for e in body["embeds"])
                private = bool(body.get("flags", 0) & render.EPHEMERAL)
                payload = {**base, "text": text, "private": private, "body": body, "fallback": fallback}
                await queue.enqueue(unit, self.platform, target, payload, now=now, due=due)
            if fallback:
                await self.deferred_state.put(key, {"received": received}, db=unit)
            elif await self.deferred_state.delete(key, db=unit):
                # The fallback is not needed: due now, its delivery finds the record gone and posts nothing.
                await queue.expedite(unit, self.platform, [f"{FOLLOWUP}{key}{FALLBACK}"], now)
        self._wake_in(wait)

    # ------------------------------------------------------------------ outbound

    def can_post(self, target: str) -> bool:
        """Follow-ups and the webhooks named in ``[discord.webhooks]``; with a bot (Gateway mode) also
        the channels of ``[discord.channels]`` and any channel seen (``GUILD/CHANNEL``, where a
        command came from). Without a bot such a channel has no way in: a chronicle-wide
        ``st announce`` skips it instead of queueing a row that dies. (The one place that decides.)"""
        if target.startswith(FOLLOWUP) or target in self.config.webhooks:
            return True
        if self.connection is None:
            return False
        return target in self.config.channels or CHANNEL_TARGET.match(target) is not None

    async def deliver(self, message: Outbound) -> None:
        if await self._already_sent(message):
            return
        if message.target.startswith(FOLLOWUP):
            await self._deliver_follow_up(message)
        elif self.connection is not None and (
            message.target in self.config.channels or CHANNEL_TARGET.match(message.target)
        ):
            await self._deliver_bot(message)
        else:
            await self._deliver_webhook(message)

    async def _deliver_bot(self, message: Outbound) -> None:
        """A bot message: into a channel, or as a DM for a private reply to a prefix command."""
        p = message.payload
        named = self.config.channels.get(message.target)
        match = CHANNEL_TARGET.match(message.target)
        channel = named or (match["channel"] if match else "")
        if p.get("kind") == "reply" and p.get("private") and p.get("recipient"):
            try:
                await self._post_bot(message, await self._dm_channel(str(p["recipient"])))
            except Refused as refused:
                if refused.status != 403 or not channel:
                    raise
                # DMs closed (code 50007): say so where the command was typed, without the answer.
                locale = self.services.settings.gateway.locale
                name = str(p.get("recipient_name") or p.get("recipient"))
                notice = render.text_message(texts.t(locale, "dm.closed", name=name), allow_flags=False)
                url = f"{self.config.api_base}/channels/{channel}/messages"
                body = {**notice, "nonce": f"gw-{message.id}-dm"[:25], "enforce_nonce": True}
                await self._send(message, f"bot:{channel}", channel, url, body)
            return
        await self._post_bot(message, channel)

    async def _post_bot(self, message: Outbound, channel: str) -> None:
        p = message.payload
        if p.get("kind") == "reply" and p.get("result"):
            locale = self.services.settings.gateway.locale
            body = render.reply_message(str(p.get("text", "")), False, p["result"], locale, self.colours)
        else:
            body = render.outbox_message(p, message.created_at, self.colours)
        body.pop("flags", None)  # ephemeral exists only for interactions
        drawn = await self._picture(body)
        body = idempotent(render.attach(body, drawn), message.id)
        url = f"{self.config.api_base}/channels/{channel}/messages"
        status, _data = await self._send(message, f"bot:{channel}", channel, url, body, drawn)
        if status == 404:
            raise DeliveryFailed(f"Discord does not know channel {channel} (404): is the bot in that server?")

    async def _dm_channel(self, user_id: str) -> str:
        """The DM channel with ``user_id`` (Create DM returns the existing one; kept per process)."""
        if user_id in self._dm_channels:
            return self._dm_channels[user_id]
        assert self.http is not None, "the adapter is started"
        url = f"{self.config.api_base}/users/@me/channels"
        try:
            async with self.http.post(url, json={"recipient_id": user_id}, headers=self._auth()) as response:
                data = await response.json(content_type=None)
                status = response.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise RetryLater(f"network error: {type(exc).__name__}", backoff=self._backoff()) from None
        if status in (400, 403, 404):
            raise DeliveryFailed(f"Discord will not open a DM with {user_id} ({status})")
        if status != 200 or not isinstance(data, dict) or not data.get("id"):
            raise RetryLater(f"Create DM answered {status}", backoff=self._backoff())
        self._dm_channels[user_id] = str(data["id"])
        return self._dm_channels[user_id]

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self.bot_token}"} if self.bot_token else {}

    async def _deliver_follow_up(self, message: Outbound) -> None:
        p = message.payload
        if self.wall() > float(p.get("expires_at") or 0):
            raise DeliveryFailed("the interaction token has expired (15 minutes)")
        if p.get("fallback"):
            key = message.target[len(FOLLOWUP) :].removesuffix(FALLBACK)
            if await self.deferred_state.get(key) is None:
                return  # the command queued its own answer: nothing to say
        if not p.get("application_id") or not p.get("token"):
            raise DeliveryFailed("a follow-up without an application id or token")
        url = f"{self.config.api_base}/webhooks/{p['application_id']}/{p['token']}"
        body = p.get("body")
        if not isinstance(body, dict):  # a row queued before follow-ups carried their body
            body = render.text_message(str(p.get("text", "")), private=bool(p.get("private")))
        route = f"interaction:{message.target[len(FOLLOWUP) :]}"
        drawn = await self._picture(body)
        body = render.attach(body, drawn)
        status, _data = await self._send(message, route, p.get("channel_id") or None, url, body, drawn)
        if status == 404:
            raise DeliveryFailed("Discord no longer knows this interaction (404)")

    async def _deliver_webhook(self, message: Outbound) -> None:
        webhook = self.config.webhook(message.target)
        if webhook is None:
            raise DeliveryFailed(f"no webhook named {message.target!r} in [discord.webhooks]")
        if self.is_disabled(webhook):
            raise DeliveryFailed(
                f"webhook {webhook.name!r} is disabled: it answered 404; configure a new URL"
            )
        body = render.outbox_message(message.payload, message.created_at, self.colours)
        drawn = await self._picture(body)
        body = render.attach(body, drawn)
        if self.config.username:
            body["username"] = self.config.username
        url = f"{self.config.api_base}/webhooks/{webhook.id}/{webhook.token}"
        status, data = await self._send(message, f"webhook:{webhook.id}", None, url, body, drawn)
        if status == 404:
            await self._disable(webhook, data)
            raise DeliveryFailed(f"webhook {webhook.name!r} answered 404 and is now disabled")

    async def _send(
        self,
        message: Outbound,
        route: str,
        channel: str | None,
        url: str,
        body: dict[str, Any],
        drawn: Picture | None = None,
    ) -> tuple[int, Any]:
        """POST one body, paced by the limiter. Returns (status, data) for 2xx and 404; raises otherwise."""
        assert self.http is not None, "the adapter is started"
        for _ in range(INLINE_429_RETRIES):
            try:
                ticket = await self.limiter.acquire(route, channel, self.config.max_inline_wait)
            except WaitTooLong as exc:
                self._wake_in(exc.delay)
                raise Throttled(f"rate limit: next slot in {exc.delay:.2f}s", exc.delay) from None
            post = asyncio.ensure_future(self._post(url, body, ticket, drawn))
            try:
                status, data, retry_after = await asyncio.shield(post)
            except asyncio.CancelledError:
                # Stopping mid-request: the post may already be in Discord. Let it finish and remember
                # the outcome, so the row is not posted twice after the restart.
                with contextlib.suppress(Exception):
                    status, data, _ = await asyncio.wait_for(post, self.config.request_timeout)
                    if 200 <= status < 300:
                        await self._record_sent(message.id, data)
                raise
            if 200 <= status < 300:
                if isinstance(data, Mapping) and route.startswith("webhook:"):
                    self.limiter.learn_channel(route, str(data.get("channel_id") or "") or None)
                return status, data
            if status == 404:
                return status, data
            if status == 429:
                wait = max(0.0, self.limiter.delay(route, channel), retry_after or 0.0)
                log.warning("discord 429", route=route.split("/")[0], retry_after=retry_after)
                if wait > self.config.max_inline_wait:
                    self._wake_in(wait)
                    raise Throttled(f"429: retry after {wait:.2f}s", wait)
                continue  # the limiter now holds the route until the window is over
            if status in (400, 401, 403, 413):
                raise Refused(status, f"Discord refused the message ({status}): {str(data)[:300]}")
            if status >= 500 and retry_after is not None:
                # Discord is up enough to say when to come back: not a failed attempt.
                raise Throttled(f"Discord answered {status}, Retry-After {retry_after:g} s", retry_after)
            raise RetryLater(f"Discord answered {status}", backoff=self._backoff())
        raise RetryLater("rate limited repeatedly", backoff=self._backoff())

    def _backoff(self) -> Backoff:
        """The outbox's backoff under ``[discord] retry_max_delay``, jittered 0.5 to 1 so it never waits
        past it: a webhook that answers again is served within seconds, not after 300 s x 1.5."""
        s = self.services.settings.outbox
        return Backoff(s.base_delay, min(s.max_delay, self.config.retry_max_delay), (0.5, 1.0))

    async def _post(
        self, url: str, body: dict[str, Any], ticket: Any, drawn: Picture | None = None
    ) -> tuple[int, Any, float | None]:
        assert self.http is not None
        # With a picture: multipart/form-data (payload_json and files[0]), built anew each attempt.
        sent: dict[str, Any] = {"data": multipart(body, drawn)} if drawn is not None else {"json": body}
        # Bot messages carry the token; webhooks and follow-ups are authorised by their URL.
        bot = "/channels/" in url
        params = {} if bot else {"wait": "true"}
        try:
            async with self.http.post(
                url, params=params, headers=self._auth() if bot else None, **sent
            ) as response:
                raw = await response.read()
                status, headers = response.status, response.headers
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.limiter.abort(ticket)
            raise RetryLater(f"network error: {type(exc).__name__}", backoff=self._backoff()) from None
        try:
            data: Any = json.loads(raw) if raw else None
        except ValueError:
            data = raw[:200].decode("utf-8", "replace")
        retry_after = self.limiter.finish(ticket, status, headers, data)
        if status >= 500 and "Retry-After" in headers:
            with contextlib.suppress(ValueError):
                retry_after = max(0.0, float(headers["Retry-After"]))
        return status, data, retry_after

    # ------------------------------------------------------------------ durable bits

    async def _already_sent(self, message: Outbound) -> bool:
        """Whether an earlier attempt at this row was cut off after Discord had it (see ``_send``).

        Such a row comes back only after its outbox lease ran out, so only rows older than the lease
        (or noted in this process) need the look-up."""
        if message.id in self._sent:
            return True
        if message.created_at is None or message.created_at > self.services.clock() - claim_lease(
            self.services.settings
        ):
            return False
        return await self.sent_state.get(str(message.id)) is not None

    async def _record_sent(self, row_id: int, data: Any) -> None:
        self._sent.add(row_id)
        message_id = data.get("id") if isinstance(data, Mapping) else None
        await self.sent_state.put(str(row_id), {"message_id": message_id})

    def is_disabled(self, webhook: Webhook) -> bool:
        record = self.disabled.get(webhook.name)
        return record is not None and record.get("fingerprint") == fingerprint(webhook)

    async def _disable(self, webhook: Webhook, data: Any) -> None:
        record = {
            "fingerprint": fingerprint(webhook),
            "webhook_id": webhook.id,
            "reason": f"404 {str(data)[:200]}",
            "at": self.services.clock().isoformat(),
        }
        self.disabled[webhook.name] = record
        await self.disabled_state.put(webhook.name, record)
        log.error(
            "discord webhook disabled",
            webhook=webhook.name,
            webhook_id=webhook.id,
            hint=f"it answered 404; put a new URL in [discord.webhooks] {webhook.name}",
        )

    def _wake_in(self, delay: float) -> None:
        outbox = self.services.outbox
        if outbox is None:
            return
        loop = asyncio.get_running_loop()
        timer: asyncio.TimerHandle | None = None

        def fire() -> None:
            self._timers.discard(timer)  # type: ignore[arg-type]
            outbox.wake()

        timer = loop.call_later(max(0.0, delay) + 0.005, fire)
        self._timers.add(timer)
