"""Signatures, timestamps and replays: who may talk to ``/sl/v1/``.

Gateway -> object (pushes), checked by the scripts:

    message   = timestamp + "\\n" + object key + "\\n" + owner key + "\\n" + body
    signature = base64(HMAC-SHA256(shared secret, message))   # = llHMAC(secret, message, "sha256")

Object -> gateway (requests) also signs where the object is, so that no header that decides
anything travels unsigned:

    message   = timestamp + "\\n" + object key + "\\n" + owner key + "\\n" + grid + "\\n" + region
                + "\\n" + body

``grid`` is ``llGetEnv("grid")`` (``agni``, ``aditi``): the gateway takes it from the simulator's
``X-SecondLife-Shard`` (``Production`` -> ``agni``, ``Testing`` -> ``aditi``), so a request whose
shard header was changed no longer verifies. ``region`` is ``llGetRegionName()``: the
``X-SecondLife-Region`` header without its grid coordinates (it names the command's channel and a
registration's region). The owner's and object's names are shown, never trusted, and stay unsigned.

The timestamp is Unix seconds as decimal text and travels in ``X-Gateway-Timestamp``, the signature in
``X-Gateway-Signature``. Inbound, the object and owner keys are the simulator's
``X-SecondLife-Object-Key`` / ``X-SecondLife-Owner-Key`` headers; outbound, they are the receiving
object's own keys (``llGetKey()``, ``llGetOwner()``). Binding both keys into the MAC is what stops a
captured request from being replayed under another owner's name.
"""

from __future__ import annotations

import base64
import heapq
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
NULL_KEY = "00000000-0000-0000-0000-000000000000"

H_TIMESTAMP = "X-Gateway-Timestamp"
H_SIGNATURE = "X-Gateway-Signature"
H_OBJECT_KEY = "X-SecondLife-Object-Key"
H_OWNER_KEY = "X-SecondLife-Owner-Key"
H_OWNER_NAME = "X-SecondLife-Owner-Name"
H_OBJECT_NAME = "X-SecondLife-Object-Name"
H_SHARD = "X-SecondLife-Shard"
H_REGION = "X-SecondLife-Region"


# X-SecondLife-Shard -> what llGetEnv("grid") says on that grid; another shard signs its name casefolded.
GRIDS = {"Production": "agni", "Testing": "aditi"}


def grid_of(shard: str) -> str:
    return GRIDS.get(shard, shard.casefold())


def signing_bytes(timestamp: str, object_key: str, owner_key: str, body: bytes) -> bytes:
    return f"{timestamp}\n{object_key}\n{owner_key}\n".encode() + body


def request_signing_bytes(
    timestamp: str, object_key: str, owner_key: str, grid: str, region: str, body: bytes
) -> bytes:
    return f"{timestamp}\n{object_key}\n{owner_key}\n{grid}\n{region}\n".encode() + body


def sign_request(
    secret: bytes, timestamp: str, object_key: str, owner_key: str, grid: str, region: str, body: bytes
) -> str:
    """What a script's request carries: ``llHMAC(secret, ts\\nobject\\nowner\\ngrid\\nregion\\nbody)``."""
    message = request_signing_bytes(timestamp, object_key, owner_key, grid, region, body)
    return base64.b64encode(hmac.digest(secret, message, "sha256")).decode("ascii")


def sign(secret: bytes, timestamp: str, object_key: str, owner_key: str, body: bytes) -> str:
    """The base64 HMAC-SHA256 an LSL script computes with ``llHMAC(secret, message, "sha256")``."""
    digest = hmac.digest(secret, signing_bytes(timestamp, object_key, owner_key, body), "sha256")
    return base64.b64encode(digest).decode("ascii")


class ReplayCache:
    """Signatures seen recently, each kept until its timestamp can no longer pass the window check.

    Memory is bounded by the window: an entry is useless once ``now - timestamp > window`` because
    the timestamp check refuses the request before the cache is asked.
    """

    def __init__(self) -> None:
        self._expiry: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []

    def __contains__(self, signature: str) -> bool:
        return signature in self._expiry

    def __len__(self) -> int:
        return len(self._expiry)

    def add(self, signature: str, expires_at: float) -> None:
        if signature not in self._expiry:
            self._expiry[signature] = expires_at
            heapq.heappush(self._heap, (expires_at, signature))

    def prune(self, now: float) -> None:
        while self._heap and self._heap[0][0] < now:
            _, signature = heapq.heappop(self._heap)
            self._expiry.pop(signature, None)


@dataclass(frozen=True)
class Signed:
    """A request whose signature checked out (the replay check comes after)."""

    object_key: str
    owner_key: str
    owner_name: str
    object_name: str
    region: str
    timestamp: int
    signature: str


class Refused(Exception):
    """An authentication failure: the gateway answers 401 with this short text."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _without_position(header: str) -> str:
    name = header.strip()
    if name.endswith(")") and " (" in name:
        name = name[: name.rindex(" (")]
    return name


def region_name(header: str) -> str:
    """``"Nightcap Sim (256000, 256000)"`` -> ``"Nightcap Sim"`` (the coordinates are the grid position)."""
    return _without_position(header)[:100] or "unknown"


def verify(
    headers: Mapping[str, str],
    body: bytes,
    *,
    secret: bytes,
    shards: list[str],
    now: float,
    window: int,
) -> Signed:
    """Check shard, keys, timestamp and signature (which covers the shard and the region), or raise
    ``Refused``. ``headers`` must be case-insensitive (aiohttp's are): proxies change the case of
    header names."""
    shard = headers.get(H_SHARD, "").strip()
    if shard not in shards:
        raise Refused("wrong shard")
    object_key = headers.get(H_OBJECT_KEY, "").strip()
    owner_key = headers.get(H_OWNER_KEY, "").strip()
    if not UUID_RE.match(object_key) or not UUID_RE.match(owner_key) or NULL_KEY in (object_key, owner_key):
        raise Refused("missing or malformed object or owner key")
    timestamp = headers.get(H_TIMESTAMP, "").strip()
    signature = headers.get(H_SIGNATURE, "").strip()
    if not timestamp or not signature:
        raise Refused("missing signature")
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
        raise Refused("bad timestamp")
    if abs(now - int(timestamp)) > window:
        raise Refused("stale timestamp")
    region_header = headers.get(H_REGION, "")
    grid, region = grid_of(shard), _without_position(region_header)
    expected = sign_request(secret, timestamp, object_key, owner_key, grid, region, body)
    if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
        raise Refused("bad signature")
    owner_name = headers.get(H_OWNER_NAME, "").strip()[:80] or owner_key
    return Signed(
        object_key=object_key,
        owner_key=owner_key,
        owner_name=owner_name,
        object_name=headers.get(H_OBJECT_NAME, "").strip()[:80],
        region=region_name(region_header),
        timestamp=int(timestamp),
        signature=signature,
    )
