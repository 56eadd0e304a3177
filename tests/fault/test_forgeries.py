"""CI-sized slice of ``python -m tests.fault.forgeries``: every kind of forged request against a real
``gateway serve`` is refused, while the genuine request of each kind is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fault.cluster import LIVE, kill_all
from tests.fault.forgeries import run


@pytest.fixture(autouse=True)
def no_orphans():
    yield
    leftover = [p.pid for p in LIVE if p.poll() is None]
    kill_all()
    assert not leftover, f"gateway processes left running: {leftover}"


async def test_no_forged_request_is_accepted(tmp_path: Path) -> None:
    report = await run(rounds=3, workdir=tmp_path)
    print(report.render())
    assert report.genuine == {"sl": 200, "discord": 200, "http": 200}, report.render()
    assert len(report.sent) == 20 and sum(report.sent.values()) == 60
    assert sum(report.accepted.values()) == 0, report.render()
    assert set(report.statuses) <= {400, 401, 403}, report.render()  # refused, never a 5xx
