"""The Second Life adapter: HUDs call ``/sl/v1/`` over HTTP; the gateway pushes to their HTTP-in URLs.

Inbound (``POST /sl/v1/command``, ``POST /sl/v1/register``): body size, shard, keys, timestamp,
signature and replay are checked before anything else (401 with a short text on any failure), then a
per-object token bucket (429 + ``Retry-After``). Commands run through the router on the fast path;
the answer is JSON ``{"replies": [{"text", "private"}], ...}`` that fits the caller's body limit.

Outbound (``deliver``): outbox rows addressed to a route (see ``registry``) are POSTed, signed, to
the object's current URL; fan-out addresses (``st-huds``, ``relays``, ``huds``, ``everyone``,
``region/<name>``) are expanded into one row per route in one transaction, so a dead HUD holds up
only its own rows. See README.md in this folder for the wire protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

import aiohttp
import orjson
import structlog
from aiohttp import web
from sqlalchemy import bindparam, delete, func
from sqlmodel import col, select, update

from adapters.body import BadBody, read_limited
from adapters.secondlife import registry
from adapters.secondlife.auth import (
    H_SIGNATURE,
    H_TIMESTAMP,
    UUID_RE,
    Refused,
    ReplayCache,
    Signed,
    sign,
    verify,
)
from adapters.secondlife.config import SL_BODY_LIMIT, SL_BODY_LIMIT_RAISED, SecondLifeConfig
from adapters.secondlife.registry import PLATFORM, ROLES, Registration
from adapters.secondlife.render import dumps, fit_response, reply_items, split_text
from adapters.secondlife.state import STATUS_FILTERS, hud_state, is_storyteller, roster
from gateway.adapter import Adapter
from gateway.errors import DeliveryFailed, Repeated, RetryLater, Settled, Throttled
from gateway.rules.numbers import is_digits
from gateway.services import Services
from gateway.types import Channel, Identity, InboundMessage, Outbound
from gateway.vault import repo
from gateway.vault.models import Audit, Character, IdentityLink, KeyValue, OutboxRow, Person, ProcessedMessage
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit

log = structlog.get_logger(__name__)

IDENTITY_PLATFORM = "sl"
CURSOR_SCOPE = "secondlife"
FANOUT = ("st-huds", "relays", "relay", "huds", "all-huds", "everyone")
H_BODY_MAX = "X-Gateway-Body-Max"
PRUNE_EVERY = 600.0
FANOUT_BATCH = 200
KEEP_BURNT = timedelta(hours=1)

_ROW = OutboxRow.__table__  # type: ignore[attr-defined]
# A fan-out row and the rows queued behind it for the same address. No bind parameter is named like
# a column: in an UPDATE, SQLAlchemy reserves those for the SET clause (a CompileError on PostgreSQL).
_QUEUED = (_ROW.c.platform == PLATFORM, _ROW.c.target == bindparam("address"), _ROW.c.status == "pending")
_BATCH = _ROW.c.id.between(bindparam("first"), bindparam("last"))
FANOUT_IDS = Prepared(
    select(_ROW.c.id).where(*_QUEUED, _ROW.c.id >= bindparam("first")).order_by(_ROW.c.id).limit(FANOUT_BATCH)
)
# Payloads only when there is someone to copy them to (no Storyteller HUD online: no JSON decoded).
FANOUT_PAYLOADS = Prepared(select(_ROW.c.payload).where(*_QUEUED, _BATCH).order_by(_ROW.c.id))
FANOUT_DONE = Prepared(
    update(_ROW)
    .where(*_QUEUED, _BATCH)
    .values(status="delivered", delivered_at=bindparam("now"), claimed_until=None)
)


class BadRequest(Exception):
    pass


class _Replayed(Exception):
    """Raised inside a transaction whose signature another request (any process) already used."""


REPLAYED = "replayed signature"


@dataclass(frozen=True)
class CommandRequest:
    text: str
    want_state: bool
    roster: dict[str, Any] | None
    limit: int


def _display_name(owner_name: str) -> str:
    """``"mira.vance Resident"`` -> ``"mira.vance"``: the legacy surname Resident carries nothing."""
    name = owner_name.strip()
    return name[: -len(" Resident")] if name.endswith(" Resident") else name


def _retry_after(value: str | None, now: datetime) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    with contextlib.suppress(TypeError, ValueError):
        when = parsedate_to_datetime(value)
        return max(0.0, (when - now).total_seconds())
    return None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class SecondLifeAdapter(Adapter):
    platform = PLATFORM

    def __init__(self, services: Services, config: SecondLifeConfig) -> None:
        self.services = services
        self.config = config
        self.replays = ReplayCache()
        self.buckets: dict[str, tuple[float, float]] = {}
        self.monotonic = time.monotonic
        self._http: aiohttp.ClientSession | None = None
        self._sem = asyncio.Semaphore(config.push_concurrency)
        self._progress: dict[int, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._kick = asyncio.Event()
        self._rng = random.Random()
        self._last_prune = 0.0

    # ------------------------------------------------------------------ lifecycle

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/sl/v1/command", self.command)
        app.router.add_post("/sl/v1/register", self.register)

    async def start(self) -> None:
        self._http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.config.push_timeout),
            headers={"User-Agent": "nightcap-gateway (Second Life adapter)"},
        )
        await self._warm_replays()
        await self._refresh_once()  # creates the audit cursor before the first request
        self._tasks.append(asyncio.create_task(self._watch(), name="secondlife:refresh"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._http is not None:
            await self._http.close()
            self._http = None

    @property
    def _owner(self) -> str | None:
        return self.services.settings.vault.owner

    @property
    def _system(self) -> str:
        return str(self.services.settings.gateway.default_system)

    def _now(self) -> datetime:
        return _aware(self.services.clock())

    # ------------------------------------------------------------------ inbound

    async def _read_body(self, request: web.Request) -> bytes | web.Response:
        try:
            return await read_limited(request, self.config.max_request_bytes)
        except BadBody as bad:
            return bad.response()

    def _authenticate(self, request: web.Request, body: bytes) -> Signed:
        now = self._now().timestamp()
        self.replays.prune(now)
        signed = verify(
            request.headers,
            body,
            secret=self.config.secret,
            shards=self.config.shards,
            now=now,
            window=self.config.timestamp_window,
        )
        if signed.signature in self.replays:  # the fast path; the vault's mark is the authority
            raise Refused(REPLAYED)
        return signed

    def _rate_limited(self, object_key: str) -> float | None:
        """Take a token from the object's bucket; the seconds to wait when there is none."""
        burst, rate = float(self.config.rate_burst), self.config.rate_per_second
        now = self.monotonic()
        tokens, last = self.buckets.get(object_key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        if tokens < 1.0:
            self.buckets[object_key] = (tokens, now)
            return (1.0 - tokens) / rate
        self.buckets[object_key] = (tokens - 1.0, now)
        if len(self.buckets) > 4096:
            self.buckets = {
                k: (t, at) for k, (t, at) in self.buckets.items() if t + (now - at) * rate < burst
            }
        return None

    async def _admit(self, request: web.Request) -> tuple[Signed, bytes] | web.Response:
        """Everything before a request may touch the vault: size, authentication, replay, rate."""
        body = await self._read_body(request)
        if isinstance(body, web.Response):
            return body
        try:
            signed = self._authenticate(request, body)
        except Refused as exc:
            log.info("second life request refused", reason=exc.text, peer=request.remote)
            return web.Response(status=401, text=exc.text)
        wait = self._rate_limited(signed.object_key)
        if wait is not None:
            return web.Response(
                status=429,
                text="too many requests from this object",
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )
        self.replays.add(signed.signature, signed.timestamp + self.config.timestamp_window + 1)
        return signed, body

    def _parse_command(self, request: web.Request, body: bytes) -> CommandRequest:
        try:
            text_body = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadRequest("the body is not UTF-8") from exc
        want_state, roster_req, body_max = False, None, 0
        if request.content_type == "application/json" or text_body.lstrip().startswith("{"):
            try:
                data = orjson.loads(body)
            except ValueError as exc:
                raise BadRequest('send JSON {"text": "<command>"} or the command as plain text') from exc
            if not isinstance(data, dict):
                raise BadRequest('send JSON {"text": "<command>"}')
            text = data.get("text", "")
            want_state = data.get("state") is True
            roster_req = data.get("roster")
            body_max = data.get("body_max") or 0
            if not isinstance(text, str) or (roster_req is not None and not isinstance(roster_req, dict)):
                raise BadRequest('"text" must be a string and "roster" an object')
            if not isinstance(body_max, int):
                raise BadRequest('"body_max" must be a number of bytes')
        else:
            text = text_body
        header_max = request.headers.get(H_BODY_MAX, "").strip()
        if is_digits(header_max):
            body_max = max(body_max, int(header_max))
        limit = min(max(body_max, SL_BODY_LIMIT), SL_BODY_LIMIT_RAISED)
        if not text.strip() and not want_state and roster_req is None:
            raise BadRequest("empty command")
        return CommandRequest(text=text, want_state=want_state, roster=roster_req, limit=limit)

    async def command(self, request: web.Request) -> web.Response:
        admitted = await self._admit(request)
        if isinstance(admitted, web.Response):
            return admitted
        signed, body = admitted
        try:
            req = self._parse_command(request, body)
        except BadRequest as exc:
            return web.Response(status=400, text=str(exc))
        identity = Identity(
            platform=IDENTITY_PLATFORM, id=signed.owner_key, display_name=_display_name(signed.owner_name)
        )
        replies = []
        marked = False  # whether the router's unit recorded the signature with the command's effect
        if req.text.strip():
            message = InboundMessage(
                sender=identity,
                channel=Channel(platform=PLATFORM, id=f"region/{signed.region}"),
                text=req.text,
                message_id=f"hmac:{signed.signature}",
                prefixed=False,
                sync_reply=True,
                refuse_repeat=True,
            )
            try:
                replies = await self.services.handle(message)
            except Repeated:
                log.info("second life request refused", reason=REPLAYED, peer=request.remote)
                return web.Response(status=401, text=REPLAYED)
            marked = bool(replies) and not any(r.error for r in replies)
            if req.text.split(None, 1)[0].casefold() == "st":
                self._kick.set()
        extra: dict[str, Any] = {}
        if not marked or req.want_state or req.roster is not None:
            try:
                async with self.services.vault.transaction() as session:
                    if not marked:
                        # A state-only request, or a command the router refused and rolled back
                        # (its mark with it): the signature is recorded here, with the state read.
                        fresh = await self._burn(session, signed)
                        if not fresh and not req.text.strip():
                            raise _Replayed
                    if req.want_state:
                        extra["state"] = await hud_state(session, identity.key, self._owner, self._system)
                    if req.roster is not None:
                        extra["roster"] = await self._roster(session, identity.key, req.roster)
            except _Replayed:
                log.info("second life request refused", reason=REPLAYED, peer=request.remote)
                return web.Response(status=401, text=REPLAYED)
        items = reply_items(replies)
        response, rest = fit_response(items, extra, req.limit)
        if rest:
            pushed = await self._push_overflow(signed, rest)
            if not pushed:
                response["cut"] = response.pop("more")
        return web.Response(body=dumps(response), content_type="application/json", charset="utf-8")

    async def _burn(self, session: Any, signed: Signed) -> bool:
        """Record the signature in the vault, in the caller's transaction; False when it was there
        already (a replay, to this process or another, before or after a restart). Atomic: on
        PostgreSQL a concurrent request with the same signature waits for this one's outcome."""
        values = {
            "platform": IDENTITY_PLATFORM,
            "message_id": repo.message_key(f"hmac:{signed.signature}"),
            "created_at": self._now(),
        }
        return await repo.insert_missing(session, ProcessedMessage, values)

    async def _roster(self, session: Any, identity_key: str, spec: dict[str, Any]) -> dict[str, Any]:
        link = await session.get(IdentityLink, identity_key)
        person = await session.get(Person, link.person_id) if link is not None else None
        if not await is_storyteller(session, person, identity_key, self._owner):
            return {"error": "the roster needs the Storyteller role"}
        status_word = str(spec.get("status") or "all").casefold()
        if status_word not in STATUS_FILTERS:
            return {"error": "status is unlocked, approved or all"}
        page = spec.get("page", 0)
        system = str(spec.get("system") or self.services.settings.gateway.default_system)
        return await roster(
            session,
            system,
            STATUS_FILTERS[status_word],
            str(spec.get("q") or ""),
            page if isinstance(page, int) else 0,
        )

    async def _push_overflow(self, signed: Signed, items: list[dict[str, Any]]) -> bool:
        """Reply lines that did not fit the response go to the object's URL, if it has one."""
        async with self.services.vault.transaction() as session:
            route = await registry.route_of_object(session, signed.object_key)
            if route is None:
                return False
            now = self._now()
            for item in items:
                payload = {"kind": "reply", "text": item["text"], "private": item["private"]}
                await repo.enqueue(session, PLATFORM, f"object/{signed.object_key}", payload, now=now)
        if self.services.outbox is not None:
            self.services.outbox.wake()
        return True

    async def register(self, request: web.Request) -> web.Response:
        admitted = await self._admit(request)
        if isinstance(admitted, web.Response):
            return admitted
        signed, body = admitted
        try:
            data = orjson.loads(body)
            url, role = data["url"], data["role"]
            if not isinstance(url, str) or not isinstance(role, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return web.Response(status=400, text='send JSON {"url": "<HTTP-in URL>", "role": "<role>"}')
        if role not in ROLES:
            return web.Response(status=400, text=f"role is one of {', '.join(ROLES)}")
        if not url.startswith(("http://", "https://")) or len(url) > 512 or any(c.isspace() for c in url):
            return web.Response(status=400, text="url must be the http:// or https:// URL llRequestURL gave")
        now = self._now()
        identity_key = f"{IDENTITY_PLATFORM}:{signed.owner_key}"
        reg = Registration(
            route=registry.route_for(role, signed.owner_key, signed.object_key),
            role=role,
            url=url,
            object=signed.object_key,
            owner=signed.owner_key,
            owner_name=_display_name(signed.owner_name),
            object_name=signed.object_name,
            region=signed.region,
            registered_at=now.isoformat(),
        )
        try:
            async with self.services.vault.transaction() as session:
                # First: a replayed registration (to either process, after any restart) changes nothing.
                if not await self._burn(session, signed):
                    raise _Replayed
                owner = self.services.settings.vault.owner
                if role == "st-hud":
                    link = await session.get(IdentityLink, identity_key)
                    person = await session.get(Person, link.person_id) if link is not None else None
                    if not await is_storyteller(session, person, identity_key, owner):
                        return web.Response(status=403, text="an st-hud needs the Storyteller role")
                await registry.register(session, reg, now)
                state = (
                    await hud_state(session, identity_key, owner, self._system) if role != "relay" else None
                )
        except _Replayed:
            log.info("second life request refused", reason=REPLAYED, peer=request.remote)
            return web.Response(status=401, text=REPLAYED)
        if self.services.outbox is not None:
            self.services.outbox.wake()
        log.info("second life object registered", route=reg.route, region=reg.region)
        answer: dict[str, Any] = {"ok": True, "route": reg.route}
        if state is not None:
            answer["state"] = state
        return web.Response(body=dumps(answer), content_type="application/json", charset="utf-8")

    async def _warm_replays(self) -> None:
        """Signatures accepted shortly before a restart stay refused after it (see README)."""
        now = self._now()
        since = now - timedelta(seconds=2 * self.config.timestamp_window + 60)
        async with self.services.vault.transaction() as session:
            found = await session.exec(
                select(ProcessedMessage.message_id).where(
                    col(ProcessedMessage.platform) == IDENTITY_PLATFORM,
                    col(ProcessedMessage.created_at) >= since,
                )
            )
            expires = now.timestamp() + 2 * self.config.timestamp_window + 60
            for message_id in found.all():
                if message_id.startswith("hmac:"):
                    self.replays.add(message_id[5:], expires)

    # ------------------------------------------------------------------ outbound

    async def deliver(self, message: Outbound) -> None:
        target = message.target
        if target in FANOUT or target.startswith("region/"):
            await self._fan_out(message)
            return
        now = self._now()
        age = (now - _aware(message.created_at)).total_seconds() if message.created_at else 0.0
        forget = self.config.forget_after_hours * 3600
        owner = self.services.settings.vault.owner
        state, allowed = None, True
        async with self.services.vault.transaction() as session:
            route = await self._route(session, target)
            reg = await registry.get(session, route) if route else None
            if reg is not None and not reg.dead_since:
                kind = message.payload.get("kind")
                identity_key = f"{IDENTITY_PLATFORM}:{reg.owner}"
                if reg.role == "st-hud" and kind == "stlog":
                    link = await session.get(IdentityLink, identity_key)
                    person = await session.get(Person, link.person_id) if link is not None else None
                    allowed = await is_storyteller(session, person, identity_key, owner)
                if kind == "refresh":
                    state = await hud_state(session, identity_key, owner, self._system)
        if reg is None:
            if age > forget:
                raise DeliveryFailed(f"no object has registered for {target} in {age / 3600:.0f} hours")
            raise RetryLater(f"no object registered for {target}", delay=self.config.dead_retry)
        if reg.dead_since:
            if (now - datetime.fromisoformat(reg.dead_since)).total_seconds() > forget:
                async with self.services.vault.transaction() as session:
                    await registry.forget(session, reg)
                raise DeliveryFailed(f"{reg.route} has been dead since {reg.dead_since}")
            raise RetryLater(f"{reg.route} answered 404 at {reg.dead_since}", delay=self.config.dead_retry)
        if not allowed:
            raise DeliveryFailed(f"{reg.owner} is no longer a Storyteller")
        bodies = self._bodies(message, reg, state)
        # Parts already accepted are not sent again when a later part is retried (kept in memory:
        # after a restart a half-sent row starts over, and the scripts drop the repeats by id/part).
        try:
            for index in range(self._progress.get(message.id, 0), len(bodies)):
                await self._post(reg, bodies[index], message)
                self._progress[message.id] = index + 1
        except DeliveryFailed:
            self._progress.pop(message.id, None)
            raise
        self._progress.pop(message.id, None)

    async def _route(self, session: Any, target: str) -> str | None:
        kind, _, key = target.partition("/")
        if kind == "object" and UUID_RE.match(key):
            return await registry.route_of_object(session, key)
        if kind == "avatar" and UUID_RE.match(key):
            return f"player-hud/{key}"
        if kind in ROLES and UUID_RE.match(key):
            return target
        raise DeliveryFailed(f"unknown Second Life target {target!r} (see adapters/secondlife/README.md)")

    async def _members(self, unit: Unit, target: str, now: datetime) -> list[Registration]:
        forget = timedelta(hours=self.config.forget_after_hours)

        def usable(reg: Registration) -> bool:
            return not reg.dead_since or now - datetime.fromisoformat(reg.dead_since) <= forget

        relays = [r for r in await registry.by_prefix(unit, "relay/") if usable(r)]
        if target in ("relays", "relay"):
            return relays
        if target == "st-huds":
            owner = self.services.settings.vault.owner
            members = []
            session = unit.session
            for reg in await registry.by_prefix(unit, "st-hud/"):
                key = f"{IDENTITY_PLATFORM}:{reg.owner}"
                link = await session.get(IdentityLink, key)
                person = await session.get(Person, link.person_id) if link is not None else None
                if usable(reg) and await is_storyteller(session, person, key, owner):
                    members.append(reg)
            return members
        huds = [r for r in await registry.by_prefix(unit, "player-hud/") if usable(r)]
        if target in ("huds", "all-huds"):
            return huds
        if target == "everyone":
            covered = {r.region.casefold() for r in relays if not r.dead_since}
            return relays + [h for h in huds if h.region.casefold() not in covered]
        region = target.partition("/")[2].casefold()
        here = [r for r in relays if r.region.casefold() == region]
        return here or [h for h in huds if h.region.casefold() == region]

    async def _fan_out(self, message: Outbound) -> None:
        """Expand this row, and the rows queued behind it for the same address, into one row per
        member route, in the transaction that marks them delivered (so a crash repeats nothing)."""
        now = self._now()
        async with self.services.vault.unit() as unit:
            batch = await unit.all(FANOUT_IDS, {"address": message.target, "first": message.id})
            if not batch or batch[0][0] != message.id:
                raise Settled  # another worker expanded it already
            members = await self._members(unit, message.target, now)
            rows = {"address": message.target, "first": message.id, "last": batch[-1][0]}
            payloads = await unit.all(FANOUT_PAYLOADS, rows) if members else []
            await unit.execute(FANOUT_DONE, {**rows, "now": now})
            for (payload,) in payloads:
                for reg in members:
                    await repo.enqueue(unit, PLATFORM, reg.route, {**payload, "via": message.target}, now=now)
        log.debug("second life fan-out", target=message.target, rows=len(batch), routes=len(members))
        if members and self.services.outbox is not None:
            self.services.outbox.wake([PLATFORM])
        raise Settled

    def _bodies(self, message: Outbound, reg: Registration, state: dict[str, Any] | None) -> list[bytes]:
        """The push bodies for one row: one per chat line of text, each within the size limit."""
        payload = message.payload
        kind = str(payload.get("kind") or "notice")
        base: dict[str, Any] = {"kind": kind, "id": message.id}
        for key in ("who", "char", "private"):
            value = payload.get(key)
            if value is not None:
                base[key] = value[:64] if isinstance(value, str) else value
        if state is not None:
            base["state"] = state
        max_bytes = self.config.relay_max_bytes if reg.role == "relay" else self.config.push_max_bytes
        text = str(payload.get("text") or "")
        limit = 1023
        while True:
            pieces = split_text(text, limit) if text else [""]
            bodies = []
            for i, piece in enumerate(pieces):
                body = {**base, "text": piece}
                if len(pieces) > 1:
                    body.update(part=i + 1, parts=len(pieces))
                bodies.append(dumps(body))
            over = max(len(b) for b in bodies) - max_bytes
            if over <= 0:
                return bodies
            if "state" in base:
                base.pop("state")
            elif limit > 64:
                limit = max(64, limit - over - 8)
            else:
                raise DeliveryFailed("push body cannot be made small enough")

    def _backoff(self, attempts: int) -> float:
        s = self.services.settings.outbox
        ceiling = min(s.max_delay, self.config.retry_max_delay)
        return min(ceiling, s.base_delay * 2 ** min(attempts, 20)) * self._rng.uniform(0.5, 1.0)

    async def _post(self, reg: Registration, body: bytes, message: Outbound) -> None:
        assert self._http is not None, "the adapter is not started"
        timestamp = str(int(self._now().timestamp()))
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            H_TIMESTAMP: timestamp,
            H_SIGNATURE: sign(self.config.secret, timestamp, reg.object, reg.owner, body),
        }
        async with self._sem:
            try:
                async with self._http.post(reg.url, data=body, headers=headers) as response:
                    status = response.status
                    retry_after = response.headers.get("Retry-After")
                    await response.read()
            except (TimeoutError, aiohttp.ClientError) as exc:
                raise RetryLater(
                    f"push to {reg.route} failed: {type(exc).__name__}", delay=self._backoff(message.attempts)
                ) from exc
        if 200 <= status < 300:
            return
        if status in (404, 410):
            async with self.services.vault.transaction() as session:
                await registry.mark_dead(session, reg.route, reg.url, self._now())
            log.info("second life URL dead", route=reg.route, status=status)
            raise RetryLater(f"{reg.route} answered {status}: URL dead", delay=self.config.dead_retry)
        if status in (429, 503) or status >= 500 or status in (408, 499):
            delay = _retry_after(retry_after, self._now())
            if delay is not None:
                raise Throttled(f"{reg.route} answered {status}, Retry-After {delay:g} s", delay)
            raise RetryLater(f"{reg.route} answered {status}", delay=self._backoff(message.attempts))
        raise DeliveryFailed(f"{reg.route} refused the push with {status}")

    # ------------------------------------------------------------------ sheet refresh notices

    async def _watch(self) -> None:
        while True:
            try:
                await self._refresh_once()
                await self._prune()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("second life refresh watcher failed")
            self._kick.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kick.wait(), self.config.refresh_poll)

    async def _refresh_once(self) -> int:
        """Queue a refresh notice to the Player HUD of every character a Storyteller just edited.

        Reads audit rows after a cursor kept in the vault (locked while read, so two gateway
        processes never both send one). Returns the number of notices queued.
        """
        queued = 0
        async with self.services.vault.transaction() as session:
            found = await session.exec(
                select(KeyValue)
                .where(col(KeyValue.scope) == CURSOR_SCOPE, col(KeyValue.key) == "audit-cursor")
                .with_for_update()
            )
            cursor = found.first()
            if cursor is None:
                # A fresh vault: start after the newest audit row. Two processes starting together
                # both get here (locking an absent row locks nothing): the upsert lets one create it.
                top = (await session.exec(select(func.max(Audit.id)))).one()
                start = {"id": int(top or 0)}
                values = {
                    "scope": CURSOR_SCOPE,
                    "key": "audit-cursor",
                    "value": start,
                    "updated_at": self._now(),
                }
                cursor, created = await repo.locked_or_created(session, KeyValue, values)
                if created:
                    return 0
            rows = list(
                (
                    await session.exec(
                        select(Audit)
                        .where(col(Audit.id) > int(cursor.value.get("id", 0)))
                        .order_by(col(Audit.id))
                        .limit(500)
                    )
                ).all()
            )
            if not rows:
                return 0
            actions: dict[int, set[str]] = {}
            for row in rows:
                if row.character_id is not None:
                    actions.setdefault(row.character_id, set())
            now = self._now()
            for character_id in actions:
                character = await session.get(Character, character_id)
                if character is None:
                    continue
                # A player's own edits answered their own HUD already; tell them about the others'.
                acts = {
                    r.action
                    for r in rows
                    if r.character_id == character_id and r.actor_id != character.owner_id
                }
                if not acts:
                    continue
                links = await session.exec(
                    select(IdentityLink).where(
                        col(IdentityLink.person_id) == character.owner_id,
                        col(IdentityLink.platform) == IDENTITY_PLATFORM,
                    )
                )
                for link in links.all():
                    route = f"player-hud/{link.key.partition(':')[2]}"
                    if await registry.get(session, route) is None:
                        continue
                    text = f"{character.name}: a Storyteller changed your sheet ({', '.join(sorted(acts))})."
                    payload = {"kind": "refresh", "text": text, "char": character.name}
                    await repo.enqueue(session, PLATFORM, route, payload, now=now)
                    queued += 1
            cursor.value = {"id": rows[-1].id}
            session.add(cursor)
        if queued and self.services.outbox is not None:
            self.services.outbox.wake()
        return queued

    async def _prune(self) -> None:
        """Replay marks older than an hour can never matter again (the window is minutes)."""
        now = self.monotonic()
        if now - self._last_prune < PRUNE_EVERY:
            return
        self._last_prune = now
        cutoff = self._now() - KEEP_BURNT
        async with self.services.vault.transaction() as session:
            await session.exec(  # type: ignore[call-overload]
                delete(ProcessedMessage).where(
                    col(ProcessedMessage.platform) == IDENTITY_PLATFORM,
                    col(ProcessedMessage.created_at) < cutoff,
                )
            )
