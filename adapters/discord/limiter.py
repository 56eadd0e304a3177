"""A rate limiter driven by Discord's response headers, with fixed safety caps underneath.

Discord says: never hard-code limits, read them from the responses. Every response may carry
``X-RateLimit-Bucket`` (an id shared by the routes that share a limit), ``-Limit``, ``-Remaining`` and
``-Reset-After``; a 429 carries ``retry_after`` (and ``global``). The limiter remembers, per route
(``webhook:<id>``, ``interaction:<id>``), which buckets it has seen, counts requests against them
locally between responses, and holds the next request until every known bucket of that route has a
request left or has reset. Requests in flight count as used until their response arrives, and every
reset time is measured from the moment the response arrived, so the next window can never be
entered early.

Underneath sit two safety caps that hold even when headers say nothing (hidden limits): at most N
requests per window per webhook and per channel (5 per 2 s and 30 per minute by default). They are
sliding windows over *completion* times, which is never looser than a fixed window the server started
when our first request *arrived*.

The state can be saved and loaded (wall-clock times), so a restart does not walk into an exhausted
window.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

UNKNOWN_RESET_POLL = 0.01


class WaitTooLong(Exception):
    def __init__(self, delay: float) -> None:
        super().__init__(f"next slot in {delay:.3f}s")
        self.delay = delay


@dataclass
class Bucket:
    id: str
    limit: int
    remaining: int
    reset_at: float | None  # monotonic; None once a window has run out and no response told the next
    inflight: int = 0
    window: float = 0.0  # how long a window lasts, as far as the answers have shown
    opened_at: float | None = None  # when we saw a window open that no answer described yet


class Window:
    """A sliding-window cap over completion times; requests in flight occupy a slot."""

    def __init__(self, requests: int, seconds: float) -> None:
        self.requests = requests
        self.seconds = seconds
        self.done: deque[float] = deque()
        self.inflight = 0

    def wait(self, now: float) -> float:
        if self.requests <= 0:
            return 0.0
        while self.done and self.done[0] <= now - self.seconds:
            self.done.popleft()
        used = len(self.done) + self.inflight
        if used < self.requests:
            return 0.0
        index = used - self.requests  # this many completions must age out first
        if index < len(self.done):
            return self.done[index] + self.seconds - now
        return UNKNOWN_RESET_POLL  # only in-flight requests hold the slots: wait for one to finish


@dataclass
class Ticket:
    route: str
    buckets: list[str]
    caps: list[str]
    open: bool = True


@dataclass
class Stats:
    requests: int = 0
    rate_limited: int = 0  # 429 answers
    global_limited: int = 0
    waits: int = 0
    waited: float = 0.0
    extra: dict[str, int] = field(default_factory=dict)


class RateLimiter:
    def __init__(
        self,
        *,
        webhook_cap: tuple[int, float] = (5, 2.0),
        channel_cap: tuple[int, float] = (30, 60.0),
        margin: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.webhook_cap = webhook_cap
        self.channel_cap = channel_cap
        self.margin = margin
        self.clock = clock
        self.wall = wall
        self.buckets: dict[str, Bucket] = {}
        self.routes: dict[str, set[str]] = {}
        self.blocked: dict[str, float] = {}
        self.global_until = 0.0
        self.caps: dict[str, Window] = {}
        self.channel_of: dict[str, str] = {}
        self.stats = Stats()

    # ------------------------------------------------------------------ keys

    def _cap_keys(self, route: str, channel: str | None) -> list[str]:
        channel = channel or self.channel_of.get(route)
        keys = []
        if route.startswith("webhook:"):
            keys.append(route)
        keys.append(f"channel:{channel}" if channel else f"channel?{route}")
        return keys

    def _cap(self, key: str) -> Window:
        cap = self.caps.get(key)
        if cap is None:
            requests, seconds = self.webhook_cap if key.startswith("webhook:") else self.channel_cap
            cap = self.caps[key] = Window(requests, seconds)
        return cap

    def learn_channel(self, route: str, channel: str | None) -> None:
        if channel and self.channel_of.get(route) != channel:
            old = self.caps.pop(f"channel?{route}", None)
            self.channel_of[route] = channel
            if old is not None:  # carry what we sent before we knew the channel
                cap = self._cap(f"channel:{channel}")
                cap.done.extend(old.done)
                cap.done = deque(sorted(cap.done))
                cap.inflight += old.inflight

    # ------------------------------------------------------------------ before a request

    def delay(self, route: str, channel: str | None = None) -> float:
        """Seconds to wait before the next request on ``route`` may go (0: now)."""
        now = self.clock()
        wait = max(0.0, self.global_until - now, self.blocked.get(route, 0.0) - now)
        chan = channel or self.channel_of.get(route)
        if chan:
            wait = max(wait, self.blocked.get(f"channel:{chan}", 0.0) - now)
        for bucket_id in self.routes.get(route, ()):
            bucket = self.buckets[bucket_id]
            if bucket.reset_at is not None and now >= bucket.reset_at:
                bucket.remaining = max(0, bucket.limit - bucket.inflight)
                bucket.reset_at = bucket.opened_at = None
            if bucket.remaining <= 0:
                wait = max(wait, bucket.reset_at - now if bucket.reset_at is not None else UNKNOWN_RESET_POLL)
        for key in self._cap_keys(route, channel):
            wait = max(wait, self._cap(key).wait(now))
        return wait

    def begin(self, route: str, channel: str | None = None) -> Ticket:
        ids = sorted(self.routes.get(route, ()))
        for bucket_id in ids:
            bucket = self.buckets[bucket_id]
            bucket.remaining -= 1
            bucket.inflight += 1
        caps = self._cap_keys(route, channel)
        for key in caps:
            self._cap(key).inflight += 1
        self.stats.requests += 1
        return Ticket(route=route, buckets=ids, caps=caps)

    async def acquire(self, route: str, channel: str | None = None, max_wait: float = math.inf) -> Ticket:
        """Wait for a slot (at most ``max_wait`` in one go, else ``WaitTooLong``) and take it."""
        while True:
            wait = self.delay(route, channel)
            if wait <= 0:
                return self.begin(route, channel)
            if wait > max_wait:
                raise WaitTooLong(wait)
            self.stats.waits += 1
            self.stats.waited += wait
            await asyncio.sleep(wait)

    # ------------------------------------------------------------------ after a response

    def _close(self, ticket: Ticket) -> float:
        now = self.clock()
        if not ticket.open:
            return now
        ticket.open = False
        for bucket_id in ticket.buckets:
            bucket = self.buckets.get(bucket_id)
            if bucket is not None:
                bucket.inflight = max(0, bucket.inflight - 1)
        for key in ticket.caps:
            cap = self.caps.get(key)
            if cap is None and key.startswith("channel?"):
                chan = self.channel_of.get(ticket.route)
                cap = self.caps.get(f"channel:{chan}") if chan else None
            if cap is not None:
                cap.inflight = max(0, cap.inflight - 1)
                cap.done.append(now)
        return now

    def abort(self, ticket: Ticket) -> None:
        """The request failed without an answer (a network error): it still counts as sent."""
        self._close(ticket)

    def finish(
        self, ticket: Ticket, status: int, headers: Mapping[str, str], body: Any = None
    ) -> float | None:
        """Learn from a response. Returns the wait a 429 asks for, else None."""
        now = self._close(ticket)
        bucket_id = headers.get("X-RateLimit-Bucket")
        bucket = None
        if bucket_id:
            bucket = self._learn(ticket.route, bucket_id, headers, now)
        for other_id in ticket.buckets:
            other = self.buckets.get(other_id)
            if other is not None and other is not bucket and other.reset_at is None:
                # This request opened a new window of a bucket the answer did not describe: the
                # window ends at the latest one window length after this answer arrived.
                other.opened_at = now
                other.reset_at = now + other.window + self.margin
        if status != 429:
            return None
        self.stats.rate_limited += 1
        retry_after = _retry_after(headers, body)
        until = now + retry_after + self.margin
        is_global = (isinstance(body, Mapping) and bool(body.get("global"))) or (
            headers.get("X-RateLimit-Global", "").lower() == "true"
        )
        if is_global:
            self.stats.global_limited += 1
            self.global_until = max(self.global_until, until)
        elif bucket is not None:
            bucket.remaining = 0
            bucket.reset_at = max(bucket.reset_at or 0.0, until)
        else:  # a hidden limit: hold the route and the channel it posts to
            self.blocked[ticket.route] = max(self.blocked.get(ticket.route, 0.0), until)
            chan = self.channel_of.get(ticket.route)
            if chan:
                self.blocked[f"channel:{chan}"] = max(self.blocked.get(f"channel:{chan}", 0.0), until)
        return retry_after

    def _learn(self, route: str, bucket_id: str, headers: Mapping[str, str], now: float) -> Bucket | None:
        try:
            limit = int(headers.get("X-RateLimit-Limit", "1"))
            remaining = int(headers.get("X-RateLimit-Remaining", "0"))
            reset_after = float(headers.get("X-RateLimit-Reset-After", "0"))
        except ValueError:
            return None
        bucket = self.buckets.get(bucket_id)
        if bucket is None:
            bucket = self.buckets[bucket_id] = Bucket(bucket_id, limit, remaining, None)
        bucket.limit = limit
        bucket.window = max(bucket.window, reset_after)
        if bucket.opened_at is not None:  # we saw this window open: now we know when it ends
            bucket.window = max(bucket.window, now + reset_after - bucket.opened_at)
            bucket.opened_at = None
        # Requests still in flight are not in the server's count yet: keep them off what is left.
        bucket.remaining = max(0, remaining - bucket.inflight)
        bucket.reset_at = now + reset_after + self.margin
        self.routes.setdefault(route, set()).add(bucket_id)
        return bucket

    # ------------------------------------------------------------------ persistence

    def dump(self) -> dict[str, Any]:
        """The state with wall-clock times, for the vault."""
        now, wall = self.clock(), self.wall()

        def to_wall(t: float) -> float:
            return round(wall + (t - now), 4)

        return {
            "buckets": {
                b.id: {
                    "limit": b.limit,
                    "remaining": b.remaining,
                    "reset": to_wall(b.reset_at) if b.reset_at is not None else None,
                    "window": b.window,
                }
                for b in self.buckets.values()
            },
            "routes": {r: sorted(ids) for r, ids in self.routes.items()},
            "blocked": {k: to_wall(t) for k, t in self.blocked.items() if t > now},
            "global_until": to_wall(self.global_until) if self.global_until > now else None,
            "caps": {k: [to_wall(t) for t in c.done] for k, c in self.caps.items() if c.done},
            "channels": dict(self.channel_of),
        }

    def load(self, state: Mapping[str, Any]) -> None:
        now, wall = self.clock(), self.wall()

        def to_mono(t: float) -> float:
            return now + (float(t) - wall)

        for bucket_id, b in (state.get("buckets") or {}).items():
            reset = b.get("reset")
            reset_at = to_mono(reset) if reset is not None and to_mono(reset) > now else None
            remaining = int(b.get("remaining", 0)) if reset_at is not None else int(b.get("limit", 1))
            self.buckets[bucket_id] = Bucket(
                bucket_id, int(b.get("limit", 1)), remaining, reset_at, window=float(b.get("window", 0.0))
            )
        for route, ids in (state.get("routes") or {}).items():
            self.routes[route] = {i for i in ids if i in self.buckets}
        for key, t in (state.get("blocked") or {}).items():
            if to_mono(t) > now:
                self.blocked[key] = to_mono(t)
        if state.get("global_until"):
            self.global_until = max(self.global_until, to_mono(state["global_until"]))
        self.channel_of.update(state.get("channels") or {})
        for key, times in (state.get("caps") or {}).items():
            cap = self._cap(key)
            cap.done = deque(sorted(to_mono(t) for t in times))


def _retry_after(headers: Mapping[str, str], body: Any) -> float:
    if isinstance(body, Mapping):
        try:
            return max(0.0, float(body["retry_after"]))
        except (KeyError, TypeError, ValueError):
            pass
    try:
        return max(0.0, float(headers.get("Retry-After", "1")))
    except ValueError:
        return 1.0
