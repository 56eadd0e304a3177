"""``stats``'s texts in English, Czech and Russian."""

from __future__ import annotations

from gateway.core.i18n import DECIMAL_COMMA, Catalogue

CATALOGUE = Catalogue(
    {
        "en": {
            "usage": "Write stats [me|NAME|channel] [--since 2h|today|2026-11-30] [--system NAME].",
            "system": "No rule system called {name}: installed are {names}.",
            "no_character": "No {system} character called {name}.",
            "not_yours": "{name} is not your character: players see the statistics of their own rolls only.",
            "channel_st": (
                "Only a Storyteller sees the whole chronicle's statistics; write stats me for your own."
            ),
            "not_linked": "Your rolls are not tied to a person yet: roll once, then ask again.",
            "scope.me": "your rolls",
            "scope.channel": "this channel's rolls",
            "scope.character": "{name}'s rolls",
            "since": " since {when}",
            "head": (
                "Dice statistics, {scope} ({system}){since}: {rolls_shown} {rolls:plural:roll:rolls}, "
                "{dice_shown} {dice:plural:die:dice}."
            ),
            "empty": "No {system} rolls to count, {scope}{since}.",
            "other": (
                " {n_shown} logged {n:plural:roll:rolls} of other kinds (initiative, damage, ...) "
                "{n:plural:is:are} not counted."
            ),
            "faces": "d{sides} faces (each expected {expected}): {counts}.",
            "results": "Results of {n_shown} {n:plural:roll:rolls} against their exact odds: {counts}.",
            "result": "{label} {observed} (expected {expected})",
            "fit": " Chi-square {statistic} on {df} {df:plural:degree:degrees} of freedom: p = {p}.",
            "fit.none": " Too few for a test yet.",
            "verdict.fair": (
                "Consistent with fair dice (smallest p, corrected for {tests} {tests:plural:test:tests}: "
                "{p})."
            ),
            "verdict.unusual": (
                "Unusual: fair dice stray this far about once in {once} tallies (corrected p = {p})."
            ),
            "verdict.impossible": (
                "Impossible for these dice: {n_shown} {n:plural:result or face:results or faces} that "
                "fair dice cannot give."
            ),
            "verdict.too_few": "Too few rolls to judge the dice yet.",
            "counting": (
                "Counting {scope} for the first time: {done} of about {all} so far; ask again in a minute."
            ),
        },
        "cs": {
            "usage": "Napište stats [me|JMÉNO|channel] [--since 2h|today|2026-11-30] [--system NÁZEV].",
            "system": "Systém pravidel {name} neexistuje: nainstalované jsou {names}.",
            "no_character": "Postava {name} v systému {system} neexistuje.",
            "not_yours": "{name} není vaše postava: hráči vidí statistiku jen svých vlastních hodů.",
            "channel_st": (
                "Statistiku celé kroniky vidí jen Vypravěč; svou vlastní zobrazíte příkazem stats me."
            ),
            "not_linked": "Vaše hody zatím nepatří žádné osobě: jednou hoďte a zeptejte se znovu.",
            "scope.me": "vaše hody",
            "scope.channel": "hody v tomto kanálu",
            "scope.character": "hody postavy {name}",
            "since": " od {when}",
            "head": (
                "Statistika kostek, {scope} ({system}){since}: {rolls_shown} "
                "{rolls:plural:hod:hody:hodů}, {dice_shown} {dice:plural:kostka:kostky:kostek}."
            ),
            "empty": "Žádné hody v systému {system} k započtení, {scope}{since}.",
            "other": (
                " {n_shown} {n:plural:zaznamenaný hod jiného druhu:zaznamenané hody jiného "
                "druhu:zaznamenaných hodů jiného druhu} (iniciativa, zranění…) {n:plural:se nepočítá:se "
                "nepočítají:se nepočítá}."
            ),
            "faces": "Stěny k{sides} (u každé se čeká {expected}): {counts}.",
            "results": (
                "Výsledky {n_shown} {n:plural:hodu:hodů:hodů} proti jejich přesné pravděpodobnosti: {counts}."
            ),
            "result": "{label} {observed} (čeká se {expected})",
            "fit": (
                " Chí-kvadrát {statistic} při {df} {df:plural:stupni:stupních:stupních} volnosti: p = {p}."
            ),
            "fit.none": " Na test je zatím málo dat.",
            "verdict.fair": (
                "Odpovídá poctivým kostkám (nejmenší p, opravené na {tests} "
                "{tests:plural:test:testy:testů}: {p})."
            ),
            "verdict.unusual": (
                "Neobvyklé: poctivé kostky se takto odchýlí asi jednou za {once} sčítání (opravené p = {p})."
            ),
            "verdict.impossible": (
                "U těchto kostek nemožné: {n_shown} {n:plural:výsledek nebo stěna:výsledky nebo "
                "stěny:výsledků nebo stěn}, které poctivé kostky dát nemohou."
            ),
            "verdict.too_few": "Na posouzení kostek je zatím málo hodů.",
            "counting": "Poprvé počítám {scope}: zatím {done} z asi {all}; zeptejte se znovu za minutu.",
        },
        "ru": {
            "usage": "Напишите stats [me|ИМЯ|channel] [--since 2h|today|2026-11-30] [--system НАЗВАНИЕ].",
            "system": "Системы правил {name} нет: установлены {names}.",
            "no_character": "Персонажа {name} в системе {system} нет.",
            "not_yours": "{name} — не ваш персонаж: игроки видят статистику только своих бросков.",
            "channel_st": "Статистику всей хроники видит только Рассказчик; свою покажет stats me.",
            "not_linked": "Ваши броски пока не привязаны к человеку: бросьте один раз и спросите снова.",
            "scope.me": "ваши броски",
            "scope.channel": "броски в этом канале",
            "scope.character": "броски персонажа {name}",
            "since": " с {when}",
            "head": (
                "Статистика кубиков, {scope} ({system}){since}: {rolls_shown} "
                "{rolls:plural:бросок:броска:бросков}, {dice_shown} {dice:plural:кубик:кубика:кубиков}."
            ),
            "empty": "Нет бросков системы {system} для подсчёта, {scope}{since}.",
            "other": (
                " {n_shown} {n:plural:записанный бросок другого рода:записанных броска другого "
                "рода:записанных бросков другого рода} (инициатива, урон…) не "
                "{n:plural:учитывается:учитываются:учитываются}."
            ),
            "faces": "Грани d{sides} (ожидается по {expected}): {counts}.",
            "results": (
                "Результаты {n_shown} {n:plural:броска:бросков:бросков} против точных вероятностей: {counts}."
            ),
            "result": "{label} {observed} (ожидается {expected})",
            "fit": " Хи-квадрат {statistic} при {df} {df:plural:степени:степенях:степенях} свободы: p = {p}.",
            "fit.none": " Для проверки пока мало данных.",
            "verdict.fair": (
                "Согласуется с честными кубиками (наименьшее p с поправкой на {tests} "
                "{tests:plural:проверку:проверки:проверок}: {p})."
            ),
            "verdict.unusual": (
                "Необычно: честные кубики отклоняются так примерно раз на {once} подсчётов (p с поправкой "
                "= {p})."
            ),
            "verdict.impossible": (
                "Для этих кубиков невозможно: {n_shown} {n:plural:результат или грань:результата или "
                "грани:результатов или граней}, которых честные кубики дать не могут."
            ),
            "verdict.too_few": "Пока слишком мало бросков, чтобы судить о кубиках.",
            "counting": "Впервые считаю {scope}: пока {done} из примерно {all}; спросите снова через минуту.",
        },
    }
)


def decimal(locale: str, value: float, digits: int = 2) -> str:
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if locale in DECIMAL_COMMA else text


def p_value(locale: str, p: float) -> str:
    """Two significant digits; very small values in scientific notation."""
    text = f"{p:.2g}" if p >= 0.001 else f"{p:.1e}"
    return text.replace(".", ",") if locale in DECIMAL_COMMA else text


def whole(locale: str, n: int) -> str:
    """``1,234`` in English, ``1 234`` (no-break space) in Czech and Russian."""
    text = f"{n:,}"
    return text.replace(",", "\u00a0") if locale in DECIMAL_COMMA else text
