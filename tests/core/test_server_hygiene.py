"""The HTTP server's hygiene in isolation (``gateway.ops.server``): the connection cap against the open-file
limit, who makes room at the cap, and failing accepts logged once per interval (``tests/fault/sockets``
runs the real thing)."""

from __future__ import annotations

import asyncio
import errno
import io
import json
from typing import Any

from gateway.ops.logging import configure_logging
from gateway.ops.server import ACCEPT_MESSAGE, FD_RESERVE, AcceptErrors, ConnectionCap, connection_cap


def test_the_cap_stays_below_the_open_file_limit() -> None:
    assert connection_cap(4096, 1024) == 1024 - 128  # an eighth of the limit kept free
    assert connection_cap(4096, 256) == 256 - FD_RESERVE
    assert connection_cap(500, 65536) == 500  # the setting when the limit is far above it
    assert connection_cap(4096, 20) == 8  # a tiny limit still serves someone


class FakeHandler:
    def __init__(self, busy: bool = False) -> None:
        self._request_in_progress = busy
        self._force_close = False

    def force_close(self) -> None:
        self._force_close = True


def test_at_the_cap_the_oldest_idle_connection_makes_room() -> None:
    cap = ConnectionCap(3)
    busy, idle, newer = FakeHandler(busy=True), FakeHandler(), FakeHandler()
    newest = FakeHandler()
    cap.admit([busy, idle, newer, newest], newest)  # type: ignore[list-item]
    assert (busy._force_close, idle._force_close, newer._force_close, newest._force_close) == (
        False,
        True,
        False,
        False,
    )
    assert (cap.evicted, cap.refused) == (1, 0)


def test_at_the_cap_with_every_connection_busy_the_new_one_is_closed() -> None:
    cap = ConnectionCap(2)
    open_now = [FakeHandler(busy=True), FakeHandler(busy=True), FakeHandler()]
    cap.admit(open_now, open_now[-1])  # type: ignore[arg-type]
    assert [h._force_close for h in open_now] == [False, False, True]
    assert (cap.evicted, cap.refused) == (0, 1)


def test_failing_accepts_are_one_line_per_interval_with_a_count_and_no_traceback() -> None:
    stream = io.StringIO()
    configure_logging("json", "info", stream)
    now = [0.0]
    errors = AcceptErrors(every=10.0, clock=lambda: now[0])
    loop = asyncio.new_event_loop()
    try:
        # 1,000 a second for 60 s (issue 30 measured 9,700 a second)
        for tick in range(60 * 1000):
            now[0] = tick / 1000
            exc = OSError(errno.EMFILE, "Too many open files")
            errors.handle(loop, {"message": ACCEPT_MESSAGE, "exception": exc})
    finally:
        loop.close()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 6 == errors.lines  # one at the first failure, then one per 10 s
    assert [line["count"] for line in lines][1:] == [10000] * 5
    assert all("exception" not in line and "Traceback" not in json.dumps(line) for line in lines)
    assert errors.total == 60 * 1000


def test_other_loop_errors_still_reach_the_previous_handler() -> None:
    seen: list[dict[str, Any]] = []
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(lambda _loop, context: seen.append(context))
        errors = AcceptErrors()
        errors.install(loop)
        loop.call_exception_handler({"message": "something else"})
        loop.call_exception_handler({"message": ACCEPT_MESSAGE, "exception": OSError(errno.EMFILE, "x")})
    finally:
        loop.close()
    assert [c["message"] for c in seen] == ["something else"]
