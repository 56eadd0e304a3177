"""Benchmark: microseconds per ``RuleSystem.summary`` of each built-in system, derived from its
declared sheet (``gateway.core.sheet_spec``). The summary is drawn for every Second Life HUD refresh and
every Discord sheet embed, so it must stay quick; a typical filled sheet of each system is used.

Run: ``.venv/bin/python -m tests.bench.sheet_summary [--number N] [--repeat R]``; the best of R
runs of N summaries is reported (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import timeit
from functools import partial
from typing import Any

from gateway.vault.models import Character
from plugins.decanter import DECANTER
from plugins.dramatic import DRAMATIC
from plugins.nightcap import NIGHTCAP
from plugins.nightcap.sheet import new_sheet
from plugins.nightwanderers import NIGHT_WANDERERS
from plugins.nightwanderers.sheet import WandererSheet
from plugins.pravidla import PRAVIDLA
from plugins.pravidla.sheet import PravidlaSheet


def samples() -> list[tuple[Any, dict[str, Any], dict[str, tuple[int, int]], str]]:
    nightcap = new_sheet()
    nightcap["fields"]["origin"] = "Mage"
    nightcap["powers"] = [{"name": "Veil", "tier": "adept", "trait": "spirit"}]
    dots = {"skills": {"brawl": 2, "occult": 3}, "specialties": ["Brawl (dirty)"], "notes": "Owes a boon"}
    return [
        (NIGHTCAP, nightcap, {"willpower": (4, 5), "essence": (9, 10), "damage": (1, 10)}, "en"),
        (DECANTER, dots, {"story_points": (2, 10)}, "en"),
        (DRAMATIC, {"abilities": {"alertness": 2}}, {"willpower": (3, 6)}, "en"),
        (PRAVIDLA, PravidlaSheet.new(2).dump() | {"celerity": 1, "hunting": True}, {}, "cs"),
        (
            NIGHT_WANDERERS,
            WandererSheet.new(2, "vampire", "lesang").dump(),
            {"hp": (5, 5), "blood": (3, 10)},
            "ru",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for system, sheet, pools, locale in samples():
        character = Character(owner_id=1, system=system.name, name="Mira", name_key="mira", sheet=sheet)
        assert system.summary(character, pools, locale) is not None
        summarise = partial(system.summary, character, pools, locale)
        best = min(timeit.repeat(summarise, number=args.number, repeat=args.repeat))
        print(f"{system.name:15} {best / args.number * 1e6:7.1f} us per summary")


if __name__ == "__main__":
    main()
