"""Replay marks older than an hour can never matter again (the timestamp window is minutes)."""

from __future__ import annotations

import time
from datetime import timedelta

from adapters.secondlife.common import IDENTITY_PLATFORM, Part
from gateway import AdapterServices, seen

PRUNE_EVERY = 600.0
KEEP_BURNT = timedelta(hours=1)


class ReplayPruner(Part):
    def __init__(self, services: AdapterServices) -> None:
        super().__init__(services)
        self.monotonic = time.monotonic
        self._last_prune = 0.0

    async def prune(self) -> None:
        """Replay marks older than an hour can never matter again (the window is minutes)."""
        now = self.monotonic()
        if now - self._last_prune < PRUNE_EVERY:
            return
        self._last_prune = now
        cutoff = self._now() - KEEP_BURNT
        await seen.prune(self.services.vault, IDENTITY_PLATFORM, cutoff)
