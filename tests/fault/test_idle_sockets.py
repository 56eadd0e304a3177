"""CI-sized slice of ``python -m tests.fault.sockets``: more idle connections than the gateway has
descriptors, under a lowered ``ulimit -n``; every real request is still served and the log stays small.
Without the connection cap this very run served 0 of its requests and wrote 27 MB of log in 32 s."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fault.cluster import LIVE, kill_all
from tests.fault.sockets import run


@pytest.fixture(autouse=True)
def no_orphans():
    yield
    leftover = [p.pid for p in LIVE if p.poll() is None]
    kill_all()
    assert not leftover, f"gateway processes left running: {leftover}"


async def test_idle_sockets_past_the_file_limit_do_not_stop_real_requests(tmp_path: Path) -> None:
    nofile = 256  # soft = hard: the gateway cannot raise it, so at most 192 client connections
    report = await run(nofile=nofile, idle=400, slow=20, hold=4.0, idle_timeout=2.0, workdir=tmp_path)
    print(report.render())
    assert report.opened > nofile, report.render()  # more than the process could hold at once
    assert report.served == report.requests >= 10, report.render()
    # Every silent or dripping socket was closed: room made for newer ones, or the idle timeout.
    assert report.closed_by_gateway == report.opened, report.render()
    assert report.log_bytes < 20_000, report.render()
