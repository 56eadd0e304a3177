# ruff: noqa: E501
"""The words of the other rule systems' sheet pages (``sheets``) around each system's own terms,
which come from the system (its ``SheetSummary`` labels and field names)."""

from __future__ import annotations

EN = {
    "sheets.system": "Rule system: {title}",
    "sheets.traits": "Traits",
    "sheets.pools": "Pools",
    "sheets.powers": "Powers",
    "sheets.editor.intro": "Each change is the chat command set FIELD VALUE: the same limits and the same refusals as in chat.",
    "sheets.approved": "This sheet is approved and locked; a Storyteller can still change it.",
    "sheets.by_storyteller": "A Storyteller sets this sheet with st set; ask yours for a change.",
    "sheets.st_set": "Set on the sheet (st set)",
    "sheets.no_approval": "This rule system has no approval: the sheet is in play as the Storytellers set it.",
}

CS = {
    "sheets.system": "Systém pravidel: {title}",
    "sheets.traits": "Vlastnosti",
    "sheets.pools": "Zásoby",
    "sheets.powers": "Schopnosti",
    "sheets.editor.intro": "Každá změna je příkaz z chatu set POLE HODNOTA: platí stejné limity a stejná odmítnutí jako v chatu.",
    "sheets.approved": "Tento list je schválený a uzamčený; změnit ho může už jen Vypravěč.",
    "sheets.by_storyteller": "Tento list nastavuje Vypravěč příkazem st set; o změnu požádejte svého Vypravěče.",
    "sheets.st_set": "Nastavit na listu (st set)",
    "sheets.no_approval": "Tento systém pravidel schvalování nemá: list platí tak, jak ho Vypravěči nastavili.",
}

RU = {
    "sheets.system": "Система правил: {title}",
    "sheets.traits": "Характеристики",
    "sheets.pools": "Запасы",
    "sheets.powers": "Способности",
    "sheets.editor.intro": "Каждое изменение — команда чата set ПОЛЕ ЗНАЧЕНИЕ: те же ограничения и те же отказы, что и в чате.",
    "sheets.approved": "Этот лист утверждён и заблокирован; изменить его может только Рассказчик.",
    "sheets.by_storyteller": "Этот лист заполняет Рассказчик командой st set; за изменениями обращайтесь к своему Рассказчику.",
    "sheets.st_set": "Задать в листе (st set)",
    "sheets.no_approval": "В этой системе правил нет утверждения: лист действует так, как его заполнили Рассказчики.",
}
