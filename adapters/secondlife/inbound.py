"""Requests from in-world objects: ``POST /sl/v1/command`` and ``POST /sl/v1/register``.

Body size, shard, keys, timestamp, signature and replay are checked before anything else (401 with a
short text on any failure), then a per-object token bucket (429 + ``Retry-After``): shared by every
process on a PostgreSQL vault (``gateway.delivery.rate_buckets``, on the database's clock), in memory on
SQLite, whose vault one process owns. Commands run through the router on the fast path; the answer
is JSON ``{"replies": [{"text", "private"}], ...}`` that fits the caller's body limit.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson
import structlog
from aiohttp import web

from adapters.body import BadBody, read_limited
from adapters.secondlife import registry
from adapters.secondlife.auth import Refused, ReplayCache, Signed, verify
from adapters.secondlife.common import IDENTITY_PLATFORM, Part
from adapters.secondlife.config import SL_BODY_LIMIT, SL_BODY_LIMIT_RAISED, SecondLifeConfig
from adapters.secondlife.menus import decl_of
from adapters.secondlife.registry import PLATFORM, ROLES, Registration
from adapters.secondlife.render import dumps, fit_response, reply_items
from adapters.secondlife.state import STATUS_FILTERS, hud_state, hud_state_in, roster
from gateway import AdapterServices, Channel, Identity, InboundMessage, Reading, Repeated
from gateway.delivery import queue, seen
from gateway.delivery.pacing import KeyedBuckets
from gateway.delivery.rate_buckets import SharedBuckets
from gateway.features.macros import names_seen as macro_names
from gateway.features.roles import is_storyteller
from gateway.rules.numbers import is_digits

log = structlog.get_logger(__name__)

H_BODY_MAX = "X-Gateway-Body-Max"
BUCKET_PREFIX = "secondlife:"  # the object buckets' keys in ``rate_bucket``
REPLAYED = "replayed signature"


class BadRequest(Exception):
    pass


class _Replayed(Exception):
    """Raised inside a transaction whose signature another request (any process) already used."""


@dataclass(frozen=True)
class CommandRequest:
    text: str
    want_state: bool
    roster: dict[str, Any] | None
    limit: int
    macros: bool = False  # the names of the sender's macros here, for the Player HUD's Macros page
    decl: str = ""  # a ``decl`` tag from the state: that system's menu declaration, in its language


def _display_name(owner_name: str) -> str:
    """``"mira.vance Resident"`` -> ``"mira.vance"``: the legacy surname Resident carries nothing."""
    name = owner_name.strip()
    return name[: -len(" Resident")] if name.endswith(" Resident") else name


class Inbound(Part):
    """The two HTTP endpoints."""

    def __init__(self, services: AdapterServices, config: SecondLifeConfig) -> None:
        super().__init__(services)
        self.config = config
        self.replays = ReplayCache()
        self.monotonic = time.monotonic
        # Per-object buckets; ``monotonic`` is looked up at each call, so a test can set it later.
        self.buckets = KeyedBuckets(config.rate_burst, config.rate_per_second, clock=lambda: self.monotonic())
        # On PostgreSQL several processes serve one vault: the buckets are its rows.
        self.shared = (
            SharedBuckets(services.vault, config.rate_burst, config.rate_per_second, prefix=BUCKET_PREFIX)
            if services.vault.dialect == "postgresql"
            else None
        )

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

    async def _rate_limited(self, object_key: str) -> float | None:
        """Take a token from the object's bucket; the seconds to wait when there is none."""
        if self.shared is not None:
            return await self.shared.take(object_key)
        wait = self.buckets.take(object_key)
        return wait if wait > 0 else None

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
        wait = await self._rate_limited(signed.object_key)
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
        want_state, roster_req, body_max, macros, decl = False, None, 0, False, ""
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
            macros = data.get("macros") is True
            body_max = data.get("body_max") or 0
            decl = data.get("decl") or ""
            if not isinstance(decl, str):
                raise BadRequest('"decl" must be the tag the state gave')
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
        if not text.strip() and not want_state and roster_req is None and not macros and not decl:
            raise BadRequest("empty command")
        return CommandRequest(
            text=text, want_state=want_state, roster=roster_req, limit=limit, macros=macros, decl=decl
        )

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
        extra: dict[str, Any] = {}
        wanted = req.want_state or req.roster is not None or req.macros
        if req.decl:
            # Declarations, no vault: read alone it changes nothing, so it needs no mark either.
            found = self._declaration(req.decl)
            if found is None:
                return web.Response(status=400, text="no such decl tag: ask for the state again")
            extra["decl"] = found
            marked = not wanted and not req.text.strip()
        where = Channel(platform=PLATFORM, id=f"region/{signed.region}")

        async def read(reading: Reading) -> dict[str, Any]:
            """What the HUD asked for besides the replies, read in the command's own unit."""
            found: dict[str, Any] = {}
            if req.want_state:
                found["state"] = await hud_state_in(reading, self.services, self._system)
            if req.roster is not None:
                session = reading.unit.session
                found["roster"] = await self._roster(session, identity.key, req.roster, reading.storyteller)
            if req.macros:
                session = reading.unit.session
                found["macros"] = await macro_names(session, identity.key, where.key, self._system)
            return found

        if req.text.strip():
            message = InboundMessage(
                sender=identity,
                channel=where,
                text=req.text,
                message_id=f"hmac:{signed.signature}",
                prefixed=False,
                sync_reply=True,
                # The answer goes back to the HUD only: the region (its relays) never hears it.
                replies_reach_channel=False,
                refuse_repeat=True,
            )
            try:
                handled = await self.services.run(message, read if wanted else None)
            except Repeated:
                log.info("second life request refused", reason=REPLAYED, peer=request.remote)
                return web.Response(status=401, text=REPLAYED)
            replies = handled.replies
            marked = bool(replies) and not any(r.error for r in replies)
            if handled.state is not None:  # the unit committed: the signature is marked with it
                extra, wanted, marked = {**extra, **handled.state}, False, True
        if not marked or wanted:
            try:
                async with self.services.vault.transaction() as session:
                    if not marked:
                        # A state-only request, or a command the router refused and rolled back
                        # (its mark with it): the signature is recorded here, with the state read.
                        fresh = await self._burn(session, signed)
                        if not fresh and not req.text.strip():
                            raise _Replayed
                    if req.want_state:
                        extra["state"] = await hud_state(
                            session, self.services, identity.key, self._owner, self._system
                        )
                    if req.roster is not None:
                        extra["roster"] = await self._roster(session, identity.key, req.roster)
                    if req.macros:
                        extra["macros"] = await macro_names(session, identity.key, where.key, self._system)
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

    def _declaration(self, tag: str) -> dict[str, Any] | None:
        """The menu declaration a state's ``decl`` tag names (``system.locale.digest``)."""
        name, _, rest = tag.partition(".")
        locale = rest.partition(".")[0]
        system = self.services.systems().get(name)
        if system is None or locale not in system.locales:
            return None
        return decl_of(system, locale)

    async def _burn(self, session: Any, signed: Signed) -> bool:
        """Record the signature in the vault, in the caller's transaction; False when it was there
        already (a replay, to this process or another, before or after a restart). Atomic: on
        PostgreSQL a concurrent request with the same signature waits for this one's outcome."""
        return await seen.mark(session, IDENTITY_PLATFORM, f"hmac:{signed.signature}", self._now())

    async def _roster(
        self, session: Any, identity_key: str, spec: dict[str, Any], storyteller: bool | None = None
    ) -> dict[str, Any]:
        if storyteller is None:
            storyteller = await is_storyteller(session, identity_key, self._owner)
        if not storyteller:
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
                await queue.enqueue(session, PLATFORM, f"object/{signed.object_key}", payload, now=now)
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
                owner = self._owner
                if role == "st-hud" and not await is_storyteller(session, identity_key, owner):
                    return web.Response(status=403, text="an st-hud needs the Storyteller role")
                await registry.register(session, reg, now)
                state = (
                    await hud_state(session, self.services, identity_key, owner, self._system)
                    if role != "relay"
                    else None
                )
        except _Replayed:
            log.info("second life request refused", reason=REPLAYED, peer=request.remote)
            return web.Response(status=401, text=REPLAYED)
        log.info("second life object registered", route=reg.route, region=reg.region)
        answer: dict[str, Any] = {"ok": True, "route": reg.route}
        if state is not None:
            answer["state"] = state
        return web.Response(body=dumps(answer), content_type="application/json", charset="utf-8")

    async def warm_replays(self) -> None:
        """Signatures accepted shortly before a restart stay refused after it (see README)."""
        now = self._now()
        since = now - timedelta(seconds=2 * self.config.timestamp_window + 60)
        expires = now.timestamp() + 2 * self.config.timestamp_window + 60
        for message_id in await seen.recent(self.services.vault, IDENTITY_PLATFORM, since):
            if message_id.startswith("hmac:"):
                self.replays.add(message_id[5:], expires)
