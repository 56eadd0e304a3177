"""Forged requests against a real ``gateway serve`` (issue 30: the campaign's forgeries, as a command).

``.venv/bin/python -m tests.fault.forgeries [--rounds 100]`` starts one gateway (SQLite, the HTTP API
with a token, Second Life with a shared secret, Discord with an Ed25519 public key), checks that a
genuine request of each kind is accepted, then sends ``--rounds`` of every forgery below, each round
with fresh random keys, bodies and times, and counts the ones answered 2xx. Exits 1 unless that count is
0 (and every genuine request was accepted). ``test_forgeries.py`` is the CI-sized slice.

- Second Life: no signature, a random one, one made with another secret, one for another body, a valid
  signature with a timestamp out of the window, the owner or object key or region or shard header
  changed after signing, and the replay of an accepted request;
- Discord interactions: no signature, a random one, one by another key, one for another body, a stale
  timestamp;
- the HTTP API: no token, a random one, the token with a character more or less, another scheme.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from nacl.signing import SigningKey

from tests.fault.cluster import TOKEN, GatewayProc, kill_all, render_config
from tests.secondlife.harness import SECRET, Hud, new_key

Send = Callable[[aiohttp.ClientSession, str, random.Random], Awaitable[int]]


@dataclass
class ForgeryReport:
    rounds: int
    genuine: dict[str, int] = field(default_factory=dict)  # kind -> status of the genuine request
    sent: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        return all(status == 200 for status in self.genuine.values()) and not sum(self.accepted.values())

    def render(self) -> str:
        lines = [
            f"== forgeries: {sum(self.sent.values())} forged requests,"
            f" {len(self.sent)} kinds x {self.rounds}",
            "   genuine: " + ", ".join(f"{k} {v}" for k, v in self.genuine.items()),
            f"   accepted (2xx): {sum(self.accepted.values())}",
            "   statuses: " + ", ".join(f"{s} x{n}" for s, n in sorted(self.statuses.items())),
        ]
        lines += [f"   ACCEPTED {kind}: {n}" for kind, n in self.accepted.items() if n]
        return "\n".join(lines)


def _hud(base: str) -> Hud:
    return Hud(base, "Mira Vance")


def _sl_body(rng: random.Random) -> bytes:
    return json.dumps({"text": f"roll {rng.randint(1, 9)}", "nonce": rng.getrandbits(48)}).encode()


async def _sl(http: aiohttp.ClientSession, base: str, body: bytes, headers: dict[str, str]) -> int:
    async with http.post(base + "/sl/v1/command", data=body, headers=headers) as response:
        await response.read()
        return response.status


def _sl_forgeries() -> dict[str, Send]:
    def forged(change: Callable[[Hud, bytes, dict[str, str], random.Random], bytes | None]) -> Send:
        async def send(http: aiohttp.ClientSession, base: str, rng: random.Random) -> int:
            hud, body = _hud(base), _sl_body(rng)
            headers = hud.signed_headers(body, "application/json")
            sent = change(hud, body, headers, rng)
            return await _sl(http, base, sent if sent is not None else body, headers)

        return send

    def unsigned(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> None:
        headers.pop("X-Gateway-Signature")

    def random_signature(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> None:
        headers["X-Gateway-Signature"] = secrets.token_urlsafe(32)

    def other_secret(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> None:
        hud.secret = secrets.token_hex(16)
        headers.update(hud.signed_headers(body, "application/json"))

    def other_body(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> bytes:
        return body.replace(b"roll", b"roll 9 +", 1)

    def stale(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> None:
        skew = rng.choice((-1, 1)) * rng.randint(301, 10**6)
        headers.update(hud.signed_headers(body, "application/json", timestamp=int(time.time()) + skew))

    def header(name: str, value: Callable[[], str]) -> Callable[..., None]:
        def change(hud: Hud, body: bytes, headers: dict[str, str], rng: random.Random) -> None:
            headers[name] = value()

        return change

    return {
        "sl: no signature": forged(unsigned),
        "sl: random signature": forged(random_signature),
        "sl: another secret": forged(other_secret),
        "sl: another body": forged(other_body),
        "sl: stale timestamp": forged(stale),
        "sl: owner key swapped": forged(header("X-SecondLife-Owner-Key", new_key)),
        "sl: object key swapped": forged(header("X-SecondLife-Object-Key", new_key)),
        "sl: region changed": forged(header("X-SecondLife-Region", lambda: "Elsewhere (512000, 256000)")),
        "sl: shard changed": forged(header("X-SecondLife-Shard", lambda: "Testing")),
    }


async def _sl_replay(http: aiohttp.ClientSession, base: str, rng: random.Random) -> int:
    hud, body = _hud(base), _sl_body(rng)
    headers = hud.signed_headers(body, "application/json")
    first = await _sl(http, base, body, headers)
    assert first == 200, f"a genuine HUD request was refused ({first})"
    return await _sl(http, base, body, headers)


def _discord_forgeries(key: SigningKey) -> dict[str, Send]:
    def forged(make: Callable[[bytes, str, random.Random], tuple[bytes, dict[str, str]]]) -> Send:
        async def send(http: aiohttp.ClientSession, base: str, rng: random.Random) -> int:
            body = json.dumps({"type": 1, "id": str(rng.getrandbits(60)), "application_id": "1"}).encode()
            sent, headers = make(body, str(int(time.time())), rng)
            headers["Content-Type"] = "application/json"
            async with http.post(base + "/discord/interactions", data=sent, headers=headers) as response:
                await response.read()
                return response.status

        return send

    def signed(signer: SigningKey, body: bytes, timestamp: str) -> dict[str, str]:
        signature = signer.sign(timestamp.encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp}

    return {
        "discord: no signature": forged(lambda b, ts, rng: (b, {"X-Signature-Timestamp": ts})),
        "discord: random signature": forged(
            lambda b, ts, rng: (
                b,
                {"X-Signature-Ed25519": secrets.token_hex(64), "X-Signature-Timestamp": ts},
            )
        ),
        "discord: another key": forged(lambda b, ts, rng: (b, signed(SigningKey.generate(), b, ts))),
        "discord: another body": forged(
            lambda b, ts, rng: (b.replace(b'"type": 1', b'"type": 2'), signed(key, b, ts))
        ),
        "discord: stale timestamp": forged(
            lambda b, ts, rng: (b, signed(key, b, str(int(ts) - rng.randint(301, 10**6))))
        ),
    }


def _http_forgeries() -> dict[str, Send]:
    def forged(authorization: Callable[[random.Random], str | None]) -> Send:
        async def send(http: aiohttp.ClientSession, base: str, rng: random.Random) -> int:
            value = authorization(rng)
            headers = {} if value is None else {"Authorization": value}
            async with http.post(
                base + "/api/v1/command", json={"text": "roll 3"}, headers=headers
            ) as response:
                await response.read()
                return response.status

        return send

    return {
        "http: no token": forged(lambda rng: None),
        "http: random token": forged(lambda rng: f"Bearer {secrets.token_urlsafe(24)}"),
        "http: token cut": forged(lambda rng: f"Bearer {TOKEN[: rng.randint(1, len(TOKEN) - 1)]}"),
        "http: token extended": forged(lambda rng: f"Bearer {TOKEN}{secrets.token_hex(1)}"),
        "http: another scheme": forged(lambda rng: f"Basic {TOKEN}"),
    }


async def _genuine(http: aiohttp.ClientSession, base: str, key: SigningKey) -> dict[str, int]:
    rng = random.Random(0)
    hud, body = _hud(base), _sl_body(rng)
    found = {"sl": await _sl(http, base, body, hud.signed_headers(body, "application/json"))}
    ping = json.dumps({"type": 1, "id": "1", "application_id": "1"}).encode()
    ts = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": key.sign(ts.encode() + ping).signature.hex(),
        "X-Signature-Timestamp": ts,
        "Content-Type": "application/json",
    }
    async with http.post(base + "/discord/interactions", data=ping, headers=headers) as response:
        found["discord"] = response.status
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    async with http.post(base + "/api/v1/command", json={"text": "roll 3"}, headers=bearer) as response:
        found["http"] = response.status
    return found


async def run(rounds: int, workdir: Path, seed: int = 30) -> ForgeryReport:
    key = SigningKey.generate()
    tables = {
        "vault": {"url": f"sqlite+aiosqlite:///{workdir / 'vault.db'}"},
        "http": {"host": "127.0.0.1"},
        "http.tokens": {"load": TOKEN},
        "log": {"format": "json", "level": "info"},
        "secondlife": {"shared_secret": SECRET, "rate_burst": 100000, "rate_per_second": 100000.0},
        "discord": {"application_id": "1", "public_key": key.verify_key.encode().hex()},
    }
    config = workdir / "gateway.toml"
    config.write_text(render_config(tables))
    proc = GatewayProc("g0", config, workdir)
    await proc.start()
    report = ForgeryReport(rounds)
    rng = random.Random(seed)
    kinds: dict[str, Send] = {
        **_sl_forgeries(),
        "sl: replay": _sl_replay,
        **_discord_forgeries(key),
        **_http_forgeries(),
    }
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            report.genuine = await _genuine(http, proc.url, key)
            for _ in range(rounds):
                for kind, send in kinds.items():
                    status = await send(http, proc.url, rng)
                    report.sent[kind] += 1
                    report.statuses[status] += 1
                    if 200 <= status < 300:
                        report.accepted[kind] += 1
    finally:
        await proc.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fault.forgeries", description=__doc__)
    parser.add_argument("--rounds", type=int, default=100, help="rounds of every forgery (default 100)")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="gw-forgeries-") as tmp:
            report = asyncio.run(run(args.rounds, Path(tmp), args.seed))
    finally:
        kill_all()
    print(report.render())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
