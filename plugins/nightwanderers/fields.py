"""The fields ``st set`` edits on a Night Wanderers sheet besides the traits, and the words their values
take (pure)."""

from __future__ import annotations

import re

from gateway.rules.switch_words import levels, yes_no

YES, NO = yes_no("да", "нет")
LEVELS = levels("нет", "начальная", "продвинутая")
FLAGS = {
    "hunting": "hunting",
    "instinct": "hunting",
    "fortitude": "fortitude",
    "frenzy": "frenzy",
    "dead": "dead",
}
NUMBERS = {"humanity": (0, 10), "boost": (0, 50), "xp": (0, 100_000)}
POOLS = {
    "hp": ("hp", "current"),
    "hpmax": ("hp", "maximum"),
    "blood": ("blood", "current"),
    "bloodmax": ("blood", "maximum"),
}
# Every field st set knows besides the traits; each has a catalogue label ``field.NAME``.
# (``potence`` and ``xp`` are nw-mech's Могущество and experience.)
FIELDS = (
    *POOLS,
    "kind",
    "clan",
    *NUMBERS,
    "celerity",
    "hunting",
    "fortitude",
    "frenzy",
    "dead",
    "potence",
    "xp",
)
# What set_field hands bad_value, said in the reader's words.
ALLOWED = {"yes / no": "allowed.yes_no", "0 / 1 / 2": "allowed.levels"}
MAX_POOL = 1000  # the largest Health or blood maximum st set takes
RANGE = re.compile(r"(-?\d+)(?:-|\.\.)(-?\d+)")
