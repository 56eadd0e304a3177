"""``python -m tests.fault``: the long fault campaign. See ``tests/fault/__init__.py``."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.fault.campaign import Event, Report, Scenario, run_scenario
from tests.fault.cluster import kill_all

# Fractions of the load's planned duration (40 s by default): 503 Retry-After: 1 for 10 s, a hang for
# 6 s, refused connections for 8 s, each followed by a recovery while the load goes on.
OUTAGES = [
    Event(0.10, "503"),
    Event(0.35, "ok"),
    Event(0.45, "hang"),
    Event(0.60, "ok"),
    Event(0.65, "refuse"),
    Event(0.85, "ok"),
]


def scenarios(commands: int, rate: float, drain: float, late: float) -> dict[str, Scenario]:
    common = {"commands": commands, "rate": rate, "drain": drain, "late": late}
    return {
        "sqlite": Scenario("sqlite: outages 503 / hang / refuse", events=list(OUTAGES), **common),
        "group-commit": Scenario(
            "sqlite group_commit: outages 503 / hang / refuse",
            group_commit=True,
            events=list(OUTAGES),
            **common,
        ),
        "refusal": Scenario(
            "sqlite: both targets refuse connections for 80% of the run (issue 30: rows died after 12"
            " attempts at a 4 s backoff ceiling, one line per 45 s of refusal)",
            events=[Event(0.10, "refuse"), Event(0.90, "ok")],
            **common,
        ),
        "kill": Scenario(
            "sqlite: kill -9 under load, restart on the same vault",
            events=[
                Event(0.35, "kill:0"),
                Event(0.40, "restart:0"),
                Event(0.70, "kill:0"),
                Event(0.75, "restart:0"),
            ],
            **common,
        ),
        "postgres": Scenario(
            "postgresql: two processes, 503 outage, kill -9 of one",
            engine="postgresql",
            processes=2,
            events=[Event(0.15, "503"), Event(0.35, "ok"), Event(0.50, "kill:1"), Event(0.60, "restart:1")],
            **common,
        ),
        "rolling": Scenario(
            "postgresql: three processes, a rolling restart (SIGTERM, start again, the next one)",
            engine="postgresql",
            processes=3,
            events=[
                Event(at, f"{verb}:{n}")
                for n, start in enumerate((0.15, 0.40, 0.65))
                for at, verb in ((start, "stop"), (start + 0.05, "restart"))
            ],
            **common,
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fault", description=__doc__)
    parser.add_argument("--commands", type=int, default=2000, help="commands per scenario (default 2000)")
    parser.add_argument("--rate", type=float, default=50.0, help="commands started per second (default 50)")
    parser.add_argument("--drain", type=float, default=150.0, help="seconds to wait for quiet (default 150)")
    parser.add_argument("--late", type=float, default=10.0, help="a delivery later than this is LATE (s)")
    parser.add_argument("--postgres", default=os.environ.get("GATEWAY_TEST_POSTGRES_URL"), help="server URL")
    parser.add_argument(
        "--only",
        action="append",
        choices=["sqlite", "group-commit", "refusal", "kill", "postgres", "rolling"],
        help="repeatable",
    )
    parser.add_argument("--fail-late", action="store_true", help="exit non-zero on LATE deliveries too")
    parser.add_argument("--keep", type=Path, help="keep each scenario's vault, config and logs here")
    args = parser.parse_args(argv)

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through the finally below: no gateway outlives us

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)
    chosen = scenarios(args.commands, args.rate, args.drain, args.late)
    names = args.only or list(chosen)
    reports: list[Report] = []
    try:
        for name in names:
            scenario = chosen[name]
            if scenario.engine == "postgresql" and not args.postgres:
                print(f"== {scenario.name}\n   skipped: no --postgres and no GATEWAY_TEST_POSTGRES_URL\n")
                continue
            keep = args.keep / name if args.keep else None
            print(
                f"running {scenario.name} ({scenario.commands} commands at {scenario.rate:g}/s) ...",
                flush=True,
            )
            report = asyncio.run(run_scenario(scenario, args.postgres, keep))
            reports.append(report)
            print(report.render() + "\n", flush=True)
    finally:
        kill_all()
    failed = [r for r in reports if r.problems() or (args.fail_late and r.late_problems())]
    print("summary:")
    for r in reports:
        problems = r.problems() + r.late_problems()
        print(f"   {r.scenario}: " + ("; ".join(problems) if problems else "clean"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
