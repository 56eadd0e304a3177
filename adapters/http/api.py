"""``POST /api/v1/command``: ``{"text": "roll 3", "channel": "optional-name"}`` -> ``{"replies": [...]}``.

Callers authenticate with ``Authorization: Bearer <token>``; tokens are named in ``[http] tokens`` and
the caller's identity is ``http:<name>``. With no tokens configured the endpoint refuses everything.
"""

from __future__ import annotations

import hmac
import json

from aiohttp import web

from gateway.adapter import Adapter
from gateway.errors import DeliveryFailed
from gateway.services import Services
from gateway.types import Channel, Identity, InboundMessage, Outbound

MAX_BODY = 16 * 1024


class HttpApiAdapter(Adapter):
    platform = "http"

    def __init__(self, services: Services) -> None:
        self.services = services

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
        if request.content_length is not None and request.content_length > MAX_BODY:
            return web.Response(status=413, text="body too large")
        try:
            body = json.loads(await request.read())
            text = body["text"]
            channel = str(body.get("channel") or name)[:200]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return web.json_response({"error": 'send JSON {"text": "<command>"}'}, status=400)
        message = InboundMessage(
            sender=Identity(platform="http", id=name, display_name=str(body.get("name") or name)[:80]),
            channel=Channel(platform="http", id=channel),
            text=text,
            message_id=request.headers.get("Idempotency-Key"),
        )
        replies = await self.services.handle(message)
        return web.json_response({"replies": [r.as_json() for r in replies]})

    async def deliver(self, message: Outbound) -> None:
        # HTTP callers are answered on the request; there is nowhere to push later.
        raise DeliveryFailed("the HTTP API has no push channel")
