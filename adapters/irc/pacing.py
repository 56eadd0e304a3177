"""Send pacing of one IRC connection: a token bucket with a long-line penalty, and two lanes.

The bucket holds ``burst`` lines and refills one line per ``interval`` seconds (Sopel's defaults: 4
and 1 s). A line's cost is one line plus a penalty for its length, as Sopel charges it: every
``penalty_bytes × penalty_ratio`` bytes of text past ``penalty_bytes`` cost one line more, up to
``max_cost`` lines in all (Sopel's ``flood_max_wait`` of 2 s at one line a second).

Lanes: *replies* (answers to commands, and protocol lines such as JOIN) wait for the bucket, first
come first served. *Log* lines (the Storyteller log, sheet exports, announcements) never wait: they
go only when no reply is waiting and the bucket keeps ``reserve`` lines after them, so a reply that
comes finds a token at once; otherwise ``try_log`` says how long until they may go. The adapter
then hands its outbox row back for that long (``Throttled``), so a slow log channel never holds up
the outbox round that carries the next reply.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class LineCost:
    """What a line of ``size`` bytes of text costs, in lines of the bucket."""

    penalty_bytes: int = 50
    penalty_ratio: float = 1.4
    max_cost: float = 2.0

    def __call__(self, size: int) -> float:
        extra = max(0, size - self.penalty_bytes) / (self.penalty_bytes * self.penalty_ratio)
        return min(max(1.0, self.max_cost), 1.0 + extra)


class LineBucket:
    """``burst`` lines at most, one more every ``interval`` seconds (0: never empty). Pure: the clock
    is injected and nothing sleeps. A line needs its cost in tokens (at most the burst, so a line
    dearer than the burst still goes from a full bucket, leaving a debt)."""

    def __init__(self, burst: float, interval: float, clock: Clock = time.monotonic) -> None:
        if burst < 1 or interval < 0:
            raise ValueError("burst must be >= 1 and interval >= 0")
        self.burst = float(burst)
        self.interval = interval
        self.clock = clock
        self._tokens = self.burst
        self._stamp: float | None = None

    @property
    def unpaced(self) -> bool:
        return self.interval == 0

    def tokens(self) -> float:
        now = self.clock()
        if self.unpaced:
            self._tokens = self.burst
        elif self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) / self.interval)
        self._stamp = now
        return self._tokens

    def wait_for(self, need: float) -> float:
        """Seconds until there are ``need`` tokens (capped at the burst); 0.0 when there are now."""
        if self.unpaced:
            return 0.0
        short = min(need, self.burst) - self.tokens()
        return max(0.0, short * self.interval)

    def spend(self, cost: float) -> None:
        self.tokens()
        if not self.unpaced:
            self._tokens -= cost

    def reset(self) -> None:
        """Full again (a fresh connection: the server's flood timer starts at zero)."""
        self._tokens = self.burst
        self._stamp = None


class Pacer:
    """The bucket of one connection, shared by its two lanes (see the module docstring)."""

    def __init__(
        self,
        bucket: LineBucket,
        cost: LineCost | None = None,
        *,
        reserve: float = 1.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.bucket = bucket
        self.cost = cost or LineCost()
        self.reserve = reserve
        self._sleep = sleep
        self._lock: asyncio.Lock | None = None
        self.waiting = 0  # replies waiting for the bucket

    async def wait(self, size: int = 0) -> None:
        """A reply line of ``size`` bytes: sleep until the bucket allows it, and spend its cost.
        Replies go in the order they came (an asyncio lock is FIFO)."""
        cost = self.cost(size)
        if self._lock is None:
            self._lock = asyncio.Lock()
        self.waiting += 1
        try:
            async with self._lock:
                while (delay := self.bucket.wait_for(cost)) > 0:
                    await self._sleep(delay)
                self.bucket.spend(cost)
        finally:
            self.waiting -= 1

    def try_log(self, size: int = 0) -> float:
        """A log line of ``size`` bytes: spend its cost and return 0.0 when it may go now, else the
        seconds until it may (spending nothing)."""
        cost = self.cost(size)
        need = min(self.bucket.burst, cost + self.reserve)
        delay = self.bucket.wait_for(need)
        if self.waiting and not self.bucket.unpaced:
            # Replies first: come back after they have had their lines.
            return max(delay, self.waiting * self.bucket.interval)
        if delay > 0:
            return delay
        self.bucket.spend(cost)
        return 0.0

    def reset(self) -> None:
        self.bucket.reset()
