"""Benchmark: exact odds of every rule system, ``odds 50`` and ``odds 50 vs 50`` with each option.

Measured side by side in one run, per case, in CPU milliseconds (``time.process_time``; the median):
- old cold: the code before it was made fast (tests/helpers/odds_reference, verbatim; no caches);
- new cold: today's code with every distribution cache cleared before each call; new warm: caches kept;
- through the router on a SQLite vault (parse, transaction, JSON result), caches cleared before each
  command, wall and CPU time, next to ``roll 5`` through the same router as a yardstick.
Each pure case makes the calls its command makes (``at_least`` for the spread, the mean, ...).
For Nightcap, whose odds were already fast, old and new are the same code; a seeded simulation of
100,000 contests of 50 vs 50 (what a dice bot without exact odds would do) is timed beside it.

Run: ``.venv/bin/python -m tests.bench.odds [--pool 50] [--repeat 20] [--old-repeat 3] [--trials N]``
(``--system dramatic`` for one system, ``--no-router`` for the pure figures only).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from gateway.core.app import Gateway
from gateway.core.dice import SeededDice
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.ops.logging import configure_logging
from gateway.rules import binomial
from plugins.decanter import odds as decanter
from plugins.dramatic import odds as dramatic
from plugins.nightcap import mechanics as nightcap_mechanics
from plugins.nightcap import odds as nightcap
from plugins.nightwanderers import odds as nightwanderers
from tests.helpers import odds_reference as reference
from tests.helpers.odds_reference import binomial as old_binomial
from tests.helpers.odds_reference import decanter as old_decanter
from tests.helpers.odds_reference import dramatic as old_dramatic
from tests.helpers.odds_reference import nightwanderers as old_nightwanderers

Call = Callable[[], object]
YARDSTICK = {"decanter": "roll 5 dc 3"}  # a bare roll through the router, per system (default roll 5)


def clear_caches() -> None:
    """Every distribution cache of every system's odds, for a cold call."""
    dramatic._net_counts.cache_clear()
    decanter._pool_counts.cache_clear()
    decanter._aid_counts.cache_clear()
    binomial.counts.cache_clear()
    nightcap._pool_distribution.cache_clear()


@dataclass(frozen=True)
class Case:
    system: str
    text: str  # the command, as typed
    old: Call
    new: Call


def dramatic_roll(module: ModuleType, pool: int, difficulty: int, **options: bool) -> Call:
    def run() -> object:
        chances = module.roll_odds(pool, difficulty, **options)
        return [chances.at_least(k) for k in range(2, min(pool + 1, 8) + 1)]

    return run


def dramatic_resisted(module: ModuleType, pool: int, difficulties: tuple[int, int], **options: bool) -> Call:
    return lambda: module.resisted_odds(pool, pool, *difficulties, **options)


def decanter_roll(module: ModuleType, pool: int, **options: Any) -> Call:
    def run() -> object:
        chances = module.roll_odds(pool, **options)
        top = max(chances.successes) if chances.successes else 0
        return [chances.at_least(k) for k in range(1, min(top, 8) + 1)], chances.mean

    return run


def decanter_contest(module: ModuleType, pool: int, quality: int) -> Call:
    return lambda: module.contest_odds(pool, pool, quality, quality)


def pravidla_roll(module: ModuleType, pool: int, target: int, need: int) -> Call:
    return lambda: (
        module.distribution(pool, target, sides=6),
        module.at_least(pool, target, need, sides=6),
    )


def nightwanderers_roll(odds: ModuleType, rules: ModuleType, pool: int, difficulty: int, need: int) -> Call:
    return lambda: (odds.qualities(pool, difficulty, need), rules.distribution(pool, difficulty, sides=6))


def contest_of(module: ModuleType, pool: int, target: int) -> Call:
    return lambda: module.contest(pool, pool, target, sides=6)


def nightcap_single(pool: int, willpower: bool) -> Call:
    return lambda: nightcap.roll_odds(pool, willpower).as_result()


def nightcap_contest(pool: int, willpower: bool) -> Call:
    return lambda: nightcap.contest_odds(
        nightcap.roll_odds(pool, willpower), nightcap.roll_odds(pool)
    ).as_result()


