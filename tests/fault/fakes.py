"""Outbound targets for the fault campaign: a Discord webhook and a Second Life HUD's HTTP-in URL on
loopback, each recording every delivery it accepted with the identity of the message, and each able
to go down on demand.

Modes (``FakeTarget.set_mode``): ``ok``; ``503`` (answer ``503`` with ``Retry-After: 1``); ``hang``
(read the request and never answer while the mode lasts: the caller's timeout fires; a hung request
is never recorded, it is dropped with a 503 when the mode changes); ``refuse`` (stop listening: new
connections are refused, open ones closed). Every change is time-stamped, so the report can measure
delays from the moment a target answered again.

What identifies a message in a delivery:
- Discord webhook body: the roll's public id is the last ``#id`` of the embed footer
  (``adapters/discord/render.roll_embed``); the outbox row id is not sent (webhooks have no
  idempotency key).
- Second Life push body: ``{"kind", "id": <outbox row id of the fanned-out row>, "who", "text"}``;
  the roll's public id ends the text (``... #k3f9x``). The HUD scripts drop a repeated ``id``.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.secondlife.harness import SECRET, reference_hmac

ROLL_ID = re.compile(r"#([0-9a-z]{3,16})\b")
WEBHOOK_ID = "910000000000000001"
WEBHOOK_TOKEN = "fault-campaign-webhook-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Delivery:
    target: str  # "discord" or "secondlife"
    roll_id: str | None
    row_id: int | None  # the outbox row id when the platform sends one (Second Life)
    who: str | None
    at: float  # wall clock (time.time), comparable with the vault's timestamps
    body: dict[str, Any]


@dataclass
class FakeTarget:
    """One outbound target. ``kind`` is ``discord`` (``POST /api/v10/webhooks/{id}/{token}``) or
    ``secondlife`` (``POST /cap/<uuid>``, signature checked as the LSL scripts do)."""

    kind: str
    owner_key: str = field(default_factory=lambda: str(uuid.uuid4()))
    object_key: str = field(default_factory=lambda: str(uuid.uuid4()))
    port: int = field(default_factory=free_port)
    cap: str = field(default_factory=lambda: f"/cap/{uuid.uuid4()}")
    mode: str = "ok"
    deliveries: list[Delivery] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    attempts: int = 0
    outage_answers: int = 0
    # (wall time, new mode) for every change, and the wall times at which it came back (mode "ok").
    changes: list[tuple[float, str]] = field(default_factory=list)
    _runner: web.AppRunner | None = None
    _site: web.TCPSite | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _message_ids: int = 930000000000000000

    # ------------------------------------------------------------------ addresses

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """``[discord] api_base``."""
        return f"{self.base}/api/v10"

    @property
    def webhook_url(self) -> str:
        """``[discord.webhooks]`` value (the adapter keeps the id and token, and posts to api_base)."""
        return f"https://discord.com/api/webhooks/{WEBHOOK_ID}/{WEBHOOK_TOKEN}"

    @property
    def hud_url(self) -> str:
        """The HTTP-in URL a Storyteller HUD registers."""
        return self.base + self.cap

    @property
    def recoveries(self) -> list[float]:
        out = []
        previous = "ok"
        for at, mode in self.changes:
            if mode == "ok" and previous != "ok":
                out.append(at)
            previous = mode
        return out

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> FakeTarget:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.2)
        await self._runner.setup()
        await self._listen()
        return self

    async def _listen(self) -> None:
        assert self._runner is not None
        self._site = web.TCPSite(self._runner, "127.0.0.1", self.port, reuse_address=True)
        for _ in range(50):
            try:
                await self._site.start()
                return
            except OSError:
                await asyncio.sleep(0.1)
        await self._site.start()

    async def close(self) -> None:
        self._changed.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def set_mode(self, mode: str) -> None:
        assert mode in ("ok", "503", "hang", "refuse"), mode
        if mode == self.mode:
            return
        previous, self.mode = self.mode, mode
        if previous == "refuse":
            await self._listen()
        if mode == "refuse" and self._site is not None:
            await self._site.stop()
            # Close connections kept alive by the client too: a refused target takes nothing.
            server = self._runner.server if self._runner is not None else None
            if server is not None:
                for handler in list(server.connections):
                    handler.force_close()
        self.changes.append((time.time(), mode))
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    # ------------------------------------------------------------------ requests

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        self.attempts += 1
        body = await request.read()
        if self.mode == "503":
            self.outage_answers += 1
            return web.Response(status=503, text="busy", headers={"Retry-After": "1"})
        if self.mode == "hang":
            self.outage_answers += 1
            await self._changed.wait()
            return web.Response(status=503, text="was hanging", headers={"Retry-After": "1"})
        if self.mode == "refuse":  # a request on a connection opened just before the switch
            self.outage_answers += 1
            return web.Response(status=503, text="going down")
        if self.kind == "discord":
            return self._discord(request, body)
        return self._secondlife(request, body)

    def _discord(self, request: web.Request, raw: bytes) -> web.Response:
        if request.path != f"/api/v10/webhooks/{WEBHOOK_ID}/{WEBHOOK_TOKEN}":
            return web.json_response({"message": "Unknown Webhook", "code": 10015}, status=404)
        try:
            body = json.loads(raw)
        except ValueError:
            self.refused.append("not JSON")
            return web.json_response({"message": "Invalid Form Body", "code": 50035}, status=400)
        footer = " ".join(str((e.get("footer") or {}).get("text", "")) for e in body.get("embeds") or [])
        found = ROLL_ID.findall(footer) or ROLL_ID.findall(str(body.get("content") or ""))
        who = None
        for e in body.get("embeds") or []:
            who = (e.get("author") or {}).get("name") or who
        self.deliveries.append(
            Delivery("discord", found[-1] if found else None, None, who, time.time(), body)
        )
        self._message_ids += 1
        message = {"id": str(self._message_ids), "channel_id": "200", "webhook_id": WEBHOOK_ID}
        if request.query.get("wait") != "true":
            return web.Response(status=204)
        return web.json_response(message)

    def _secondlife(self, request: web.Request, raw: bytes) -> web.Response:
        if request.path != self.cap:
            return web.Response(status=404, text="cap not found")
        ts = request.headers.get("x-gateway-timestamp", "")
        sig = request.headers.get("x-gateway-signature", "")
        if not ts.isdigit() or abs(time.time() - int(ts)) > 120:
            self.refused.append("bad timestamp")
            return web.Response(status=401, text="bad timestamp")
        if sig != reference_hmac(SECRET, ts, self.object_key, self.owner_key, raw):
            self.refused.append("bad signature")
            return web.Response(status=401, text="bad signature")
        try:
            body = json.loads(raw)
        except ValueError:
            self.refused.append("not JSON")
            return web.Response(status=400, text="not JSON")
        found = ROLL_ID.findall(str(body.get("text") or ""))
        row = body.get("id")
        self.deliveries.append(
            Delivery(
                "secondlife",
                found[-1] if found else None,
                int(row) if isinstance(row, int) else None,
                body.get("who"),
                time.time(),
                body,
            )
        )
        return web.Response(status=200, text="ok")
