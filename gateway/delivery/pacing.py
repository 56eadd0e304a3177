"""Pacing in one place: how long to wait after failures (``Backoff``) and how fast to send or accept
(``TokenBucket``, ``KeyedBuckets``). Randomness and time are injected, so tests script them."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

Clock = Callable[[], float]

# 2**62 times any sane base is past every cap; the clamp only keeps the float finite.
_MAX_EXPONENT = 62


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter: the ``attempt``-th failure in a row (1 = the first) waits
    ``base * 2**(attempt - 1)`` seconds, at most ``cap``, times a random factor drawn from ``jitter``."""

    base: float
    cap: float
    jitter: tuple[float, float] = (0.5, 1.5)
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        low, high = self.jitter
        if self.base <= 0 or self.cap <= 0 or not 0 <= low <= high:
            raise ValueError("base and cap must be > 0 and jitter a range 0 <= low <= high")

    def step(self, attempt: int) -> float:
        """The delay before jitter."""
        return min(self.cap, self.base * 2.0 ** min(max(attempt - 1, 0), _MAX_EXPONENT))

    def delay(self, attempt: int) -> float:
        return self.step(attempt) * self.rng.uniform(*self.jitter)

    def capped(self, cap: float) -> Backoff:
        """The same backoff with a ceiling no higher than ``cap``."""
        return replace(self, cap=min(self.cap, cap))


class Streak:
    """Failures in a row under one ``Backoff``, for a loop that retries by itself (a sync loop):
    ``next()`` is the wait after one more failure, ``reset()`` starts over after a success."""

    def __init__(self, backoff: Backoff) -> None:
        self.backoff = backoff
        self.failures = 0

    def next(self) -> float:
        self.failures = min(self.failures + 1, _MAX_EXPONENT)
        return self.backoff.delay(self.failures)

    def reset(self) -> None:
        self.failures = 0


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` per second (``math.inf``: never empty).

    ``take`` spends a token without waiting (or says how long until one is there); ``wait`` sleeps
    until it can spend one. Waiters are served in the order they came (an asyncio lock is FIFO), so
    one caller cannot starve another."""

    __slots__ = ("_lock", "_sleep", "_stamp", "_tokens", "burst", "clock", "rate")

    def __init__(
        self,
        burst: float,
        rate: float,
        *,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError("burst must be >= 1 and rate > 0")
        self.burst = float(burst)
        self.rate = rate
        self.clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._stamp: float | None = None
        self._lock: asyncio.Lock | None = None

    def tokens(self) -> float:
        """The tokens there are now (refilled up to ``burst`` since the last look)."""
        now = self.clock()
        if self._stamp is not None and not math.isinf(self.rate):
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        elif math.isinf(self.rate):
            self._tokens = self.burst
        self._stamp = now
        return self._tokens

    def take(self) -> float:
        """Spend a token and return 0.0, or return the seconds until there is one (spending nothing)."""
        tokens = self.tokens()
        if tokens < 1.0:
            return (1.0 - tokens) / self.rate
        self._tokens = tokens - 1.0
        return 0.0

    async def wait(self) -> None:
        """Sleep until a token is there, and spend it."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            while (delay := self.take()) > 0:
                await self._sleep(delay)

    def full(self) -> bool:
        return self.tokens() >= self.burst

    def reset(self) -> None:
        """Back to a full bucket (a fresh connection: the server's penalty timer starts at zero)."""
        self._tokens = self.burst
        self._stamp = None


class KeyedBuckets:
    """One ``TokenBucket`` per key (a Second Life object, say), with bounded memory: past ``max_keys``
    keys, the buckets that have refilled to full are dropped, as a new bucket would be the same."""

    def __init__(
        self, burst: float, rate: float, *, clock: Clock = time.monotonic, max_keys: int = 4096
    ) -> None:
        TokenBucket(burst, rate)  # the same checks, before the first key arrives
        self.burst, self.rate, self.clock, self.max_keys = burst, rate, clock, max_keys
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        """``TokenBucket.take`` on the key's bucket."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, clock=self.clock)
        wait = bucket.take()
        if len(self._buckets) > self.max_keys:
            self._buckets = {k: b for k, b in self._buckets.items() if not b.full()}
        return wait

    def __len__(self) -> int:
        return len(self._buckets)
