"""The chart an ``odds`` reply carries (``gateway.rules.charts``): the picture Discord and Matrix show,
with the web roller's rows and words (``/tools/roller``), in the reader's language."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gateway.core.i18n import Catalogue
from gateway.rules.charts import chart_result
from plugins.nightcap.mechanics import DEGREES

WORDS = Catalogue(
    {
        "en": {
            "title": "Nightcap odds",
            "count": "{n} {n:plural:die:dice}",
            "chance": "a chance die",
            "degrees": "Your odds of each degree ({dice})",
            "their_degrees": "Their odds of each degree ({dice})",
            "contest": "The contest: who wins, and by how much",
            "degree.botch": "Botch",
            "degree.failure": "Failure",
            "degree.marginal": "Marginal",
            "degree.solid": "Solid",
            "degree.strong": "Strong",
            "degree.overwhelming": "Overwhelming",
            "contest.left.narrow": "You win, narrow (1)",
            "contest.left.clear": "You win, clear (2–3)",
            "contest.left.decisive": "You win, decisive (4+)",
            "contest.deadlock": "Deadlock (0)",
            "contest.right.narrow": "They win, narrow (1)",
            "contest.right.clear": "They win, clear (2–3)",
            "contest.right.decisive": "They win, decisive (4+)",
            "contest.both_botch": "Both botch",
            # the web's practice table (its contest line) and budget calculator (traits, tiers)
            "trait.physical": "Physical",
            "trait.mental": "Mental",
            "trait.social": "Social",
            "trait.spirit": "Spirit",
            "tier.basic": "Basic",
            "tier.adept": "Adept",
            "tier.advanced": "Advanced",
            "tier.epic": "Epic",
            "tier.legendary": "Legendary",
            "outcome.left": "You win by {margin} ({band})",
            "outcome.right": "They win by {margin} ({band})",
            "outcome.deadlock": "Deadlock",
            "outcome.both_botch": "Both botch",
            "band.narrow": "narrow",
            "band.clear": "clear",
            "band.decisive": "decisive",
        },
        "cs": {
            "title": "Šance v Nightcapu",
            "count": "{n} {n:plural:kostka:kostky:kostek}",
            "chance": "kostka štěstí",
            "degrees": "Vaše šance na každý stupeň ({dice})",
            "their_degrees": "Šance protivníka na každý stupeň ({dice})",
            "contest": "Souboj: kdo vyhraje a o kolik",
            "degree.botch": "Fiasko",
            "degree.failure": "Neúspěch",
            "degree.marginal": "Těsný úspěch",
            "degree.solid": "Solidní úspěch",
            "degree.strong": "Silný úspěch",
            "degree.overwhelming": "Drtivý úspěch",
            "contest.left.narrow": "Vyhráváte těsně (1)",
            "contest.left.clear": "Vyhráváte jasně (2–3)",
            "contest.left.decisive": "Vyhráváte rozhodně (4+)",
            "contest.deadlock": "Pat (0)",
            "contest.right.narrow": "Protivník vyhrává těsně (1)",
            "contest.right.clear": "Protivník vyhrává jasně (2–3)",
            "contest.right.decisive": "Protivník vyhrává rozhodně (4+)",
            "contest.both_botch": "Fiasko obou",
            # the web's practice table (its contest line) and budget calculator (traits, tiers)
            "trait.physical": "Tělesná",
            "trait.mental": "Duševní",
            "trait.social": "Společenská",
            "trait.spirit": "Duchovní",
            "tier.basic": "Základní",
            "tier.adept": "Zkušená",
            "tier.advanced": "Pokročilá",
            "tier.epic": "Epická",
            "tier.legendary": "Legendární",
            "outcome.left": "Vyhráváte o {margin} ({band})",
            "outcome.right": "Protivník vyhrává o {margin} ({band})",
            "outcome.deadlock": "Pat",
            "outcome.both_botch": "Fiasko obou",
            "band.narrow": "těsně",
            "band.clear": "jasně",
            "band.decisive": "rozhodně",
        },
        "ru": {
            "title": "Шансы Nightcap",
            "count": "{n} {n:plural:кубик:кубика:кубиков}",
            "chance": "кубик шанса",
            "degrees": "Ваши шансы на каждую степень ({dice})",
            "their_degrees": "Шансы противника на каждую степень ({dice})",
            "contest": "Состязание: кто победит и с каким перевесом",
            "degree.botch": "Катастрофа",
            "degree.failure": "Неудача",
            "degree.marginal": "Минимальный успех",
            "degree.solid": "Уверенный успех",
            "degree.strong": "Сильный успех",
            "degree.overwhelming": "Подавляющий успех",
            "contest.left.narrow": "Вы побеждаете с трудом (1)",
            "contest.left.clear": "Вы побеждаете уверенно (2–3)",
            "contest.left.decisive": "Вы побеждаете решительно (4+)",
            "contest.deadlock": "Ничья (0)",
            "contest.right.narrow": "Противник побеждает с трудом (1)",
            "contest.right.clear": "Противник побеждает уверенно (2–3)",
            "contest.right.decisive": "Противник побеждает решительно (4+)",
            "contest.both_botch": "Катастрофа у обоих",
            # the web's practice table (its contest line) and budget calculator (traits, tiers)
            "trait.physical": "Физическая",
            "trait.mental": "Ментальная",
            "trait.social": "Социальная",
            "trait.spirit": "Духовная",
            "tier.basic": "Базовая",
            "tier.adept": "Умелая",
            "tier.advanced": "Продвинутая",
            "tier.epic": "Эпическая",
            "tier.legendary": "Легендарная",
            "outcome.left": "Вы побеждаете с перевесом {margin} ({band})",
            "outcome.right": "Противник побеждает с перевесом {margin} ({band})",
            "outcome.deadlock": "Ничья",
            "outcome.both_botch": "Катастрофа у обоих",
            "band.narrow": "с трудом",
            "band.clear": "уверенно",
            "band.decisive": "решительно",
        },
    }
)
CONTEST_ROWS = (
    ("left", "decisive"),
    ("left", "clear"),
    ("left", "narrow"),
    ("deadlock", None),
    ("right", "narrow"),
    ("right", "clear"),
    ("right", "decisive"),
    ("both_botch", None),
)


def _dice(locale: str, pool: int, chance_die: bool) -> str:
    return WORDS.t(locale, "chance") if chance_die else WORDS.t(locale, "count", n=pool)


def _degrees(locale: str, degrees: dict[str, Fraction]) -> list[tuple[str, Fraction]]:
    return [(WORDS.t(locale, f"degree.{name}"), degrees[name]) for name in DEGREES if name in degrees]


def single_chart(locale: str, pool: int, chance_die: bool, degrees: dict[str, Fraction]) -> dict[str, Any]:
    title = WORDS.t(locale, "degrees", dice=_dice(locale, pool, chance_die))
    return chart_result(WORDS.t(locale, "title"), [(title, _degrees(locale, degrees))])


def contest_chart(
    locale: str,
    sides: tuple[tuple[int, bool, dict[str, Fraction]], tuple[int, bool, dict[str, Fraction]]],
    outcomes: dict[str, Fraction],
    margins: dict[str, dict[str, Fraction]],
) -> dict[str, Any]:
    (pool, chance, mine), (their_pool, their_chance, theirs) = sides
    rows = []
    for side, band in CONTEST_ROWS:
        p = outcomes[side] if band is None else margins[side][band]
        rows.append((WORDS.t(locale, f"contest.{side}" if band is None else f"contest.{side}.{band}"), p))
    return chart_result(
        WORDS.t(locale, "title"),
        [
            (WORDS.t(locale, "degrees", dice=_dice(locale, pool, chance)), _degrees(locale, mine)),
            (WORDS.t(locale, "contest"), rows),
            (
                WORDS.t(locale, "their_degrees", dice=_dice(locale, their_pool, their_chance)),
                _degrees(locale, theirs),
            ),
        ],
    )
