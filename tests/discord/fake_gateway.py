"""A fake Discord Gateway and the bot's REST routes, on loopback, for Gateway mode.

It speaks the documented protocol (discord-api-docs developers/events/gateway.mdx, gateway-events.mdx,
topics/opcodes-and-status-codes.mdx; summarised with sources in /work/shared/protocols-3.md §1):

- ``GET /gateway/bot`` (bot token; 401 without) returns the websocket URL, the shard count and
  ``session_start_limit`` with ``max_concurrency``; every IDENTIFY spends one of ``total``.
- The websocket: ``?v=10&encoding=json``, ``compress=zlib-stream`` (one zlib context per connection,
  each message ending in ``00 00 ff ff``). HELLO with ``heartbeat_interval``; heartbeats answered with
  HEARTBEAT_ACK; IDENTIFY (token, intents, shard) answered with READY (``session_id``,
  ``resume_gateway_url`` on a path of its own, so a client that resumes on the wrong URL is seen);
  RESUME replays the events after ``seq`` in order, then RESUMED; an unknown session gets
  INVALID_SESSION ``d: false``; RECONNECT on demand.
- Close codes: 4001 unknown opcode, 4002 undecodable or over 4096 bytes, 4003 a payload before
  IDENTIFY, 4004 a bad token, 4005 a second IDENTIFY, 4007 a RESUME ``seq`` from the future,
  4008 more than 120 events in 60 s, 4010 a bad shard, 4013 unknown intent bits, 4014 a privileged
  intent the "portal" has not switched on. A second IDENTIFY within 5 s in one bucket
  (``shard_id % max_concurrency``; so ``max_concurrency`` sessions per 5 s) gets INVALID_SESSION ``d: false``.
- Bot REST: ``GET /users/@me``, ``GET /applications/@me``, ``POST /channels/{id}/messages`` (bot
  token, the message checks of fake_discord, ``nonce`` + ``enforce_nonce`` returning the first
  message, a per-channel bucket of ``channel_limit`` per ``channel_window`` with the X-RateLimit-*
  headers and 429s), ``POST /users/@me/channels`` (Create DM), ``GET /channels/{id}/messages``
  (``after``, ``limit`` 1-100: the oldest ``limit`` messages after ``after``, newest first, as REST
  message objects without ``guild_id`` or ``member``; every MESSAGE_CREATE dispatched and every bot
  post is in its channel's history, whether a session received it or not).

Tests drive it: ``dispatch`` an event (kept for replay even while no socket is open), ``drop`` the
TCP connection without a close frame, ``close_with`` a code, ``reconnect`` (op 7), ``invalidate``.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord.fake_discord import API, FakeDiscord, Received, message_problems, read_upload

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
CLIENT_OPS = {HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, REQUEST_MEMBERS, 31, 43}
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
ALL_INTENTS = (1 << 26) - 1  # bits 0-25 are documented intents; 1<<26 and up: 4013 (bit 11 unused too)
SEND_LIMIT, SEND_WINDOW = 120, 60.0
IDENTIFY_WINDOW = 5.0
MAX_PAYLOAD = 4096
SYNC_FLUSH = b"\x00\x00\xff\xff"


@dataclass
class Session:
    id: str
    shard: tuple[int, int]
    intents: int
    events: list[dict[str, Any]] = field(default_factory=list)  # every dispatch, seq = index + 1

    @property
    def seq(self) -> int:
        return len(self.events)


@dataclass
class Connection:
    ws: web.WebSocketResponse
    path: str
    compress: bool
    transport: Any = None
    deflate: Any = None
    session: Session | None = None
    sent_at: deque[float] = field(default_factory=deque)  # the client's events, for the 120/60 s limit

    async def send(self, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        if self.compress:
            await self.ws.send_bytes(self.deflate.compress(data) + self.deflate.flush(zlib.Z_SYNC_FLUSH))
        else:
            await self.ws.send_str(data.decode())


@dataclass
class FakeDiscordBot(FakeDiscord):
    """FakeDiscord plus a Gateway and the routes a bot uses."""

    # A token of Discord's shape: base64 of the bot's user id, a timestamp, an HMAC (hikari reads the id).
    bot_token: str = "MTAwMDAwMDAwMDAwMDAwMDAy.GfAkE1.fake-bot-token-hmac-part-0123456789ab"
    heartbeat_interval: int = 45000  # ms, the docs' example
    max_concurrency: int = 1
    session_total: int = 1000
    shard_count: int = 1
    portal_intents: int = 0  # privileged intents switched on in the "Developer Portal"
    replay_overlap: int = 0  # on RESUME, also send this many events the client had already seen
    bot_user_id: str = "100000000000000002"
    application_flags: int = 0
    sessions: dict[str, Session] = field(default_factory=dict)
    connections: list[Connection] = field(default_factory=list)
    identifies: list[dict[str, Any]] = field(default_factory=list)
    resumes: list[dict[str, Any]] = field(default_factory=list)
    closes: list[int] = field(default_factory=list)
    heartbeats: int = 0
    gateway_fetches: int = 0
    paths: list[str] = field(default_factory=list)  # which websocket path each connection used
    posts: list[Received] = field(default_factory=list)  # bot messages
    dms: dict[str, str] = field(default_factory=dict)  # user id -> DM channel id
    dms_closed: set[str] = field(default_factory=set)  # users who allow no DMs from server members
    nonces: dict[str, dict[str, Any]] = field(default_factory=dict)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # channel id -> messages
    history_reads: int = 0
    _identify_times: dict[int, deque[float]] = field(default_factory=dict)
    _origin: str = ""

    # ------------------------------------------------------------------ routes

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(API + "/gateway/bot", self._gateway_bot)
        app.router.add_get(API + "/users/@me", self._me)
        app.router.add_get(API + "/applications/@me", self._application)
        app.router.add_post(API + "/channels/{channel}/messages", self._create_message)
        app.router.add_get(API + "/channels/{channel}/messages", self._messages)
        app.router.add_post(API + "/users/@me/channels", self._create_dm)
        app.router.add_get("/gateway", self._socket)
        app.router.add_get("/resume-gateway", self._socket)

    async def start(self) -> FakeDiscordBot:
        await super().start()
        self._origin = self.base_url.removesuffix(API).replace("http://", "ws://")
        return self

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.ws.close(code=1001)
        await super().close()

    def _authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.bot_token}"

    @staticmethod
    def _unauthorised() -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._unauthorised()
        self.gateway_fetches += 1
        used = len(self.identifies)
        return web.json_response(
            {
                "url": f"{self._origin}/gateway",
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": self.session_total,
                    "remaining": max(0, self.session_total - used),
                    "reset_after": 86_400_000,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._unauthorised()
        return web.json_response(
            {
                "id": self.bot_user_id,
                "username": "Nightcap",
                "discriminator": "0",
                "bot": True,
                "global_name": None,
            }
        )

    async def _application(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._unauthorised()
        return web.json_response(
            {
                "id": self.application_id,
                "name": "Nightcap",
                "flags": self.application_flags,
                "bot_public": True,
                "bot": {"id": self.bot_user_id, "username": "Nightcap"},
            }
        )

    async def _create_message(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._unauthorised()
        channel = request.match_info["channel"]
        if any(self.dms.get(user) == channel for user in self.dms_closed):
            error = {"message": "Cannot send messages to this user", "code": 50007}
            return web.json_response(error, status=403)
        upload = await read_upload(request)
        body = upload.body
        problems = upload.problems + message_problems(body)
        if isinstance(body, dict):
            if "username" in body:
                problems.append("a bot message cannot set a username")
            nonce = body.get("nonce")
            if nonce is not None and len(str(nonce)) > 25:
                problems.append("nonce over 25 characters")
            if body.get("enforce_nonce") and nonce is None:
                problems.append("enforce_nonce without a nonce")
            if body.get("flags", 0) & 64:
                problems.append("EPHEMERAL is for interactions only")
        if problems:
            self.refused.append((400, problems))
            return web.json_response(
                {"message": "Invalid Form Body", "code": 50035, "errors": problems}, status=400
            )
        nonce = str(body.get("nonce")) if body.get("nonce") is not None else None
        if nonce is not None and body.get("enforce_nonce") and nonce in self.nonces:
            return web.json_response(self.nonces[nonce])  # the message already made from that nonce
        # The per-channel bucket, with Discord's X-RateLimit-* headers and 429 + retry_after.
        now = self.clock()
        window = self._window(f"bot:{channel}", f"bot-{channel}", self.channel_limit, self.channel_window)
        if not window.allows(now):
            self.rate_limited += 1
            retry_after = window.reset_after(now)
            headers = {**self._rate_headers([window], now), "X-RateLimit-Scope": "user"}
            body_429 = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
            return web.json_response(body_429, status=429, headers=headers)
        window.take(now)
        headers = self._rate_headers([window], now)
        self._ids += 1
        message = {
            "id": str(self._ids),
            "channel_id": channel,
            "author": {"id": self.bot_user_id, "username": "Nightcap", "bot": True},
            "content": body.get("content", ""),
            "embeds": body.get("embeds", []),
            "nonce": nonce,
        }
        if nonce is not None:
            self.nonces[nonce] = message
        self.history.setdefault(channel, []).append(message)
        self.posts.append(Received("bot", channel, body, now, False, upload.files))
        return web.json_response(message, headers=headers)

    async def _messages(self, request: web.Request) -> web.Response:
        """Get Channel Messages with ``after`` (developers/resources/message.mdx)."""
        if not self._authorised(request):
            return self._unauthorised()
        try:
            after = int(request.query.get("after", "0"))
            limit = int(request.query.get("limit", "50"))
        except ValueError:
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        if not 1 <= limit <= 100:
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        self.history_reads += 1
        kept = self.history.get(request.match_info["channel"], [])
        later = sorted((m for m in kept if int(m["id"]) > after), key=lambda m: int(m["id"]))[:limit]
        return web.json_response(later[::-1])

    async def _create_dm(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._unauthorised()
        recipient = str((await request.json()).get("recipient_id") or "")
        if not recipient.isdigit():
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        if recipient not in self.dms:
            self._ids += 1
            self.dms[recipient] = str(self._ids)
        return web.json_response({"id": self.dms[recipient], "type": 1, "recipients": [{"id": recipient}]})

    # ------------------------------------------------------------------ the websocket

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        query = request.query
        compress = query.get("compress") == "zlib-stream"
        conn = Connection(
            ws, request.path, compress, request.transport, zlib.compressobj() if compress else None
        )
        self.connections.append(conn)
        self.paths.append(request.path)
        try:
            if query.get("v") != "10":
                await self._close(conn, 4012)
            elif (
                query.get("encoding", "json") != "json"
                or query.get("compress", "zlib-stream") != "zlib-stream"
            ):
                await self._close(conn, 4002)
            else:
                await conn.send(
                    {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval}, "s": None, "t": None}
                )
                await self._serve(conn)
        finally:
            self.connections.remove(conn)
        return ws

    async def _serve(self, conn: Connection) -> None:
        async for msg in conn.ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break
            now = time.monotonic()
            conn.sent_at.append(now)
            while conn.sent_at and conn.sent_at[0] <= now - SEND_WINDOW:
                conn.sent_at.popleft()
            if len(conn.sent_at) > SEND_LIMIT:
                await self._close(conn, 4008)
                return
            raw = msg.data if isinstance(msg.data, bytes) else msg.data.encode()
            try:
                payload = json.loads(raw)
                op = payload["op"]
            except (ValueError, KeyError, TypeError):
                await self._close(conn, 4002)
                return
            if len(raw) > MAX_PAYLOAD:
                await self._close(conn, 4002)
                return
            if op not in CLIENT_OPS:
                await self._close(conn, 4001)
                return
            if op == HEARTBEAT:
                self.heartbeats += 1
                await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            elif op == IDENTIFY:
                if not await self._identify(conn, payload.get("d") or {}):
                    return
            elif op == RESUME:
                if not await self._resume(conn, payload.get("d") or {}):
                    return
            elif conn.session is None:
                await self._close(conn, 4003)
                return

    async def _close(self, conn: Connection, code: int) -> None:
        self.closes.append(code)
        await conn.ws.close(code=code, message=b"fake gateway")

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> bool:
        if conn.session is not None:
            await self._close(conn, 4005)
            return False
        if d.get("token") != self.bot_token:
            await self._close(conn, 4004)
            return False
        intents = d.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS or intents & (1 << 11):
            await self._close(conn, 4013)
            return False
        if intents & PRIVILEGED & ~self.portal_intents:
            await self._close(conn, 4014)
            return False
        shard = d.get("shard") or [0, 1]
        if not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
            await self._close(conn, 4010)
            return False
        key = shard[0] % self.max_concurrency
        times = self._identify_times.setdefault(key, deque())
        now = time.monotonic()
        while times and times[0] <= now - IDENTIFY_WINDOW:
            times.popleft()
        if times:  # each of the max_concurrency buckets starts one session per 5 s
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        times.append(now)
        self.identifies.append({**d, "token": "<redacted>"})
        session = Session(id=secrets.token_hex(16), shard=(shard[0], shard[1]), intents=intents)
        self.sessions[session.id] = session
        conn.session = session
        ready = {
            "v": 10,
            "user": {"id": self.bot_user_id, "username": "Nightcap", "bot": True, "discriminator": "0"},
            "guilds": [],
            "session_id": session.id,
            "resume_gateway_url": f"{self._origin}/resume-gateway",
            "shard": list(session.shard),
            "application": {"id": self.application_id, "flags": self.application_flags},
        }
        await self._emit(session, "READY", ready)
        return True

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> bool:
        if d.get("token") != self.bot_token:
            await self._close(conn, 4004)
            return False
        session = self.sessions.get(str(d.get("session_id")))
        seq = d.get("seq")
        if session is None or not isinstance(seq, int):
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        if seq > session.seq:
            await self._close(conn, 4007)
            return False
        self.resumes.append({"session_id": session.id, "seq": seq, "path": conn.path})
        conn.session = session
        for event in session.events[max(0, seq - self.replay_overlap) :]:
            await conn.send(event)
        await self._emit(session, "RESUMED", {})
        return True

    # ------------------------------------------------------------------ what a test does

    def current(self) -> Session | None:
        live = [c.session for c in self.connections if c.session is not None]
        return live[-1] if live else (list(self.sessions.values())[-1] if self.sessions else None)

    async def _emit(self, session: Session, name: str, data: dict[str, Any]) -> None:
        event = {"op": DISPATCH, "d": data, "s": session.seq + 1, "t": name}
        session.events.append(event)
        for conn in list(self.connections):
            if conn.session is session and not conn.ws.closed:
                with contextlib.suppress(ConnectionResetError):  # going: the event stays for a RESUME
                    await conn.send(event)

    async def dispatch(self, name: str, data: dict[str, Any]) -> None:
        """An event in the newest session: sent now if its socket is open, else kept for a RESUME."""
        session = self.current()
        assert session is not None, "no session: the bot has not identified"
        if name == "MESSAGE_CREATE":
            stored = {k: v for k, v in data.items() if k not in ("guild_id", "member")}
            self.history.setdefault(str(data.get("channel_id")), []).append(stored)
        await self._emit(session, name, data)

    async def drop(self) -> None:
        """The TCP connection goes without a close frame: the session stays resumable."""
        for conn in list(self.connections):
            if conn.transport is not None:
                conn.transport.abort()

    async def close_with(self, code: int) -> None:
        for conn in list(self.connections):
            await self._close(conn, code)

    async def reconnect(self) -> None:
        for conn in list(self.connections):
            await conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate(self, resumable: bool = False) -> None:
        for conn in list(self.connections):
            await conn.send({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})

    def connected(self) -> bool:
        return any(c.session is not None and not c.ws.closed for c in self.connections)
