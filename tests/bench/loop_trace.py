"""The bench's ``--trace``: what holds the gateway's event loop while the load runs.

Installed in the gateway's process, it times every event-loop callback (a task's step, a timer, an
I/O callback) and every garbage collection, and keeps those over a threshold with their start on
``time.perf_counter`` (CLOCK_MONOTONIC, the same clock in the load client's process), so the client
can set each slow request beside what ran on the loop meanwhile. A task's step is named by its
coroutine and where it stopped next; everything else by the callback's repr.
"""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

TRACE_PATH = "/bench/trace"
# (start on perf_counter, seconds, CPU seconds of its thread, seconds waiting for a CPU, what)
Event = tuple[float, float, float, float, str]


class LoopTrace:
    """Callbacks and collections that took at least ``threshold`` seconds, as ``(start, seconds,
    CPU seconds of the thread meanwhile, seconds it waited for a CPU, what)``: the rest of a long
    step is time blocked in a system call (a write, an fsync)."""

    def __init__(self, threshold: float = 0.004) -> None:
        self.threshold = threshold
        self.events: list[Event] = []
        self._gc_start = 0.0
        self.full_collections: list[float] = []  # seconds each generation-2 collection took

    def install(self) -> None:
        handle_run = asyncio.events.Handle._run
        trace = self

        schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)  # the loop's thread

        def timed_run(handle: asyncio.events.Handle) -> None:
            start, cpu, sched = time.perf_counter(), time.thread_time(), os.pread(schedstat, 64, 0)
            handle_run(handle)
            took = time.perf_counter() - start
            if took >= trace.threshold:
                waited = _runqueue_ns(os.pread(schedstat, 64, 0)) - _runqueue_ns(sched)
                trace.events.append((start, took, time.thread_time() - cpu, waited / 1e9, _name(handle)))

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
        gc.callbacks.append(self._on_gc)
        # The group commit's disk work runs in threads: not loop time, but a unit waits for it.
        from gateway.vault import engine

        engine._fsync_file = self._timed(engine._fsync_file, "fsync of the WAL")
        engine._checkpoint = self._timed(engine._checkpoint, "WAL checkpoint")

    def _timed(self, function: Callable[..., Any], label: str) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args)
            finally:
                took = time.perf_counter() - start
                if took >= self.threshold:
                    where = (
                        "the loop" if threading.current_thread() is threading.main_thread() else "a thread"
                    )
                    self.events.append((start, took, time.thread_time() - cpu, 0.0, f"{label} on {where}"))

        return timed

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
            return
        took, generation = now - self._gc_start, info["generation"]
        if generation == 2:
            self.full_collections.append(took)
        if took >= self.threshold / 4 or generation == 2:
            self.events.append((self._gc_start, took, took, 0.0, f"gc generation {generation}"))

    def forget(self) -> None:
        self.events, self.full_collections = [], []

    def add_route(self, app: web.Application) -> None:
        async def handler(_: web.Request) -> web.Response:
            events, self.events = self.events, []
            return web.json_response({"events": [list(e) for e in events], "gen2": self.full_collections})

        app.router.add_get(TRACE_PATH, handler)


def _runqueue_ns(schedstat: bytes) -> int:
    """Nanoseconds the thread has spent runnable but waiting for a CPU (``/proc/.../schedstat``)."""
    return int(schedstat.split()[1])


def _name(handle: asyncio.events.Handle) -> str:
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        stack = task.get_stack(limit=1)
        where = f" at {stack[-1].f_code.co_qualname}:{stack[-1].f_lineno}" if stack else ""
        return f"task {getattr(coro, '__qualname__', coro)}{where}"
    return repr(handle)[:160]


def blame(slow: list[tuple[float, float]], events: list[Event], top: int = 8) -> list[str]:
    """For requests ``(sent at, latency)`` over the target: the loop's long events while they waited,
    summed by kind, longest first."""
    if not slow:
        return []
    total: dict[str, list[float]] = {}
    hit = set()
    for index, (start, took, cpu, waited, what) in enumerate(events):
        if any(at <= start + took and start <= at + latency for at, latency in slow):
            hit.add(index)
            kind = total.setdefault(what, [0.0, 0.0, 0.0, 0.0, 0.0])
            kind[0] += took
            kind[1] += cpu
            kind[2] += waited
            kind[3] += 1
            kind[4] = max(kind[4], took)
    lines = ["  wall ms (CPU, waiting for a CPU, blocked)  events  longest: what"] + [
        f"  {1000 * s:7.1f} ({1000 * c:6.1f}, {1000 * w:6.1f}, {1000 * (s - c - w):6.1f})"
        f"  {n:5.0f}  {1000 * m:6.1f} ms: {what}"
        for what, (s, c, w, n, m) in sorted(total.items(), key=lambda kv: -kv[1][0])[:top]
    ]
    all_long = sum(e[1] for e in events)
    lines.append(
        f"  loop events >= threshold during the whole half-load run: {len(events)}, {1000 * all_long:.0f} ms;"
        f" {len(hit)} of them overlap a slow request"
    )
    return lines
