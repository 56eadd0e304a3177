"""``POST /api/v1/command``: ``{"text": "roll 3", "channel": "optional-name"}`` -> ``{"replies": [...]}``.

Callers authenticate with ``Authorization: Bearer <token>``; tokens are named in ``[http] tokens`` and
the caller's identity is ``http:<name>``. With no tokens configured the endpoint refuses everything.

``Idempotency-Key`` (at most 255 characters, scoped to the caller's token): a request retried with the
same key runs once, and every retry is answered with the replies the first run gave. A retry that
arrives while the first run is still in its transaction (on another process) waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta

import structlog
from aiohttp import web

from adapters.body import BadBody, json_object, optional_str, read_limited
from gateway import Adapter, AdapterServices, Channel, DeliveryFailed, Identity, InboundMessage, Outbound
from gateway.delivery import seen

log = structlog.get_logger(__name__)

MAX_BODY = 16 * 1024
USAGE = 'send JSON {"text": "<command>", "channel": "<optional name>", "name": "<optional name>"}'


@dataclass(frozen=True)
class CommandBody:
    text: str
    channel: str | None
    name: str | None


async def read_command(request: web.Request) -> CommandBody:
    """The body of a command request, or ``BadBody``: at most MAX_BODY bytes read, strings only."""
    data = json_object(await read_limited(request, MAX_BODY), USAGE)
    text = data.get("text")
    if not isinstance(text, str):
        raise BadBody(400, USAGE)
    return CommandBody(text, optional_str(data, "channel", USAGE), optional_str(data, "name", USAGE))


# Stripe's limit. A longer key is refused, not cut: cut keys that differ after the cut would collide.
IDEMPOTENCY_KEY_MAX = 255
KEEP_KEYS = timedelta(hours=24)
PRUNE_EVERY = 600.0
PRUNE_LEASE = "http:prune"  # one process of the vault prunes the keys


def idempotency_id(token_name: str, key: str) -> str:
    """The stored message id of an ``Idempotency-Key``: scoped to the caller's token (one caller's
    key never matches another's), hashed whole so it fits the column whatever its length."""
    digest = hashlib.sha256(f"{token_name}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"idem:{digest}"


class HttpApiAdapter(Adapter):
    platform = "http"

    def __init__(self, services: AdapterServices) -> None:
        self.services = services
        self._pruner: asyncio.Task[None] | None = None

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/api/v1/command", self.command)

    def _caller(self, request: web.Request) -> str | None:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            return None
        for name, expected in self.services.settings.http.tokens.items():
            if hmac.compare_digest(token.encode(), expected.encode()):
                return name
        return None

    async def command(self, request: web.Request) -> web.Response:
        name = self._caller(request)
        if name is None:
            return web.Response(status=401, text="missing or unknown bearer token")
        key = request.headers.get("Idempotency-Key")
        if key is not None and len(key) > IDEMPOTENCY_KEY_MAX:
            return web.Response(
                status=400, text=f"Idempotency-Key is longer than {IDEMPOTENCY_KEY_MAX} characters"
            )
        try:
            body = await read_command(request)
        except BadBody as bad:
            return bad.json_response()
        channel = (body.channel or name)[:200]
        message = InboundMessage(
            sender=Identity(platform="http", id=name, display_name=(body.name or name)[:80]),
            channel=Channel(platform="http", id=channel),
            text=body.text,
            message_id=idempotency_id(name, key) if key else None,
        )
        replies = await self.services.handle(message)
        return web.json_response({"replies": [r.as_json() for r in replies]})

    async def deliver(self, message: Outbound) -> None:
        # HTTP callers are answered on the request; there is nowhere to push later.
        raise DeliveryFailed("the HTTP API has no push channel")

    async def start(self) -> None:
        pruner = self.services.leases.run(PRUNE_LEASE, lambda _lease: self._prune_keys())
        self._pruner = asyncio.create_task(pruner, name="http:idempotency-keys")

    async def stop(self) -> None:
        if self._pruner is not None:
            self._pruner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pruner
            self._pruner = None

    async def _prune_keys(self) -> None:
        while True:
            try:
                await self.prune_keys()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("pruning idempotency keys failed")
            await asyncio.sleep(PRUNE_EVERY)

    async def prune_keys(self) -> int:
        """Idempotency keys (and the answers kept with them) are kept KEEP_KEYS, as Stripe does: a
        retry later than that runs again. Returns how many were deleted."""
        cutoff = self.services.clock() - KEEP_KEYS
        return await seen.prune(self.services.vault, self.platform, cutoff)
