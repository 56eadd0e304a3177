"""The fake Gateway keeps the documented protocol, checked with a bare websocket client (hikari never
breaks these rules itself, so the Gateway-mode tests alone would not show the fake enforces them)."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.discord.fake_gateway import (
    HEARTBEAT,
    HEARTBEAT_ACK,
    HELLO,
    IDENTIFY,
    INVALID_SESSION,
    MESSAGE_CONTENT,
    RESUME,
    SEND_LIMIT,
    FakeDiscordBot,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture
async def bot() -> AsyncIterator[FakeDiscordBot]:
    server = await FakeDiscordBot().start()
    yield server
    await server.close()


class Client:
    """A bare Gateway client: JSON out, zlib-stream in (one inflater per connection)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj()

    async def receive(self) -> dict[str, Any] | int:
        """The next payload, or the close code."""
        msg = await self.ws.receive(timeout=10)
        if msg.type == aiohttp.WSMsgType.BINARY:
            data: bytes = msg.data
            assert data.endswith(b"\x00\x00\xff\xff")
            return dict(json.loads(self.inflate.decompress(data)))
        if msg.type == aiohttp.WSMsgType.TEXT:
            return dict(json.loads(msg.data))
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        return int(self.ws.close_code or 0)

    async def send(self, op: int, d: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": d}))


async def connect(bot: FakeDiscordBot, http: aiohttp.ClientSession, url: str | None = None) -> Client:
    if url is None:
        headers = {"Authorization": f"Bot {bot.bot_token}"}
        async with http.get(bot.base_url + "/gateway/bot", headers=headers) as response:
            url = (await response.json())["url"]
    ws = await http.ws_connect(f"{url}?v=10&encoding=json&compress=zlib-stream")
    client = Client(ws)
    hello = await client.receive()
    assert isinstance(hello, dict) and hello["op"] == HELLO and hello["d"]["heartbeat_interval"] == 45000
    return client


def identify(bot: FakeDiscordBot, intents: int = 513, shard: list[int] | None = None) -> dict[str, Any]:
    return {
        "token": bot.bot_token,
        "intents": intents,
        "properties": {"os": "linux", "browser": "test", "device": "test"},
        "shard": shard or [0, 1],
    }


async def test_identify_ready_heartbeat_and_resume_replay(bot: FakeDiscordBot) -> None:
    async with aiohttp.ClientSession() as http:
        client = await connect(bot, http)
        await client.send(HEARTBEAT, None)
        assert (await client.receive())["op"] == HEARTBEAT_ACK  # type: ignore[index]
        await client.send(IDENTIFY, identify(bot))
        ready = await client.receive()
        assert isinstance(ready, dict) and ready["t"] == "READY" and ready["s"] == 1
        session, resume_url = ready["d"]["session_id"], ready["d"]["resume_gateway_url"]
        await bot.dispatch("MESSAGE_CREATE", {"id": "1"})
        assert (await client.receive())["s"] == 2  # type: ignore[index]
        await bot.drop()
        await bot.dispatch("MESSAGE_CREATE", {"id": "2"})  # while away
        await bot.dispatch("MESSAGE_CREATE", {"id": "3"})
        again = await connect(bot, http, resume_url)
        await again.send(RESUME, {"token": bot.bot_token, "session_id": session, "seq": 2})
        replayed = [await again.receive() for _ in range(3)]
        assert [(p["s"], p["t"]) for p in replayed] == [
            (3, "MESSAGE_CREATE"),
            (4, "MESSAGE_CREATE"),
            (5, "RESUMED"),
        ]  # type: ignore[index]
        assert bot.paths == ["/gateway", "/resume-gateway"]


@pytest.mark.parametrize(
    ("first", "code"),
    [
        ({"op": 3, "d": {}}, 4003),  # a payload before IDENTIFY
        ({"op": 99, "d": None}, 4001),
        ("not json", 4002),
    ],
)
async def test_protocol_errors_close_with_their_codes(bot: FakeDiscordBot, first: Any, code: int) -> None:
    async with aiohttp.ClientSession() as http:
        client = await connect(bot, http)
        await client.ws.send_str(first if isinstance(first, str) else json.dumps(first))
        assert await client.receive() == code


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"token": "MTAwMDAwMDAwMDAwMDAwMDAy.GwRong.x"}, 4004),
        ({"intents": 1 << 30}, 4013),
        ({"intents": 513 | MESSAGE_CONTENT}, 4014),  # not switched on in the "portal"
        ({"shard": [1, 1]}, 4010),
    ],
)
async def test_identify_refusals(bot: FakeDiscordBot, change: dict[str, Any], code: int) -> None:
    async with aiohttp.ClientSession() as http:
        client = await connect(bot, http)
        await client.send(IDENTIFY, {**identify(bot), **change})
        assert await client.receive() == code


async def test_a_second_identify_is_4005_and_a_future_seq_4007(bot: FakeDiscordBot) -> None:
    async with aiohttp.ClientSession() as http:
        client = await connect(bot, http)
        await client.send(IDENTIFY, identify(bot))
        session = (await client.receive())["d"]["session_id"]  # type: ignore[index]
        await client.send(IDENTIFY, identify(bot))
        assert await client.receive() == 4005
        bot._identify_times.clear()
        again = await connect(bot, http)
        await again.send(RESUME, {"token": bot.bot_token, "session_id": session, "seq": 99})
        assert await again.receive() == 4007
        unknown = await connect(bot, http)
        await unknown.send(RESUME, {"token": bot.bot_token, "session_id": "nope", "seq": 1})
        assert (await unknown.receive())["op"] == INVALID_SESSION  # type: ignore[index]


async def test_more_than_120_events_a_minute_is_4008(bot: FakeDiscordBot) -> None:
    async with aiohttp.ClientSession() as http:
        client = await connect(bot, http)
        for _ in range(SEND_LIMIT):
            await client.send(HEARTBEAT, None)
        acks = [await client.receive() for _ in range(SEND_LIMIT)]
        assert all(isinstance(a, dict) and a["op"] == HEARTBEAT_ACK for a in acks)
        await client.send(HEARTBEAT, None)  # the 121st
        assert await client.receive() == 4008


async def test_identify_concurrency_per_bucket(bot: FakeDiscordBot) -> None:
    bot.max_concurrency = 2
    async with aiohttp.ClientSession() as http:
        outcomes = []
        for shard in (0, 1, 2):  # buckets 0, 1, 0: the third is a second IDENTIFY in bucket 0 within 5 s
            client = await connect(bot, http)
            await client.send(IDENTIFY, identify(bot, shard=[shard, 4]))
            reply = await client.receive()
            assert isinstance(reply, dict)
            outcomes.append(reply.get("t") or reply["op"])
        assert outcomes == ["READY", "READY", INVALID_SESSION]
