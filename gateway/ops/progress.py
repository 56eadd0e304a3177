"""A one-line progress bar with an ETA, for long CLI jobs (`gateway sync discord`, `gateway db copy`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO


def duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """Draws ``[#####.....] 57/200 28% 1m04s ETA 4m46s``; redraws in place on a terminal, and prints a
    line per tenth (or every ``every`` seconds) otherwise. ``steady_rate`` (items per second, from the
    rate limits) keeps the ETA honest while the first burst makes the observed rate look better."""

    def __init__(
        self,
        total: int,
        out: TextIO,
        *,
        label: str = "items",
        width: int = 30,
        steady_rate: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        tty: bool | None = None,
        every: float = 10.0,
    ) -> None:
        self.total = total
        self.out = out
        self.label = label
        self.width = width
        self.steady_rate = steady_rate
        self.clock = clock
        self.start = clock()
        self.tty = out.isatty() if tty is None else tty
        self.every = every
        self._last_line = -1.0
        self._last_tenth = -1

    def eta(self, done: int) -> float | None:
        left = self.total - done
        if left <= 0:
            return 0.0
        elapsed = self.clock() - self.start
        rates = []
        if done > 0 and elapsed > 0:
            rates.append(done / elapsed)
        if self.steady_rate:
            rates.append(self.steady_rate)
        if not rates:
            return None
        return left / min(rates)

    def line(self, done: int, failed: int = 0) -> str:
        share = done / self.total if self.total else 1.0
        filled = round(self.width * share)
        bar = "#" * filled + "." * (self.width - filled)
        eta = self.eta(done)
        parts = [
            f"[{bar}] {done}/{self.total} {self.label} {share:4.0%}",
            duration(self.clock() - self.start),
            f"ETA {duration(eta)}" if eta is not None else "ETA --",
        ]
        if failed:
            parts.append(f"{failed} failed")
        return " · ".join(parts)

    def update(self, done: int, failed: int = 0) -> None:
        text = self.line(done, failed)
        if self.tty:
            self.out.write("\r" + text + "\x1b[K")
            self.out.flush()
            return
        tenth = int(10 * done / self.total) if self.total else 10
        now = self.clock()
        if tenth != self._last_tenth or now - self._last_line >= self.every:
            self._last_tenth, self._last_line = tenth, now
            print(text, file=self.out, flush=True)

    def close(self) -> None:
        if self.tty:
            self.out.write("\n")
            self.out.flush()
