"""Random bodies and headers for every HTTP endpoint of the gateway's app: the HTTP API, Discord
interactions (validly signed) and Second Life command / register (validly signed). Every answer is
below 500, and a refusal (4xx) is one short line."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st
from nacl.signing import SigningKey

from gateway.core.app import Gateway, build_app
from gateway.core.dice import SeededDice
from gateway.core.settings import Settings
from tests.fuzz.profile import ci_settings
from tests.fuzz.words import HOSTILE, SYSTEMS, lines
from tests.secondlife.harness import SECRET, Hud

TOKEN = "fuzz-token"
CI = ci_settings(50)
MAX_REFUSAL = 300  # characters: a refusal is one line a person reads


@dataclass
class App:
    client: TestClient
    key: SigningKey

    def discord_headers(self, body: bytes) -> dict[str, str]:
        timestamp = str(int(time.time()))
        signature = self.key.sign(timestamp.encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp}


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    key = SigningKey.generate()
    settings_ = Settings(
        vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"},
        http={"tokens": {"fuzz": TOKEN}},
        discord={
            "application_id": "100000000000000001",
            "public_key": key.verify_key.encode().hex(),
            "api_base": "http://127.0.0.1:9/api/v10",  # nothing listens: follow-ups just wait
        },
        secondlife={"shared_secret": SECRET},
    )
    gateway = Gateway(settings_, dice=SeededDice(3), platforms=("http", "discord", "secondlife"))
    await gateway.upgrade_vault()
    client = TestClient(TestServer(build_app(gateway)))
    await client.start_server()
    yield App(client, key)
    await client.close()


async def check(response: ClientResponse, what: Any) -> None:
    """Below 500, no internal-error reply; a 4xx answer is one short line."""
    text = await response.text()
    assert response.status < 500, (what, response.status, text)
    assert "Something went wrong" not in text and '"internal"' not in text, (what, text)
    if response.status >= 400:
        assert "\n" not in text.strip() and len(text) <= MAX_REFUSAL, (what, response.status, text)


def chunked(body: bytes) -> Any:
    """The body sent with Transfer-Encoding: chunked (no Content-Length), in 1 kB pieces."""

    async def pieces() -> AsyncIterator[bytes]:
        for at in range(0, len(body), 1024):
            yield body[at : at + 1024]

    return pieces()


# -- bodies -----------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.sampled_from(HOSTILE),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# Hand-written bodies no generator would hit by chance: deep nesting, numbers past a double, lone
# surrogates as JSON escapes, bodies just past the limits.
NASTY = st.sampled_from(
    [
        b"[" * 16000,
        b"[" * 2000 + b"]" * 2000,
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        b'{"type":1e999}',
        b'{"text":"roll 3","channel":"\\udc00"}',
        b'{"text":"roll 3","name":"\\ud800x"}',
        b'{"text":"roll \\udc00"}',
        b'{"text":"roll 3","channel":{"a":1}}',
        b'{"text":["roll 3"]}',
        b'{"text":"' + b"9" * 20000 + b'"}',
        b" " * 17000 + b'{"text":"roll 3"}',
        b'{"text":"roll 3"}' + b" " * 40000,
        b"\xff\xfe\x00",
        b"",
        b"null",
        b"[]",
        b'"roll 3"',
    ]
)
RAW = st.binary(max_size=300) | NASTY
LATIN1 = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=40
)


def api_bodies() -> st.SearchStrategy[bytes]:
    fields = st.fixed_dictionaries(
        {},
        optional={
            "text": st.sampled_from(SYSTEMS).flatmap(lines) | JSON,
            "channel": st.sampled_from(HOSTILE) | JSON,
            "name": st.sampled_from(HOSTILE) | JSON,
        },
    )
    return fields.map(lambda d: json.dumps(d).encode()) | RAW


@CI
@given(body=api_bodies(), chunk=st.booleans(), key=LATIN1 | st.none(), auth=st.sampled_from([0, 0, 0, 1, 2]))
async def test_http_api(app: App, body: bytes, chunk: bool, key: str | None, auth: int) -> None:
    headers = {"Authorization": [f"Bearer {TOKEN}", "Bearer nope", f"Basic {TOKEN}"][auth]}
    if key is not None:
        headers["Idempotency-Key"] = key
    data = chunked(body) if chunk else body
    async with app.client.post("/api/v1/command", data=data, headers=headers) as response:
        await check(response, body[:200])


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"[" * 16000, "depth limit"),
        (b'{"text":"roll 3","channel":"\\udc00"}', "surrogate"),
        (b'{"text":"roll 3","name":"\\ud800x"}', "surrogate"),
        (b'{"text":"roll 3","channel":{"a":1}}', "send JSON"),
        (b'{"text":"roll 3","n":1e999}', "infinity"),
        (b'"roll 3"', "send JSON"),
    ],
)
async def test_http_api_malformed_bodies_from_the_issue(app: App, body: bytes, reason: str) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with app.client.post("/api/v1/command", data=body, headers=headers) as response:
        assert response.status == 400
        error = (await response.json())["error"]
        assert reason in error and "\n" not in error, error


async def test_http_api_counts_the_bytes_read_not_content_length(app: App) -> None:
    """A 40 kB chunked body carries no Content-Length: the limit still holds (issue 21)."""
    body = json.dumps({"text": "roll 3", "pad": "x" * 40_000}).encode()
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with app.client.post("/api/v1/command", data=chunked(body), headers=headers) as response:
        assert response.status == 413, await response.text()


# -- Discord ----------------------------------------------------------------------------------------

FIELDS = (
    "type",
    "data",
    "member",
    "user",
    "channel_id",
    "guild_id",
    "id",
    "token",
    "channel",
    "application_id",
)
SUBFIELDS = ("name", "options", "nick", "user", "id", "username", "global_name", "value", "type")


def interaction(line: str) -> dict[str, Any]:
    return {
        "id": "700000000000000001",
        "application_id": "100000000000000001",
        "type": 2,
        "token": "itoken",
        "channel_id": "400000000000000004",
        "guild_id": "300000000000000003",
        "member": {"user": {"id": "500000000000000005", "username": "mira"}, "nick": None},
        "data": {"name": "gw", "type": 1, "options": [{"name": "text", "type": 3, "value": line}]},
    }


def _poke(target: Any, path: list[str], value: Any) -> None:
    """Set ``value`` at the first of ``path`` that names a dict on the way down (for mutations)."""
    for step in path[:-1]:
        nxt = target.get(step) if isinstance(target, dict) else None
        if isinstance(nxt, list) and nxt:
            nxt = nxt[0]
        if not isinstance(nxt, dict):
            break
        target = nxt
    if isinstance(target, dict):
        target[path[-1]] = value


@st.composite
def interactions(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(RAW)
    payload = interaction(draw(st.sampled_from(SYSTEMS).flatmap(lines)))
    payload["type"] = draw(st.sampled_from([1, 2, 2, 2, 3, 4, 5]))
    for _ in range(draw(st.integers(0, 3))):
        path = [draw(st.sampled_from(FIELDS)), *draw(st.lists(st.sampled_from(SUBFIELDS), max_size=2))]
        _poke(payload, path, draw(JSON))
    return json.dumps(payload).encode()


@CI
@given(body=interactions())
async def test_discord_interactions(app: App, body: bytes) -> None:
    headers = {**app.discord_headers(body), "Content-Type": "application/json"}
    async with app.client.post("/discord/interactions", data=body, headers=headers) as response:
        await check(response, body[:200])


@pytest.mark.parametrize(
    "body",
    [
        b'{"type":1e999}',
        b'{"type":2,"data":"roll"}',
        b'{"type":2,"member":"x","data":{"name":"roll"}}',
        b'{"type":2,"data":{"name":"roll","options":"x"}}',
        b'{"type":2,"data":{"name":"power","options":[{"type":1,"name":"use","options":{"a":1}}]}}',
        b'{"type":2,"user":{"id":{"x":1}},"data":{"name":"gw","options":[{"name":"text","value":"roll 3"}]}}',
        b'{"type":"2"}',
        b'{"type":true}',
        b"[" * 16000,
    ],
)
async def test_discord_malformed_interactions_from_the_issue(app: App, body: bytes) -> None:
    headers = {**app.discord_headers(body), "Content-Type": "application/json"}
    async with app.client.post("/discord/interactions", data=body, headers=headers) as response:
        assert response.status == 400, await response.text()
        await check(response, body)


# -- Second Life ------------------------------------------------------------------------------------

Counter = Iterator[int]


def sl_bodies() -> st.SearchStrategy[tuple[bytes, str]]:
    fields = st.fixed_dictionaries(
        {"nonce": st.integers(0, 2**40)},
        optional={
            "text": st.sampled_from(SYSTEMS).flatmap(lines) | JSON,
            "state": JSON,
            "roster": st.dictionaries(st.sampled_from(["status", "q", "page", "system"]), JSON) | JSON,
            "body_max": JSON,
            "url": st.sampled_from(["http://127.0.0.1:9/x", "https://sim.example/cap/1"]) | JSON,
            "role": st.sampled_from(["player-hud", "st-hud", "relay"]) | JSON,
        },
    )
    json_bodies = fields.map(lambda d: (json.dumps(d).encode(), "application/json"))
    plain = (
        st.sampled_from(SYSTEMS)
        .flatmap(lines)
        .map(lambda t: (t.encode("utf-8", "surrogatepass"), "text/plain; charset=utf-8"))
    )
    return json_bodies | plain | RAW.map(lambda b: (b, "application/octet-stream"))


@CI
@given(
    body=sl_bodies(),
    path=st.sampled_from(["/sl/v1/command", "/sl/v1/register"]),
    owner_name=LATIN1,
    region=LATIN1,
    body_max=LATIN1 | st.sampled_from(["²", "99999999999999999999", "4096"]),
)
async def test_second_life(
    app: App, body: tuple[bytes, str], path: str, owner_name: str, region: str, body_max: str
) -> None:
    raw, mimetype = body
    hud = Hud(base_url="", owner_name=owner_name or "Mira Resident", region=region or "Sim (0, 0)")
    headers = hud.signed_headers(raw, mimetype)
    headers["X-Gateway-Body-Max"] = body_max
    async with app.client.post(path, data=raw, headers=headers) as response:
        await check(response, raw[:200])
