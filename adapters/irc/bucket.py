"""A token bucket for the lines one connection sends: ``burst`` lines at once, then one per ``interval``.

RFC 1459 §8.10 flood control adds 2 s per line and stops reading a client that is more than 10 s
ahead, so 1 line per 2 s with a burst of 4 never trips "Excess Flood". Waiters are served in the
order they arrived (an asyncio lock is FIFO), so one target cannot starve another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class TokenBucket:
    def __init__(
        self,
        interval: float,
        burst: int,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        if interval < 0 or burst < 1:
            raise ValueError("interval must be >= 0 and burst >= 1")
        self.interval = interval
        self.burst = burst
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._sleep = sleep or asyncio.sleep
        self._tokens = float(burst)
        self._stamp: float | None = None
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        if self._stamp is None:
            self._stamp = now
        if self.interval == 0:
            self._tokens = float(self.burst)
        else:
            self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) / self.interval)
        self._stamp = now

    async def take(self) -> None:
        """Wait until a line may be sent, and spend its token."""
        async with self._lock:
            self._refill()
            while self._tokens < 1:
                await self._sleep((1 - self._tokens) * self.interval)
                self._refill()
            self._tokens -= 1

    def reset(self) -> None:
        """A fresh connection starts with a full bucket (the server's penalty timer starts at zero)."""
        self._tokens = float(self.burst)
        self._stamp = None
