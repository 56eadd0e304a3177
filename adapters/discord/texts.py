"""The Discord adapter's own words (button labels, embed labels, its few replies) in en, cs and ru;
``reader.py`` picks whose language they are in."""

from __future__ import annotations

from typing import Any

from gateway.core.i18n import Catalogue

TEXTS = Catalogue(
    {
        "en": {
            "button.roll_again": "Roll again",
            "button.odds": "Odds",
            "button.defend": "Defend: {trait}",
            "button.concede": "Concede",
            "embed.dice": "Dice",
            "embed.total": "Total",
            "embed.degree": "Degree",
            "embed.margin": "Margin",
            "embed.secret_roll": "Secret roll",
            "embed.roller": "Roller",
            "embed.opposition": "Opposition",
            "embed.vs": "vs",
            "embed.pool": "{n} {n:plural:die:dice}",
            "embed.chance_die": "chance die",
            "embed.roll": "roll",
            "button.unknown": "This button is no longer known here; type the command instead.",
            "option.before": "Fill in {first} too: {later} cannot be given without it.",
            "interrupted": "The gateway stopped before this command finished; nothing was saved."
            " Try it again.",
            "dm.closed": "{name}: I cannot send you a direct message, so your private answer was not sent."
            " Allow direct messages from this server's members (the server's Privacy Settings)"
            " and try again.",
        },
        "cs": {
            "button.roll_again": "Hodit znovu",
            "button.odds": "Šance",
            "button.defend": "Bránit: {trait}",
            "button.concede": "Vzdát se",
            "embed.dice": "Kostky",
            "embed.total": "Celkem",
            "embed.degree": "Stupeň",
            "embed.margin": "Rozdíl",
            "embed.secret_roll": "Tajný hod",
            "embed.roller": "Házející",
            "embed.opposition": "Protivník",
            "embed.vs": "proti",
            "embed.pool": "{n} {n:plural:kostka:kostky:kostek}",
            "embed.chance_die": "kostka štěstí",
            "embed.roll": "hod",
            "button.unknown": "Toto tlačítko už tu neznáme; napište příkaz.",
            "option.before": "Vyplňte také parametr „{first}“: bez něj nelze zadat „{later}“.",
            "interrupted": "Brána se zastavila dřív, než příkaz doběhl; nic se neuložilo. Zkuste to znovu.",
            "dm.closed": "{name}: nemohu vám poslat soukromou zprávu, takže soukromá odpověď nebyla odeslána."
            " Povolte přímé zprávy od členů tohoto serveru (Nastavení soukromí serveru) a zkuste to znovu.",
        },
        "ru": {
            "button.roll_again": "Бросить ещё раз",
            "button.odds": "Шансы",
            "button.defend": "Защита: {trait}",
            "button.concede": "Уступить",
            "embed.dice": "Кубики",
            "embed.total": "Итог",
            "embed.degree": "Степень",
            "embed.margin": "Перевес",
            "embed.secret_roll": "Тайный бросок",
            "embed.roller": "Бросающий",
            "embed.opposition": "Противник",
            "embed.vs": "против",
            "embed.pool": "{n} {n:plural:кубик:кубика:кубиков}",
            "embed.chance_die": "кубик шанса",
            "embed.roll": "бросок",
            "button.unknown": "Эта кнопка здесь больше не известна; введите команду.",
            "option.before": "Заполните и параметр «{first}»: без него нельзя указать «{later}».",
            "interrupted": "Шлюз остановился раньше, чем команда завершилась; ничего не сохранено."
            " Попробуйте ещё раз.",
            "dm.closed": "{name}: не могу отправить вам личное сообщение, поэтому личный ответ не отправлен."
            " Разрешите личные сообщения от участников этого сервера (настройки конфиденциальности сервера)"
            " и попробуйте ещё раз.",
        },
    }
)


def t(locale: str, key: str, /, **params: Any) -> str:
    return TEXTS.t(locale, key, **params)
