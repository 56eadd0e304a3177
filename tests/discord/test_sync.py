"""Force Web Sync: 200 sheets through the limiter against the fake's limits scaled down 100 times
(5 per 0.02 s per webhook, 30 per 0.6 s per channel: the same seven channel windows as at Discord's
pace, in 3.7 s instead of 18 s; a reply's reset only arrives after the fake counted it, so shorter
windows give the limiter no less room). The restart runs at 20 times scaled down (30 per 3 s), so
the window open at the restart outlasts the restart, and with 70 sheets, restarting 10 sheets into
the second window with 30 to go: a limiter that forgot the window would overrun it.

The safety caps are off here, so only what the limiter learns from the headers keeps it clear of 429s.
The timing figures (and the within-10%-of-minimum check) are in ``python -m tests.discord.bench_sync``;
these tests check what cannot flake: no 429, nothing lost, nothing twice, in order.
"""

from __future__ import annotations

from pathlib import Path

from tests.discord.syncrun import minimum_time, run_sync


def test_minimum_time() -> None:
    assert minimum_time(5, [(5, 2.0), (30, 60.0)]) == 0.0
    assert minimum_time(6, [(5, 2.0), (30, 60.0)]) == 2.0
    assert minimum_time(31, [(5, 2.0), (30, 60.0)]) == 60.0
    assert minimum_time(200, [(5, 2.0), (30, 60.0)]) == 6 * 60.0 + 3 * 2.0
    assert abs(minimum_time(200, [(5, 0.02), (30, 0.6)]) - 3.66) < 1e-9


def names(fake: object) -> list[str]:
    return [body["embeds"][0]["title"] for body in fake.bodies()]  # type: ignore[attr-defined]


async def test_sync_of_200_sheets_draws_no_429(tmp_path: Path) -> None:
    figures, fake = await run_sync(tmp_path, n=200, webhook=(5, 0.02), channel=(30, 0.6))
    print(f"\nsync: {figures}")
    assert figures.delivered == 200
    assert figures.rate_limited == 0
    assert names(fake) == [f"Character {i:03d}" for i in range(200)]
    assert figures.seconds >= figures.minimum - 0.01  # the fake enforces the limits; this shows it


async def test_a_restart_in_the_middle_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    figures, fake = await run_sync(tmp_path, n=70, restart_after=40)
    print(f"\nsync with a restart: {figures}")
    assert figures.restarts == 1
    assert figures.delivered == 70
    assert names(fake) == [f"Character {i:03d}" for i in range(70)]
    assert figures.rate_limited == 0  # the limiter state came back with the restart