def case(system: str, text: str, factory: Callable[..., Call], *args: Any, **options: Any) -> Case:
    """A case whose old and new calls are ``factory`` on the reference and on today's modules."""
    old = (
        (dramatic, old_dramatic),
        (decanter, old_decanter),
        (binomial, old_binomial),
        (nightwanderers, old_nightwanderers),
    )

    def swapped(arg: Any) -> Any:
        return next((before for module, before in old if arg is module), arg)

    return Case(system, text, factory(*map(swapped, args), **options), factory(*args, **options))


def cases(n: int) -> list[Case]:
    """The worst ``odds N`` and ``odds N vs N`` of each system with each of its options."""
    half_aid = max(n - 5, 0)  # with 5 dice of aid (the default cap) the pool stays within max_pool
    aid = f" aid {n}" * 5  # five helpers of N dice each
    helpers = [(n, False)] * 5
    spec = {"willpower": True, "attacker_specialty": True, "defender_specialty": True}
    need = min(3, max(n, 1))
    out = [
        case("dramatic", f"odds {n}", dramatic_roll, dramatic, n, 6),
        case(
            "dramatic",
            f"odds {n} diff 10 wp spec",
            dramatic_roll,
            dramatic,
            n,
            10,
            willpower=True,
            specialty=True,
        ),
        case("dramatic", f"odds {n} vs {n}", dramatic_resisted, dramatic, n, (6, 6)),
        *(
            case(
                "dramatic",
                f"odds {n} diff {d} wp spec vs {n} diff {d} spec",
                dramatic_resisted,
                dramatic,
                n,
                (d, d),
                **spec,
            )
            for d in (6, 10)
        ),
        case("decanter", f"odds {n}", decanter_roll, decanter, n),
        *(
            case(
                "decanter", f"odds {n} {words}dc 30", decanter_roll, decanter, n, dc=30, quality=q, half=half
            )
            for words, q, half in (
                ("", 0, False),
                ("madv ", 2, False),
                ("adv half ", 1, True),
                ("mdis ", -2, False),
            )
        ),
        *(
            case(
                "decanter",
                f"odds {half_aid} {w} dc 30{aid}",
                decanter_roll,
                decanter,
                half_aid,
                dc=30,
                quality=q,
                helpers=helpers,
            )
            for q, w in ((2, "madv"), (1, "adv"), (-2, "mdis"))
        ),
        *(
            case("decanter", f"odds {n}{w} vs {n}{w}", decanter_contest, decanter, n, q)
            for q, w in ((0, ""), (2, " madv"), (1, " adv"), (-1, " dis"), (-2, " mdis"))
        ),
    ]
    for t in (4, 2):
        half = max(n // 2, 1)
        out.append(case("pravidla", f"odds {n} tn {t} need {half}", pravidla_roll, binomial, n, t, half))
        out.append(case("pravidla", f"odds {n} tn {t} vs {n}", contest_of, binomial, n, t))
    for t in (4, 2):
        roll = case(
            "nightwanderers",
            f"odds {n} diff {t} need {need}",
            nightwanderers_roll,
            nightwanderers,
            binomial,
            n,
            t,
            need,
        )
        out.append(roll)
        out.append(case("nightwanderers", f"odds {n} diff {t} vs {n}", contest_of, binomial, n, t))
    for wp, word in ((False, ""), (True, " wp")):
        out.append(Case("nightcap", f"odds {n}{word}", nightcap_single(n, wp), nightcap_single(n, wp)))
        out.append(
            Case("nightcap", f"odds {n}{word} vs {n}", nightcap_contest(n, wp), nightcap_contest(n, wp))
        )
    return out


def cpu(fn: Call, repeat: int, *, cold: bool) -> float:
    """Median CPU seconds per call over ``repeat`` calls (caches cleared before each if ``cold``)."""
    samples = []
    for _ in range(max(repeat, 1)):
        if cold:
            clear_caches()
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def check(case: Case) -> None:
    """The two implementations agree on this very case (the benchmark times the same answer)."""
    if case.system != "nightcap":
        reference.assert_same(case.old(), case.new())


async def through_router(
    path: Path, texts: list[tuple[str, str]], repeat: int
) -> dict[tuple[str, str], tuple[float, float]]:
    """(system, command) -> (median wall seconds, median CPU seconds), caches cleared before each."""
    gateway = Gateway(
        Settings(vault={"url": f"sqlite+aiosqlite:///{path}"}), dice=SeededDice(1), platforms=()
    )
    await gateway.start()
    router = gateway.services.router
    assert router is not None
    st = Identity("console", "bench", "Bench")

    def message(system: str, text: str) -> InboundMessage:
        return InboundMessage(
            st, Channel("console", f"bench-{system}"), text, roles=frozenset({"storyteller"})
        )

    for system in sorted({system for system, _ in texts}):
        replies = await router.handle(message(system, f"system {system}"))
        assert replies[0].error is None, replies
    out: dict[tuple[str, str], tuple[float, float]] = {}
    for system, text in texts:
        await router.handle(message(system, text))  # warm the connection and the code paths
        walls, cpus = [], []
        for _ in range(repeat):
            clear_caches()
            start, start_cpu = time.perf_counter(), time.process_time()
            replies = await router.handle(message(system, text))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - start_cpu)
            assert replies[0].error is None, (text, replies)
        out[(system, text)] = (statistics.median(walls), statistics.median(cpus))
    await gateway.stop()
    return out


