"""Benchmark: what the typed roll result (``gateway.core.results``) costs a roll, against the dict
literal every system wrote before it, and what reading one back costs an adapter.

Run: ``.venv/bin/python -m tests.bench.results [--number N] [--repeat R]``. Each figure is the best
of R runs of N calls (the machine is shared: the best run is the least disturbed), in microseconds
a call; the loops take turns, so all see the same load.
"""

from __future__ import annotations

import argparse
import timeit
from typing import Any

from gateway.core.dice import ScriptedDice
from gateway.core.results import read_result
from plugins.nightcap import mechanics as nightcap
from plugins.pravidla import mechanics as pravidla

NIGHTCAP = nightcap.roll(5, ScriptedDice([9, 1, 10, 3, 7]))
PRAVIDLA = pravidla.roll(4, ScriptedDice([6, 4, 3, 1]), target=4, need=2)
CONTEST = nightcap.contest(NIGHTCAP, nightcap.roll(3, ScriptedDice([8, 8, 2])))


def nightcap_dict() -> dict[str, Any]:
    """Nightcap's ``Roll.as_result`` as it was written before the model."""
    r = NIGHTCAP
    return {
        "kind": "roll",
        "system": "nightcap",
        "pool": r.pool,
        "dice": list(r.dice),
        "chance_die": r.chance_die,
        "dice_total": r.dice_total,
        "willpower": r.willpower,
        "total": r.total,
        "degree": r.degree,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    stored = NIGHTCAP.as_result()
    contest = CONTEST.as_result()
    loops = {
        "nightcap roll, dict literal (before)": nightcap_dict,
        "nightcap roll, RollResult.as_json": NIGHTCAP.as_result,
        "pravidla roll, RollResult.as_json": PRAVIDLA.as_result,
        "nightcap contest, ContestResult.as_json": CONTEST.as_result,
        "read a stored roll (adapters)": lambda: read_result(stored),
        "read a stored contest (adapters)": lambda: read_result(contest),
    }
    best = dict.fromkeys(loops, float("inf"))
    for _ in range(args.repeat):
        for name, call in loops.items():
            best[name] = min(best[name], timeit.timeit(call, number=args.number))
    for name, seconds in best.items():
        print(f"{name:42} {seconds / args.number * 1e6:7.2f} us")


if __name__ == "__main__":
    main()
