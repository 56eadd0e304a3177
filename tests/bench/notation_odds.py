"""How long exact notation odds take, each in a fresh process's warm parser: the issue's examples
must answer in under 200 ms or be refused as too large (``gateway.features.notation.odds.BUDGET_*``).

    .venv/bin/python -m tests.bench.notation_odds
"""

from __future__ import annotations

import time

from gateway.features.notation.odds import odds
from gateway.features.notation.parse import NotationError, warm

EXPRESSIONS = [
    "10d10!", "20d6kh3", "2d6+3", "4d6kh3", "6d10>=7f1", "3d6!", "2d10!", "5d10!>=9", "4d10>=8!",
    "100d6", "300d6", "1000d6", "100d100", "1000d10000", "100d20kh50", "4d6rr2", "10d10>=7",
]  # fmt: skip


def main() -> None:
    warm()
    for text in EXPRESSIONS:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            try:
                found = odds(text)
                answer = f"{len(found.totals)} totals"
            except NotationError as error:
                answer = error.key
            best = min(best, time.perf_counter() - started)
        print(f"{text:12} {best * 1000:8.1f} ms  {answer}")


if __name__ == "__main__":
    main()
