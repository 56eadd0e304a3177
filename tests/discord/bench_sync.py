"""Benchmark: Force Web Sync of 200 sheets against the fake Discord, timed against the minimum.

    .venv/bin/python -m tests.discord.bench_sync [--sheets 200] [--scale 10] [--restart] [--caps]

The fake's limits are Discord's (5 per 2 s per webhook, 30 per 60 s per channel) divided by
``--scale`` (default 10: the issue's 5 per 0.2 s, and 30 per 6 s). The adapter's fixed safety caps
are off unless ``--caps``, so the pacing comes from the rate-limit headers alone. Reports the sheets,
the seconds from the first to the last request as the fake saw them, the 429 count, the minimum the
limits allow, and the ratio; the target is zero 429s and a ratio within 1.10.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from gateway.ops.logging import configure_logging
from tests.discord.syncrun import SyncFigures, run_sync


def report(label: str, f: SyncFigures) -> str:
    verdict = "ok" if f.rate_limited == 0 and f.ratio <= 1.10 and f.delivered == f.sheets else "MISSED"
    return (
        f"{label:<22} sheets {f.sheets:>4}  delivered {f.delivered:>4}  seconds {f.seconds:7.2f}"
        f"  (end to end {f.total_seconds:7.2f})  429s {f.rate_limited}  minimum {f.minimum:7.2f}"
        f"  ratio {f.ratio:5.3f}  {verdict}"
    )


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sheets", type=int, default=200)
    parser.add_argument("--scale", type=float, default=10.0, help="divide Discord's windows by this")
    parser.add_argument("--restart", action="store_true", help="also run one with a restart halfway")
    parser.add_argument(
        "--caps",
        action="store_true",
        help="keep the safety caps on (scaled like the fake; at --scale 1 the defaults)",
    )
    args = parser.parse_args(argv)
    configure_logging("json", "error")
    webhook, channel = (5, 2.0 / args.scale), (30, 60.0 / args.scale)
    print(f"fake limits: {webhook[0]} per {webhook[1]:g} s per webhook,", end=" ")
    print(f"{channel[0]} per {channel[1]:g} s per channel")
    discord = None
    if args.caps:
        discord = {
            "webhook_cap": {"requests": webhook[0], "seconds": webhook[1]},
            "channel_cap": {"requests": channel[0], "seconds": channel[1]},
        }
    print(f"safety caps: {'on, the same numbers' if args.caps else 'off (headers only)'}")
    runs = [("straight", None)] + ([("restart halfway", args.sheets // 2)] if args.restart else [])
    failed = False
    for label, restart in runs:
        with tempfile.TemporaryDirectory() as tmp:
            figures, _ = await run_sync(
                Path(tmp),
                n=args.sheets,
                webhook=webhook,
                channel=channel,
                restart_after=restart,
                timeout=3600,
                discord=discord,
            )
        line = report(label, figures)
        failed = failed or line.endswith("MISSED")
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
