"""Russian and transliterated input for Night Wanderers' commands (pure): the option words of each
command in Russian (``feed 1 корова``, ``sun прямой``, ``hunt деловая часть``) mapped to the
canonical words the handlers read, before a handler sees them, and the Latin spellings of the
book's Russian names (``soblazn``, ``ubezhdenie``). Words compare case-folded, with ё read as е.

Only the words a command takes as options are rewritten; everything else (a character's name, a
pool) passes unchanged, so a handler reads exactly what it would have read in English.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

# Two common ways of writing Russian in Latin letters: the passport-like one (х kh, й y, ю yu)
# and the older, shorter one (х h, й j, ю ju). Letters missing here (ь, ъ) are dropped.
_COMMON = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s",
    "т": "t", "у": "u", "ф": "f", "ч": "ch", "ш": "sh", "щ": "sch", "ы": "y", "э": "e",
}  # fmt: skip
SCHEMES: tuple[Mapping[str, str], ...] = (
    {**_COMMON, "х": "kh", "ц": "ts", "й": "y", "ю": "yu", "я": "ya", "щ": "shch"},
    {**_COMMON, "х": "h", "ц": "c", "й": "j", "ю": "ju", "я": "ja"},
)


def fold(word: str) -> str:
    """Case-folded, ё read as е, composed (so й stays one letter)."""
    return unicodedata.normalize("NFC", word.casefold()).replace("ё", "е")


def transliterations(text: str) -> tuple[str, ...]:
    """``text`` in Latin letters, one spelling per scheme of ``SCHEMES`` (``Соблазн`` -> ``soblazn``);
    Latin letters, digits and punctuation stay as they are."""
    folded = fold(text)
    return tuple("".join(scheme.get(ch, ch if ch.isascii() else "") for ch in folded) for scheme in SCHEMES)


# --- option words per command -------------------------------------------------------------------

# command -> Russian phrase -> the canonical word. A phrase is one or more words.
_OPTIONS: dict[str, dict[str, str]] = {
    "feed": {
        "человек": "human", "человека": "human", "смертный": "human", "смертного": "human",
        "корова": "cow", "корову": "cow", "коровы": "cow",
        "собака": "dog", "собаку": "dog", "собаки": "dog",
        "кошка": "cat", "кошку": "cat", "кошки": "cat",
    },
    "sun": {
        "прямой": "direct", "прямая": "direct", "прямое": "direct", "прямо": "direct",
        "непрямой": "indirect", "непрямая": "indirect", "непрямое": "indirect", "непрямо": "indirect",
    },
    "fire": {
        "небольшой": "small", "малый": "small", "маленький": "small", "слабый": "small",
        "большой": "large", "сильный": "large", "интенсивный": "large",
        "внезапно": "surprise", "неожиданно": "surprise", "неожиданный": "surprise", "ожог": "surprise",
    },
    "attack": {
        "когти": "claws", "когтями": "claws", "оружие": "weapon", "оружием": "weapon",
        "клыки": "fangs", "клыками": "fangs", "укус": "fangs",
        "увертка": "dodge", "уворачивается": "dodge", "уклонение": "dodge", "уклоняется": "dodge",
        "увертывается": "dodge", "вампир": "vampire", "стойкость": "fortitude",
    },
    "shoot": {
        "дальняя": "long", "дальний": "long", "дальнее": "long", "далеко": "long",
        "средняя": "medium", "средний": "medium", "среднее": "medium",
        "в упор": "point", "упор": "point",
        "стрела": "arrow", "стрелы": "arrow", "стрелой": "arrow", "лук": "arrow", "из лука": "arrow",
        "метательное": "thrown", "метательный": "thrown", "снаряд": "thrown", "бросок": "thrown",
        "увертка": "dodge", "уворачивается": "dodge", "уклонение": "dodge", "уклоняется": "dodge",
        "увертывается": "dodge", "вампир": "vampire", "стойкость": "fortitude",
    },
    "hunt": {
        "кормушка": "feeding", "бар": "feeding", "бары": "feeding", "ночной клуб": "feeding",
        "клуб": "feeding", "театр": "feeding",
        "деловая часть города": "business", "деловая часть": "business", "деловой район": "business",
        "деловые районы": "business", "богемные кварталы": "business", "богемный квартал": "business",
        "деловая": "business",
        "жилые кварталы": "residential", "жилой квартал": "residential", "жилые": "residential",
        "трущобы": "slums", "пригороды": "suburbs", "пригород": "suburbs", "деревня": "countryside",
        "дикая местность": "wilderness", "дикая": "wilderness",
    },
    "damage": {"глубокий": "deep", "глубокие": "deep", "глубоких": "deep", "глубоко": "deep"},
    "frenzy": {"кровь": "blood", "крови": "blood"},
    "discipline": {
        "начальная": "basic", "начальный": "basic", "продвинутая": "advanced", "продвинутый": "advanced",
    },
    "roll": {"против": "vs", "тайно": "secret", "секретно": "secret"},
    "odds": {"против": "vs"},
    "sneak": {"против": "vs"},
    "pursue": {"против": "vs"},
    "tug start": {"против": "vs"},
}  # fmt: skip
# command -> Russian word -> the canonical option, only when a number follows (``сила 3`` is
# ``str 3`` in an NPC's attack, but ``сила`` alone may be a name).
_NUMBERED: dict[str, dict[str, str]] = {
    "attack": {"пул": "pool", "сила": "str", "защита": "def", "поглощение": "soak"},
    "shoot": {"пул": "pool", "защита": "def", "поглощение": "soak"},
    "roll": {"трудность": "diff", "тр": "diff", "сложность": "diff", "нужно": "need"},
    "odds": {"трудность": "diff", "тр": "diff", "сложность": "diff", "нужно": "need"},
    "tug start": {"трудность": "diff", "тр": "diff", "сложность": "diff"},
}  # fmt: skip


def _phrases(table: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    """Each phrase as folded words, with its Latin spellings too."""
    found: dict[tuple[str, ...], str] = {}
    for phrase, canonical in table.items():
        words = tuple(fold(w) for w in phrase.split())
        found[words] = canonical
        for spelling in zip(*(transliterations(w) for w in words), strict=True):
            found.setdefault(spelling, canonical)
    return found


OPTIONS = {command: _phrases(table) for command, table in _OPTIONS.items()}
NUMBERED = {command: _phrases(table) for command, table in _NUMBERED.items()}
LONGEST = max(len(words) for table in OPTIONS.values() for words in table)


def _is_number(word: str) -> bool:
    return word.lstrip("+-").isdigit()


def translate(command: str, words: Sequence[str]) -> tuple[str, ...]:
    """``words`` with the command's Russian (or transliterated) option phrases replaced by the
    canonical word, the longest phrase first; other words are kept as they were typed."""
    options, numbered = OPTIONS.get(command, {}), NUMBERED.get(command, {})
    if not options and not numbered:
        return tuple(words)
    folded = [fold(w) for w in words]
    out: list[str] = []
    i = 0
    while i < len(words):
        for size in range(min(LONGEST, len(words) - i), 0, -1):
            phrase = tuple(folded[i : i + size])
            if phrase in options:
                out.append(options[phrase])
                i += size
                break
        else:
            word = (folded[i],)
            if word in numbered and i + 1 < len(words) and _is_number(words[i + 1]):
                out.append(numbered[word])
            else:
                out.append(words[i])
            i += 1
    return tuple(out)


# --- st set's fields and values in Russian ------------------------------------------------------

_FIELDS = {
    "здоровье": "hp", "кровь": "blood", "запаскрови": "blood", "вид": "kind", "клан": "clan",
    "гуманность": "humanity", "быстрота": "celerity", "инстинкт": "hunting",
    "охотничийинстинкт": "hunting", "стойкость": "fortitude", "безумие": "frenzy",
    "усиление": "boost", "смерть": "dead", "могущество": "potence", "опыт": "xp",
    "максимумздоровья": "hpmax", "максздоровья": "hpmax", "максимумкрови": "bloodmax",
    "максимумзапасакрови": "bloodmax", "макскрови": "bloodmax",
}  # fmt: skip
_KINDS = {"вампир": "vampire", "человек": "human", "оборотень": "werewolf"}


def _spelled(table: Mapping[str, str]) -> dict[str, str]:
    found = dict(table)
    for word, canonical in table.items():
        for spelling in transliterations(word):
            found.setdefault(spelling, canonical)
    return found


FIELDS = _spelled(_FIELDS)
KINDS = _spelled(_KINDS)


def field_of(word: str) -> str:
    """``st set``'s field word, canonical (``гуманность`` -> ``humanity``); other words folded."""
    folded = fold(word).replace(".", "").replace(" ", "")
    return FIELDS.get(folded, folded)


def kind_of(word: str) -> str:
    folded = fold(word)
    return KINDS.get(folded, folded)
