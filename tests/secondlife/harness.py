"""Test doubles for Second Life: a HUD emulator that speaks exactly what a simulator sends, and a fake
in-world object (an HTTP-in URL) that receives the gateway's pushes and checks them.

Signatures here are computed with the standard library, independently of the adapter's own code,
so a mistake in ``adapters.secondlife.auth`` cannot hide behind a shared helper.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from gateway.core.app import Gateway, build_app
from gateway.testing import migrated_vault

SECRET = "correct horse battery staple 42"
SL_VERSION = "Second Life LSL/2025-11-21.1234567 (http://secondlife.com)"


def reference_hmac(secret: str, timestamp: str, object_key: str, owner_key: str, body: bytes) -> str:
    """What llHMAC(secret, ts + "\\n" + object + "\\n" + owner + "\\n" + body, "sha256") returns."""
    message = (timestamp + "\n" + object_key + "\n" + owner_key + "\n").encode("utf-8") + body
    return base64.b64encode(hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()).decode()


GRIDS = {"Production": "agni", "Testing": "aditi"}  # what llGetEnv("grid") says on each shard


def reference_request_hmac(
    secret: str, timestamp: str, object_key: str, owner_key: str, grid: str, region: str, body: bytes
) -> str:
    """What a HUD's request carries: llHMAC(secret, ts + "\\n" + llGetKey() + "\\n" + llGetOwner()
    + "\\n" + llGetEnv("grid") + "\\n" + llGetRegionName() + "\\n" + body, "sha256")."""
    head = "\n".join((timestamp, object_key, owner_key, grid, region, ""))
    return base64.b64encode(
        hmac.new(secret.encode("utf-8"), head.encode() + body, hashlib.sha256).digest()
    ).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_key() -> str:
    return str(uuid.uuid4())


@dataclass
class HudResponse:
    status: int
    headers: dict[str, str]
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw)

    @property
    def texts(self) -> list[str]:
        return [r["text"] for r in self.json["replies"]]

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8")


@dataclass
class Hud:
    """An in-world object calling the gateway with llHTTPRequest, as the simulator sends it."""

    base_url: str
    owner_name: str
    owner_key: str = field(default_factory=new_key)
    object_key: str = field(default_factory=new_key)
    object_name: str = "Nightcap Player HUD"
    region: str = "Nightcap Sim (256000, 256000)"
    shard: str = "Production"
    secret: str = SECRET
    clock: Callable[[], float] = time.time
    sent: int = 0

    def sim_headers(self, mimetype: str) -> dict[str, str]:
        """The headers a simulator adds to every llHTTPRequest (protocols.md §1.1)."""
        return {
            "User-Agent": SL_VERSION,
            "Content-Type": mimetype,
            "Accept-Charset": "utf-8;q=1.0, *;q=0.5",
            "Pragma": "no-cache",
            "Cache-Control": "max-age=259200",
            "Connection": "close",
            "Via": "1.1 sim10042.agni.lindenlab.com:3128 (squid/2.7.STABLE9)",
            "X-SecondLife-Shard": self.shard,
            "X-SecondLife-Object-Name": self.object_name,
            "X-SecondLife-Object-Key": self.object_key,
            "X-SecondLife-Region": self.region,
            "X-SecondLife-Local-Position": "(128.5, 127.25, 23.0)",
            "X-SecondLife-Local-Rotation": "0.000000, 0.000000, 0.000000, 1.000000",
            "X-SecondLife-Local-Velocity": "(0.000000, 0.000000, 0.000000)",
            "X-SecondLife-Owner-Name": self.owner_name,
            "X-SecondLife-Owner-Key": self.owner_key,
        }

    def signed_headers(
        self, body: bytes, mimetype: str, *, timestamp: int | None = None, owner_key: str | None = None
    ) -> dict[str, str]:
        ts = str(int(self.clock()) if timestamp is None else timestamp)
        headers = self.sim_headers(mimetype)
        headers["X-Gateway-Timestamp"] = ts
        # The script signs where it is: its grid and its region's name (llGetRegionName()).
        grid = GRIDS.get(self.shard, self.shard.casefold())
        region = self.region.rsplit(" (", 1)[0]
        headers["X-Gateway-Signature"] = reference_request_hmac(
            self.secret, ts, self.object_key, owner_key or self.owner_key, grid, region, body
        )
        return headers

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> HudResponse:
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.base_url + path, data=body, headers=headers) as resp,
        ):
            return HudResponse(resp.status, dict(resp.headers), await resp.read())

    async def command(
        self,
        text: str,
        *,
        state: bool = False,
        roster: dict[str, Any] | None = None,
        body_max: int | None = None,
        plain: bool = False,
        decl: str | None = None,
    ) -> HudResponse:
        if plain:
            body, mimetype = text.encode("utf-8"), "text/plain; charset=utf-8"
        else:
            # A nonce, as the LSL HUDs send: two identical commands in one second would otherwise
            # carry the same signature, and the second would be refused as a replay.
            self.sent += 1
            data: dict[str, Any] = {"text": text, "nonce": self.sent}
            if state:
                data["state"] = True
            if roster is not None:
                data["roster"] = roster
            if body_max is not None:
                data["body_max"] = body_max
            if decl is not None:
                data["decl"] = decl
            body, mimetype = json.dumps(data).encode("utf-8"), "application/json"
        return await self.post("/sl/v1/command", body, self.signed_headers(body, mimetype))

    async def register(self, url: str, role: str) -> HudResponse:
        self.sent += 1
        body = json.dumps({"url": url, "role": role, "nonce": self.sent}).encode()
        return await self.post("/sl/v1/register", body, self.signed_headers(body, "application/json"))


@dataclass
class Push:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict[str, Any]:
        return dict(json.loads(self.body))


class FakeObject:
    """An in-world object's HTTP-in URL. It checks every push the way the LSL scripts do (size,
    timestamp, signature with its own keys) and answers as scripted: ``script`` holds the next
    behaviours ("ok", ("503", seconds), "404", ("hang", seconds)); when empty it answers 200."""

    def __init__(self, owner_key: str, object_key: str | None = None, secret: str = SECRET) -> None:
        self.owner_key = owner_key
        self.object_key = object_key or new_key()
        self.secret = secret
        self.received: list[Push] = []
        self.refused: list[str] = []
        self.attempts = 0
        self.script: list[Any] = []
        self.gone = False
        self.port = free_port()
        self.path = f"/cap/{uuid.uuid4()}"
        self._runner: web.AppRunner | None = None
        self.arrived = asyncio.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    def new_url(self) -> str:
        """What llRequestURL grants after a region restart: a fresh cap on the same host."""
        self.path = f"/cap/{uuid.uuid4()}"
        self.gone = False
        return self.url

    async def start(self) -> FakeObject:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=0.2)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        self.attempts += 1
        if request.path != self.path or self.gone:
            return web.Response(status=404, text="cap not found")
        body = await request.read()
        if self.script:
            step = self.script.pop(0)
            if step == "404":
                self.gone = True
                return web.Response(status=404, text="cap not found")
            if isinstance(step, tuple) and step[0] == "503":
                return web.Response(status=503, text="busy", headers={"Retry-After": str(step[1])})
            if isinstance(step, tuple) and step[0] == "hang":
                await asyncio.sleep(step[1])
                return web.Response(status=200, text="late")
        problem = self.check(request, body)
        if problem:
            self.refused.append(problem)
            return web.Response(status=401, text=problem)
        self.received.append(Push(request.path, dict(request.headers), body))
        self.arrived.set()
        return web.Response(status=200, text="ok")

    def check(self, request: web.Request, body: bytes) -> str | None:
        if request.method != "POST":
            return "not a POST"
        if len(body) >= 2048:
            return f"body of {len(body)} bytes would be truncated"
        ts = request.headers.get("x-gateway-timestamp", "")
        sig = request.headers.get("x-gateway-signature", "")
        if not ts.isdigit() or abs(time.time() - int(ts)) > 120:
            return "bad timestamp"
        if sig != reference_hmac(self.secret, ts, self.object_key, self.owner_key, body):
            return "bad signature"
        try:
            json.loads(body)
        except ValueError:
            return "not JSON"
        return None


async def eventually(check: Callable[[], Awaitable[bool] | bool], timeout: float = 60.0) -> None:
    """Wait until ``check`` holds (polling); fail the test if it never does."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise AssertionError("condition never became true")
        await asyncio.sleep(0.02)


@dataclass
class Running:
    gateway: Gateway
    runner: web.AppRunner
    base_url: str

    @property
    def adapter(self) -> Any:
        return self.gateway.adapters["secondlife"]

    @property
    def services(self) -> Any:
        return self.gateway.services

    async def stop(self) -> None:
        await self.runner.cleanup()


async def serve(gateway: Gateway) -> Running:
    """The gateway's real aiohttp app on a free loopback port (start-up runs through cleanup_ctx)."""
    await migrated_vault(gateway.settings.vault.url)  # a copy of a migrated vault: Alembic only checks it
    await gateway.upgrade_vault()
    runner = web.AppRunner(build_app(gateway))
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return Running(gateway, runner, f"http://127.0.0.1:{port}")
