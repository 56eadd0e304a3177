"""What notation rolls and odds say, in English, Czech and Russian (the reader's language)."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

CATALOGUE = Catalogue(
    {
        "en": {
            "roll": "{who} rolls {expression}: {detail}",
            "roll.repeat": "{who} rolls {expression}: {detail}",
            "successes": "{n} {n:plural:success:successes}",
            "summary.dice": "{n} {n:plural:die:dice}: {value}",
            "summary.sets": "{n} results, sum {sum}, lowest {low}, highest {high}",
            "odds": "Odds of {expression}{each}: mean {mean}; exactly: {exact}; at least: {at_least}",
            "odds.short": "Odds of {expression}{each}: mean {mean}; exactly: {exact}",
            "odds.summary": (
                "Odds of {expression}{each}: {what} {low}–{high}, mean {mean}; most likely {mode} ({p});"
                " at least: {at_least}"
            ),
            "odds.each": " (each of the {n} results)",
            "odds.totals": "totals",
            "odds.successes": "successes",
            "chart.title": "Odds of {expression}",
            "chart.exact": "Chance of exactly this",
            "chart.at_least": "Chance of at least this",
            "chart.or_less": "{n} or less",
            "chart.or_more": "{n} or more",
            "usage": "Write dice notation, such as roll 2d6+3, roll 4d6kh3, roll 6d10>=7f1 or roll d20 adv.",
            "unreadable": "I cannot read '{text}' as dice notation; write it like 2d6+3, 4d6kh3 or 6d10>=7.",
            "unexpected": (
                "I cannot read '{text}' as dice notation at '{near}'; write it like 2d6+3, 4d6kh3 or 6d10>=7."
            ),
            "empty": "Say which dice to roll, such as 2d6+3.",
            "incomplete": "'{text}' ends too soon: a bracket, a number or dice are missing (2d6+3).",
            "too_long": "That expression is {length} characters long; the limit is {limit}.",
            "too_big": "A number in that expression is over the limit of {limit}.",
            "no_dice": "{term} rolls no dice: roll at least one (1d6).",
            "no_sides": "{term} has dice with no sides: a die needs at least one (d6).",
            "too_many_dice": "That roll has more than {limit} dice, the limit per roll.",
            "too_many_sides": "That roll has a die of more than {limit} sides, the limit per die.",
            "twice": "{term} has the {modifier} kind of modifier twice; give each kind once.",
            "fate_modifier": "{term}: Fate dice take no modifiers.",
            "drop_all": "{term} drops {n} of {count} dice, which leaves none.",
            "keep_more": "{term} keeps {n} of {count} dice: keep from 1 to {count}.",
            "failure_alone": (
                "{term}: f counts failures against successes; give the successes first (6d10>=7f1)."
            ),
            "no_face": "{term}: no face of the die matches {condition}.",
            "every_face.explode": "{term}: every face would explode, forever; explode on fewer faces.",
            "every_face.reroll": "{term}: every face would be rerolled, forever; reroll fewer faces.",
            "vantage": "{word} goes with a single die, such as d20 {word} or d20+5 {word}.",
            "repeat": "Repeat a roll from 1 to {limit} times (6x 4d6kh3).",
            "no_term": "'{text}' has no dice in it; write dice such as 2d6+3.",
            "divide_by_zero": "That roll divides by zero.",
            "odds_divide_by_zero": "That expression can divide by zero, so it has no odds.",
            "odds_too_large": (
                "That expression is too large to work out exactly here; try fewer dice or fewer sides."
            ),
            "odds_keep_explode": (
                "Odds of keeping or dropping exploding dice are not worked out; ask without one of them."
            ),
            "odds_keep_success": (
                "Odds of counting successes on kept dice are not worked out; ask without keep or drop."
            ),
        },
        "cs": {
            "roll": "{who} hází {expression}: {detail}",
            "roll.repeat": "{who} hází {expression}: {detail}",
            "successes": "{n} {n:plural:úspěch:úspěchy:úspěchů}",
            "summary.dice": "{n} {n:plural:kostka:kostky:kostek}: {value}",
            "summary.sets": (
                "{n} {n:plural:výsledek:výsledky:výsledků}, součet {sum}, nejméně {low}, nejvíc {high}"
            ),
            "odds": "Šance pro {expression}{each}: průměr {mean}; přesně: {exact}; aspoň: {at_least}",
            "odds.short": "Šance pro {expression}{each}: průměr {mean}; přesně: {exact}",
            "odds.summary": (
                "Šance pro {expression}{each}: {what} {low}–{high}, průměr {mean}; nejčastěji {mode} ({p});"
                " aspoň: {at_least}"
            ),
            "odds.each": " (každý z {n} výsledků)",
            "odds.totals": "součty",
            "odds.successes": "úspěchy",
            "chart.title": "Šance pro {expression}",
            "chart.exact": "Šance na přesně tolik",
            "chart.at_least": "Šance na aspoň tolik",
            "chart.or_less": "{n} a méně",
            "chart.or_more": "{n} a více",
            "usage": (
                "Napište hod v kostkové notaci, třeba roll 2d6+3, roll "
                "4d6kh3, roll 6d10>=7f1 nebo roll d20 adv."
            ),
            "unreadable": (
                "„{text}“ neumím přečíst jako kostkovou notaci; pište třeba 2d6+3, 4d6kh3 nebo 6d10>=7."
            ),
            "unexpected": (
                "„{text}“ neumím přečíst jako kostkovou notaci u „{near}“; "
                "pište třeba 2d6+3, 4d6kh3 nebo 6d10>=7."
            ),
            "empty": "Napište, jakými kostkami házet, třeba 2d6+3.",
            "incomplete": "„{text}“ končí příliš brzy: chybí závorka, číslo nebo kostky; pište třeba 2d6+3.",
            "too_long": "Ten výraz má {length} znaků; nejvíc jich smí mít {limit}.",
            "too_big": "Číslo v tom výrazu je větší než povolených {limit}.",
            "no_dice": "{term} nehází žádnou kostkou: hoďte aspoň jednou kostkou (1d6).",
            "no_sides": "{term} má kostky bez stěn: kostka potřebuje aspoň jednu stěnu (d6).",
            "too_many_dice": "Ten hod má víc kostek než povolených {limit} na jeden hod.",
            "too_many_sides": "Ten hod má kostku s víc stěnami než povolených {limit}.",
            "twice": "{term} má modifikátor druhu {modifier} dvakrát; každý druh uveďte jen jednou.",
            "fate_modifier": "{term}: kostky Fate nemají modifikátory.",
            "drop_all": "{term} zahazuje {n} z {count} kostek, takže žádná nezbude.",
            "keep_more": "{term} ponechává {n} z {count} kostek: ponechte 1 až {count}.",
            "failure_alone": "{term}: f odečítá neúspěchy od úspěchů; nejdřív uveďte úspěchy (6d10>=7f1).",
            "no_face": "{term}: žádná stěna kostky nesplňuje {condition}.",
            "every_face.explode": "{term}: vybuchovala by každá stěna, donekonečna; ať vybuchuje méně stěn.",
            "every_face.reroll": "{term}: přehazovala by se každá stěna, donekonečna; přehazujte méně stěn.",
            "vantage": "{word} patří k jedné kostce, třeba d20 {word} nebo d20+5 {word}.",
            "repeat": "Hod opakujte 1 až {limit}krát (6x 4d6kh3).",
            "no_term": "V „{text}“ nejsou žádné kostky; pište třeba 2d6+3.",
            "divide_by_zero": "Ten hod dělí nulou.",
            "odds_divide_by_zero": "Ten výraz může dělit nulou, takže nemá šance.",
            "odds_too_large": (
                "Ten výraz je na přesný výpočet tady příliš velký; zkuste méně kostek nebo stěn."
            ),
            "odds_keep_explode": (
                "Šance při ponechání či zahození vybuchujících kostek nepočítám; vynechte jedno z toho."
            ),
            "odds_keep_success": (
                "Šance při počítání úspěchů jen na ponechaných kostkách "
                "nepočítám; vynechte ponechání či zahození."
            ),
        },
        "ru": {
            "roll": "{who} бросает {expression}: {detail}",
            "roll.repeat": "{who} бросает {expression}: {detail}",
            "successes": "{n} {n:plural:успех:успеха:успехов}",
            "summary.dice": "{n} {n:plural:кубик:кубика:кубиков}: {value}",
            "summary.sets": (
                "{n} {n:plural:результат:результата:результатов}, сумма "
                "{sum}, меньше всего {low}, больше всего {high}"
            ),
            "odds": "Шансы для {expression}{each}: среднее {mean}; ровно: {exact}; не меньше: {at_least}",
            "odds.short": "Шансы для {expression}{each}: среднее {mean}; ровно: {exact}",
            "odds.summary": (
                "Шансы для {expression}{each}: {what} {low}–{high}, среднее {mean}; чаще всего {mode} ({p});"
                " не меньше: {at_least}"
            ),
            "odds.each": " (каждый из {n} результатов)",
            "odds.totals": "суммы",
            "odds.successes": "успехи",
            "chart.title": "Шансы для {expression}",
            "chart.exact": "Шанс ровно на столько",
            "chart.at_least": "Шанс не меньше чем на столько",
            "chart.or_less": "{n} и меньше",
            "chart.or_more": "{n} и больше",
            "usage": (
                "Напишите бросок в нотации кубиков, например roll 2d6+3, roll "
                "4d6kh3, roll 6d10>=7f1 или roll d20 adv."
            ),
            "unreadable": (
                "Не могу прочитать «{text}» как нотацию кубиков; пишите, например, 2d6+3, 4d6kh3 или 6d10>=7."
            ),
            "unexpected": (
                "Не могу прочитать «{text}» как нотацию кубиков у «{near}»; "
                "пишите, например, 2d6+3, 4d6kh3 или 6d10>=7."
            ),
            "empty": "Напишите, какие кубики бросить, например 2d6+3.",
            "incomplete": "«{text}» обрывается: не хватает скобки, числа или кубиков (2d6+3).",
            "too_long": (
                "В этом выражении {length} {length:plural:знак:знака:знаков}; можно не больше {limit}."
            ),
            "too_big": "Число в этом выражении больше допустимых {limit}.",
            "no_dice": "{term} не бросает ни одного кубика: бросьте хотя бы один (1d6).",
            "no_sides": "В {term} кубики без граней: у кубика должна быть хотя бы одна грань (d6).",
            "too_many_dice": "В этом броске больше {limit} кубиков — это предел для одного броска.",
            "too_many_sides": "В этом броске есть кубик больше чем с {limit} гранями, а это предел.",
            "twice": "В {term} модификатор вида {modifier} указан дважды; каждый вид указывайте один раз.",
            "fate_modifier": "{term}: к кубикам Fate модификаторы не применяются.",
            "drop_all": "{term} отбрасывает {n} из {count} кубиков, и не остаётся ни одного.",
            "keep_more": "{term} оставляет {n} из {count} кубиков: оставьте от 1 до {count}.",
            "failure_alone": "{term}: f вычитает провалы из успехов; сначала укажите успехи (6d10>=7f1).",
            "no_face": "{term}: ни одна грань кубика не подходит под условие {condition}.",
            "every_face.explode": (
                "{term}: взрывалась бы каждая грань, без конца; пусть взрывается меньше граней."
            ),
            "every_face.reroll": (
                "{term}: перебрасывалась бы каждая грань, без конца; перебрасывайте меньше граней."
            ),
            "vantage": "{word} ставится к одному кубику, например d20 {word} или d20+5 {word}.",
            "repeat": "Повторить бросок можно от 1 до {limit} раз (6x 4d6kh3).",
            "no_term": "В «{text}» нет кубиков; пишите, например, 2d6+3.",
            "divide_by_zero": "В этом броске деление на ноль.",
            "odds_divide_by_zero": "Это выражение может делить на ноль, поэтому шансов у него нет.",
            "odds_too_large": (
                "Это выражение слишком велико, чтобы точно посчитать его "
                "здесь; попробуйте меньше кубиков или граней."
            ),
            "odds_keep_explode": (
                "Шансы, когда взрывающиеся кубики оставляют или "
                "отбрасывают, не считаются; уберите одно из двух."
            ),
            "odds_keep_success": (
                "Шансы успехов только на оставленных кубиках не считаются; "
                "уберите «оставить» или «отбросить»."
            ),
        },
    }
)


def t(locale: str, key: str, /, **params: object) -> str:
    return CATALOGUE.t(locale, key, **params)
