"""Sloppy input, read kindly (pure): the long forms of roll words become their short ones, British
spellings become the sheet's, and a near miss gets a "did you mean" from ``difflib``.

Accepted (unambiguous): ``advantage`` → ``adv``, ``major advantage`` → ``madv``, ``take half`` →
``half``, ``socialise`` → ``socialize``. Suggested only (a typo may mean more than one thing):
``formidible`` → formidable, ``advantge`` → adv.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

# One word for another, compared casefolded.
LONG_FORMS = {
    "advantage": "adv",
    "advantaged": "adv",
    "disadvantage": "dis",
    "disadvantaged": "dis",
    "disadv": "dis",
    "majoradvantage": "madv",
    "major-advantage": "madv",
    "major_advantage": "madv",
    "majordisadvantage": "mdis",
    "major-disadvantage": "mdis",
    "major_disadvantage": "mdis",
    "takehalf": "half",
    "take-half": "half",
    "take_half": "half",
    "forced": "force",
}
# ``major`` and ``take`` join the word after them.
PAIRS = {
    ("major", "advantage"): "madv",
    ("major", "adv"): "madv",
    ("major", "disadvantage"): "mdis",
    ("major", "dis"): "mdis",
    ("take", "half"): "half",
}
# British spellings of the sheet's traits (the sheet and the book spell them the American way).
SPELLINGS = {"socialise": "socialize"}


def normalise(words: Sequence[str]) -> list[str]:
    """``words`` with long forms and pairs replaced by the short keywords; other words as typed."""
    out: list[str] = []
    i = 0
    while i < len(words):
        folded = words[i].casefold()
        if i + 1 < len(words) and (folded, words[i + 1].casefold()) in PAIRS:
            out.append(PAIRS[(folded, words[i + 1].casefold())])
            i += 2
            continue
        out.append(LONG_FORMS.get(folded, words[i]))
        i += 1
    return out


def spelling(word: str) -> str:
    """The sheet's spelling of a trait word (``socialise`` → ``socialize``)."""
    return SPELLINGS.get(word.casefold(), word)


def suggestion(word: str, options: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The one option closest to ``word`` when it is close enough, else None."""
    found = difflib.get_close_matches(word.casefold(), list(options), n=1, cutoff=cutoff)
    return found[0] if found else None
