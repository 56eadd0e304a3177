"""Benchmark: drawing an ``odds`` chart as a PNG (``gateway.rules.charts``), and where it may run.

Per chart (Nightcap ``odds 5``: one panel of six bars; ``odds 50 vs 50``: three panels, 20 bars),
in wall milliseconds, the median of ``--repeat``:
- cold: a fresh process's first drawing (font loaded, its glyphs checked), measured in a child
  process each time;
- warm: drawn again in the same process (fonts cached), PNG bytes and size;
- through ``picture()`` with a one-worker offload pool: the first call (pool start included), a new
  chart (the round trip), and a repeated chart (the cache: no drawing);
- held GIL: the longest a 1 ms asyncio ticker on the loop waited while a thread drew charts back to
  back, beside the same ticker with the pool drawing (does Pillow release the GIL enough for a thread?).

Run: ``.venv/bin/python -m tests.bench.charts [--repeat 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import threading
import time
from functools import partial
from typing import Any

from gateway.core.offload import Offload
from gateway.rules.charts import chart_from_result, picture
from gateway.rules.charts.draw import render
from plugins.nightcap import odds, odds_chart


def charts() -> dict[str, dict[str, Any]]:
    single = odds.roll_odds(5)
    left, right = odds.roll_odds(50), odds.roll_odds(50)
    contest = odds.contest_odds(left, right)
    return {
        "odds 5": {"chart": odds_chart.single_chart("cs", 5, False, dict(single.degrees))},
        "odds 50 vs 50": {
            "chart": odds_chart.contest_chart(
                "ru",
                ((50, False, dict(left.degrees)), (50, False, dict(right.degrees))),
                dict(contest.outcomes),
                {side: dict(b) for side, b in contest.margins.items()},
            )
        },
    }


COLD = """
import time, sys
from gateway.rules.charts import chart_from_result
from gateway.rules.charts.draw import render
from tests.bench.charts import charts
chart = chart_from_result(charts()[sys.argv[1]])
t = time.perf_counter(); render(chart, None); print((time.perf_counter() - t) * 1000)
"""


def cold(name: str, repeat: int) -> float:
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", COLD, name], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(repeat)
    ]
    return statistics.median(runs)


def warm(name: str, result: dict[str, Any], repeat: int) -> tuple[float, int, tuple[int, int]]:
    chart = chart_from_result(result)
    assert chart is not None
    render(chart, None)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        drawn = render(chart, None)
        times.append((time.perf_counter() - t) * 1000)
    assert not hasattr(drawn, "reason"), drawn
    return statistics.median(times), len(drawn.png), (drawn.width, drawn.height)  # type: ignore[union-attr]


class Fake:
    """What ``picture()`` reads of the services."""

    def __init__(self, offload: Offload) -> None:
        from gateway.core.settings import Settings

        self.settings = Settings()
        self.offload = offload


async def through_pool(results: dict[str, dict[str, Any]], repeat: int) -> dict[str, float]:
    offload = Offload(1, 10.0, ["gateway.rules.charts.draw"])
    services = Fake(offload)
    out: dict[str, float] = {}
    try:
        first = next(iter(results.values()))
        t = time.perf_counter()
        assert await picture(services, first) is not None  # type: ignore[arg-type]
        out["first call (pool start)"] = (time.perf_counter() - t) * 1000
        for name, result in results.items():
            times, hits = [], []
            for i in range(repeat):
                fresh = {"chart": {**result["chart"], "title": f"{result['chart']['title']} {i}"}}
                t = time.perf_counter()
                await picture(services, fresh)  # type: ignore[arg-type]
                times.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                await picture(services, fresh)  # type: ignore[arg-type]
                hits.append((time.perf_counter() - t) * 1000)
            out[f"{name}: new chart"] = statistics.median(times)
            out[f"{name}: cached"] = statistics.median(hits)
        out["pool: longest loop wait"] = await ticker_while(partial(_pool_load, services, results), 1.5)
    finally:
        await offload.shutdown()
    return out


async def _pool_load(services: Any, results: dict[str, dict[str, Any]]) -> None:
    result = results["odds 50 vs 50"]
    for i in range(10_000):
        fresh = {"chart": {**result["chart"], "title": f"load {i}"}}
        await picture(services, fresh)


async def ticker_while(load: Any, seconds: float) -> float:
    """The longest wait of a 1 ms sleep on the loop while ``load()`` runs (a coroutine, or a function
    run in a thread), in milliseconds."""
    worst = 0.0
    coroutine = asyncio.iscoroutinefunction(getattr(load, "func", load))
    if coroutine:
        task = asyncio.ensure_future(load())
    else:
        stop = threading.Event()
        threading.Thread(target=load, args=(stop,), daemon=True).start()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        worst = max(worst, (time.perf_counter() - t) * 1000 - 1)
    if coroutine:
        task.cancel()
    else:
        stop.set()
    return worst


def _thread_load(result: dict[str, Any]) -> Any:
    chart = chart_from_result(result)

    def draw(stop: threading.Event) -> None:
        while not stop.is_set():
            render(chart, None)  # type: ignore[arg-type]

    return draw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    results = charts()
    for name, result in results.items():
        c = cold(name, min(args.repeat, 5))
        w, size, dims = warm(name, result, args.repeat)
        print(f"{name:14}  cold {c:6.1f} ms  warm {w:5.1f} ms  PNG {size:,} bytes {dims[0]}x{dims[1]}")
    for label, value in asyncio.run(through_pool(results, args.repeat)).items():
        print(f"picture(): {label:32} {value:6.2f} ms")
    idle = asyncio.run(ticker_while(lambda stop: stop.wait(), 1.5))
    held = asyncio.run(ticker_while(_thread_load(results["odds 50 vs 50"]), 1.5))
    print(f"loop ticker, longest wait: idle {idle:.2f} ms, a thread drawing {held:.2f} ms")


if __name__ == "__main__":
    main()
