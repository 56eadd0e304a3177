"""Replay marks older than an hour can never matter again (the timestamp window is minutes), nor can
an object's shared rate bucket idle for minutes (it is full again: no row says the same)."""

from __future__ import annotations

import time
from datetime import timedelta

from adapters.secondlife.common import IDENTITY_PLATFORM, Part
from gateway import AdapterServices
from gateway.delivery import seen
from gateway.delivery.rate_buckets import SharedBuckets

PRUNE_EVERY = 600.0
KEEP_BURNT = timedelta(hours=1)
KEEP_BUCKETS = timedelta(minutes=5)  # or the time a bucket takes to refill, when that is longer


class ReplayPruner(Part):
    def __init__(self, services: AdapterServices) -> None:
        super().__init__(services)
        self.monotonic = time.monotonic
        self._last_prune = 0.0

    async def prune(self, buckets: SharedBuckets | None = None) -> None:
        """At most every PRUNE_EVERY: replay marks older than an hour, and the rows of ``buckets`` (the
        objects' shared rate limits) idle for KEEP_BUCKETS."""
        now = self.monotonic()
        if now - self._last_prune < PRUNE_EVERY:
            return
        self._last_prune = now
        cutoff = self._now() - KEEP_BURNT
        await seen.prune(self.services.vault, IDENTITY_PLATFORM, cutoff)
        if buckets is not None:
            await buckets.prune(KEEP_BUCKETS.total_seconds())
