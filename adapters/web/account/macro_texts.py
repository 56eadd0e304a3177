# ruff: noqa: E501
"""The Macros page's words (merged into the account catalogue, ``texts.CATALOGUE``)."""

from __future__ import annotations

EN = {
    "mine.macros": "My macros",
    "macros.heading": "Macros",
    "macros.intro": "Saved command lines for {system}, as macro list shows them in your web channel. Run one here, or type !name in chat.",
    "macros.system": "Rule system",
    "macros.choose": "Show",
    "macros.none": "You have no macros for {system} yet.",
    "macros.name": "Name",
    "macros.body": "Command line",
    "macros.mine": "yours",
    "macros.chronicle": "the chronicle's",
    "macros.shadows": "yours, hiding the chronicle's",
    "macros.args": "Arguments for {name}",
    "macros.run": "Run",
    "macros.remove": "Remove",
    "macros.add.heading": "Add or change a macro",
    "macros.add.body_help": "Parameters: {{1}}, {{2}}… or {{name}}, {{name=default}}.",
    "macros.add.chronicle": "The chronicle's (for everyone in this channel)",
    "macros.add.button": "Save",
}

CS = {
    "mine.macros": "Moje makra",
    "macros.heading": "Makra",
    "macros.intro": "Uložené příkazy pro systém {system}, jak je ve vašem webovém kanálu ukazuje macro list. Spusťte je zde, nebo v chatu napište !název.",
    "macros.system": "Systém pravidel",
    "macros.choose": "Zobrazit",
    "macros.none": "Pro systém {system} zatím nemáte žádná makra.",
    "macros.name": "Název",
    "macros.body": "Příkaz",
    "macros.mine": "vaše",
    "macros.chronicle": "kroniky",
    "macros.shadows": "vaše, zakrývá makro kroniky",
    "macros.args": "Argumenty pro {name}",
    "macros.run": "Spustit",
    "macros.remove": "Odebrat",
    "macros.add.heading": "Přidat nebo změnit makro",
    "macros.add.body_help": "Parametry: {{1}}, {{2}}… nebo {{name}}, {{name=default}}.",
    "macros.add.chronicle": "Makro kroniky (pro všechny v tomto kanálu)",
    "macros.add.button": "Uložit",
}

RU = {
    "mine.macros": "Мои макросы",
    "macros.heading": "Макросы",
    "macros.intro": "Сохранённые команды для системы {system}, как их показывает macro list в вашем веб-канале. Запустите макрос здесь или напишите !имя в чате.",
    "macros.system": "Система правил",
    "macros.choose": "Показать",
    "macros.none": "У вас пока нет макросов для системы {system}.",
    "macros.name": "Имя",
    "macros.body": "Команда",
    "macros.mine": "ваш",
    "macros.chronicle": "хроники",
    "macros.shadows": "ваш, скрывает макрос хроники",
    "macros.args": "Аргументы для {name}",
    "macros.run": "Запустить",
    "macros.remove": "Удалить",
    "macros.add.heading": "Добавить или изменить макрос",
    "macros.add.body_help": "Параметры: {{1}}, {{2}}… или {{name}}, {{name=default}}.",
    "macros.add.chronicle": "Макрос хроники (для всех в этом канале)",
    "macros.add.button": "Сохранить",
}
