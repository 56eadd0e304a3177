"""Heavy pure computations off the event loop: a process pool, started on first use, with a time bound.

A handler whose answer needs one (exact odds of two large pools) gathers its inputs in its unit of
work and returns an ``Offloaded``; the router ends the unit first (on SQLite it holds the write lock,
and with group commit other units' commit), runs ``compute`` here, then ``render`` on the loop.

Processes, not threads: the work is pure Python, so a thread would hold the GIL against the loop
(``tests/bench/stall.py --executor thread`` measures it). Workers come from a forkserver, never a fork
of this threaded asyncio process; the forkserver imports the rule systems' command modules once, so
a new worker does not import them again. Each computation is bounded in the worker itself
(``SIGALRM``), so one past the bound frees its worker instead of computing on for nobody.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from multiprocessing.reduction import ForkingPickler
from types import FrameType
from typing import Any, Generic, TypeVar

import structlog

from gateway.core.types import Reply

log = structlog.get_logger(__name__)

T = TypeVar("T")
TOO_LONG = "That takes too long to work out here; try smaller pools."
# Seconds the loop waits past the bound for a worker's own expiry to arrive (it frees the worker).
GRACE = 0.5
# A computation stopped after this share of the bound or more had the bound to itself (not spent
# waiting for a worker); HOPELESS such ones are remembered and refused at once.
WHOLE = 0.9
HOPELESS = 256
NICE = 5  # how much lower a worker's scheduling priority is than the gateway's


class TooLong(Exception):
    """The computation passed the time bound, or waited that long for a free worker."""


class _Expired(BaseException):
    """Raised in a worker by its alarm; a BaseException so that no ``except Exception`` in the
    computation swallows it."""


class _Exceeded(_Expired):
    """The computation had (nearly) the whole bound to itself and did not finish: the same
    computation never will, so it is refused at once from then on."""


@dataclass(frozen=True)
class Offloaded(Generic[T]):
    """A handler's answer that needs a heavy pure computation. ``compute()`` runs in a worker
    process after the unit of work has ended: a module-level function, or a ``functools.partial``
    of one with picklable arguments, with a picklable value. ``render(value)`` makes the replies
    from it, on the loop (from plain values: the unit is over). ``too_long`` is the one line
    answered when the time bound is passed.

    What the handler wrote in its unit is rolled back: only the answer is kept (for a retried
    message id, as any answer is)."""

    compute: Callable[[], T]
    render: Callable[[T], Reply | Sequence[Reply]]
    too_long: str = TOO_LONG


@dataclass(frozen=True)
class Awaited:
    """A handler's answer that waits on the loop for work running elsewhere (a background count):
    ``run()`` is awaited after the unit of work has ended, so the wait holds no transaction (on
    SQLite, the write lock); it opens a unit of its own if it needs the vault. Like ``Offloaded``,
    what the handler wrote in its unit is rolled back."""

    run: Callable[[], Awaitable[Reply | Sequence[Reply]]]


@dataclass(frozen=True)
class Speaker:
    """What a catalogue needs of a context (``gateway.core.i18n.HasLocale``), for text made in a worker."""

    locale: str


def _expire(signum: int, frame: FrameType | None) -> None:
    raise _Expired()


def _bounded(deadline: float, bound: float, compute: Callable[[], T]) -> T:
    """In the worker: ``compute()``, stopped by an alarm at ``deadline`` (``time.monotonic``, one
    clock for every process of the machine). Past it already (it waited in the queue), not begun."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _Expired()
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, remaining)
    try:
        return compute()
    except _Expired:
        if remaining >= WHOLE * bound:
            raise _Exceeded() from None
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _lowest_terms(numerator: int, denominator: int) -> Fraction:
    """A fraction a worker made, already in lowest terms, rebuilt without ``Fraction``'s gcd: exact
    odds of large pools have terms of 60,000 bits, whose gcd took 30 ms of the loop's GIL."""
    value = Fraction()
    setattr(value, "_numerator", numerator)  # noqa: B010 (the slots behind .numerator/.denominator)
    setattr(value, "_denominator", denominator)  # noqa: B010
    return value


def _reduce_fraction(value: Fraction) -> tuple[Callable[[int, int], Fraction], tuple[int, int]]:
    return _lowest_terms, (value.numerator, value.denominator)


# Only for what goes between processes (multiprocessing's own pickler), in both directions.
ForkingPickler.register(Fraction, _reduce_fraction)


def _lower_priority() -> None:
    """A worker yields the CPU to the gateway's loop (and to other gateway processes): with as many
    workers as spare cores, a busy worker still shares a core with the loop now and then."""
    os.nice(NICE)


def _consume(future: asyncio.Future[Any]) -> None:
    """An answer nobody waits for any more (past the bound): read, so it is not logged as lost."""
    if not future.cancelled():
        future.exception()


class Offload:
    """At most ``workers`` processes (0: compute on the loop, as a gateway without a pool did), each
    computation bounded to ``timeout`` seconds, waiting for a worker included. ``preload``: modules
    the forkserver imports once, so that workers start with them loaded."""

    def __init__(self, workers: int, timeout: float, preload: Sequence[str] = ()) -> None:
        self.workers = workers
        self.timeout = timeout
        self.preload = list(preload)
        self._pool: ProcessPoolExecutor | None = None
        # Pickled computations that ran out of the whole bound, oldest first.
        self._hopeless: OrderedDict[bytes, None] = OrderedDict()

    @property
    def started(self) -> bool:
        return self._pool is not None

    async def run(self, compute: Callable[..., T], *args: Any) -> T:
        """``compute(*args)`` in a worker; ``TooLong`` past the bound."""
        if args:
            compute = partial(compute, *args)
        if self.workers == 0:
            return compute()
        key = pickle.dumps(compute)
        if key in self._hopeless:
            raise TooLong()  # it ran out of the whole bound before: refused at once
        pool = self._pool or self._start()
        deadline = time.monotonic() + self.timeout
        # In a thread: submitting may start a worker, which waits for the forkserver (its first
        # start imports the plugins).
        future: Future[T] = await asyncio.to_thread(pool.submit, _bounded, deadline, self.timeout, compute)
        # Never cancelled: the worker ends it at the deadline (a cancel racing the executor's
        # hand-over can break the pool, and a running call cannot be cancelled anyway).
        answer = asyncio.wrap_future(future)
        answer.add_done_callback(_consume)
        done, _ = await asyncio.wait({answer}, timeout=deadline + GRACE - time.monotonic())
        if not done:
            raise TooLong()
        try:
            return answer.result()
        except _Exceeded:
            self._hopeless[key] = None
            if len(self._hopeless) > HOPELESS:
                self._hopeless.popitem(last=False)
            raise TooLong() from None
        except _Expired:
            raise TooLong() from None
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next computation gets a new pool.
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _start(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["gateway.core.offload", *self.preload])
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_lower_priority
        )
        log.info("offload pool started", workers=self.workers)
        return self._pool

    async def shutdown(self) -> None:
        """Stop the workers (a running computation ends within the time bound); the next
        computation would start a new pool."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