def simulation(pool: int, trials: int) -> float:
    dice = SeededDice(50)
    start = time.process_time()
    for _ in range(trials):
        nightcap_mechanics.contest(nightcap_mechanics.roll(pool, dice), nightcap_mechanics.roll(pool, dice))
    return time.process_time() - start


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.2f}"


def table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    for line in (header, ["-" * w for w in widths], *rows):
        print(
            "  ".join(
                cell.ljust(w) if i < 2 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pool", type=int, default=50, help="N in odds N and odds N vs N")
    parser.add_argument("--repeat", type=int, default=20, help="calls per figure for the new code")
    parser.add_argument("--old-repeat", type=int, default=3, help="calls per figure for the old code")
    parser.add_argument("--trials", type=int, default=100_000, help="contests in the Nightcap simulation")
    parser.add_argument("--system", help="only this system's cases")
    parser.add_argument("--no-router", action="store_true", help="pure figures only")
    args = parser.parse_args()
    configure_logging("json", "warning")

    chosen = [case for case in cases(args.pool) if args.system in (None, case.system)]
    routed: dict[tuple[str, str], tuple[float, float]] = {}
    if not args.no_router:
        texts = [(case.system, case.text) for case in chosen]
        texts += [
            (system, YARDSTICK.get(system, "roll 5")) for system in sorted({case.system for case in chosen})
        ]
        with tempfile.TemporaryDirectory() as tmp:
            routed = asyncio.run(through_router(Path(tmp) / "bench.db", texts, max(args.repeat // 2, 3)))
    rows = []
    for case in chosen:
        check(case)
        old_cold = cpu(case.old, args.old_repeat, cold=True)
        new_cold = cpu(case.new, args.repeat, cold=True)
        case.new()
        new_warm = cpu(case.new, args.repeat, cold=False)
        wall, router_cpu = routed.get((case.system, case.text), (None, None))
        rows.append(
            [
                case.system,
                case.text,
                ms(old_cold),
                ms(new_cold),
                ms(new_warm),
                f"{old_cold / new_cold:.0f}x",
                ms(wall),
                ms(router_cpu),
            ]
        )
    for (system, text), (wall, router_cpu) in routed.items():
        if text == YARDSTICK.get(system, "roll 5"):
            rows.append([system, text, "", "", "", "", ms(wall), ms(router_cpu)])
    header = [
        "system",
        "case",
        "old cold ms",
        "new cold ms",
        "new warm ms",
        "old/new",
        "router ms",
        "router CPU ms",
    ]
    table(header, rows)
    if args.system in (None, "nightcap") and args.trials:
        sim = simulation(args.pool, args.trials)
        exact = cpu(nightcap_contest(args.pool, False), args.repeat, cold=True)
        print(
            f"Nightcap: simulating {args.trials:,} contests of {args.pool} vs {args.pool} takes "
            f"{ms(sim)} ms CPU, {sim / exact:,.0f}x the exact odds cold"
        )


if __name__ == "__main__":
    main()
