"""The texts of ``house``, ``house set`` and ``house reset`` in English, Czech and Russian."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

EN = {
    "none": "{system} has no house rules to switch.",
    "header": "House rules of {system} in this channel ({n} changed from the book):",
    "header.book": "House rules of {system} in this channel: all as the book has them.",
    "line": "{mark}{name} = {value} (book: {book}; {where}): {meaning}",
    "line.changed": "* ",
    "footer": "Storytellers change one with house set NAME VALUE, and house reset NAME.",
    "usage": "Write house, house set NAME VALUE or house reset NAME.",
    "unknown": "{system} has no house rule {name}; house lists them.",
    "unknown.suggest": "{system} has no house rule {name}; did you mean {suggestion}?",
    "wrong.bool": "{name} is on or off, not {value}.",
    "wrong.int": "{name} is a whole number from {low} to {high}, not {value}.",
    "wrong.choice": "{name} is one of {choices}, not {value}.",
    "set": "House rule here: {name} = {value} (was {old}; the book's: {book}), set by {who}.",
    "same": "{name} is {value} here already.",
    "reset": "House rule {name} is back to its default here, {value}, reset by {who}.",
    "reset.none": "{name} is at its default here already: {value}.",
    "on": "on",
    "off": "off",
    "roll.note": " [house: {names}]",
}

CS = {
    "none": "{system} nemá žádná domácí pravidla k přepnutí.",
    "header": "Domácí pravidla systému {system} v tomto kanálu (oproti knize změněno: {n}):",
    "header.book": "Domácí pravidla systému {system} v tomto kanálu: vše podle knihy.",
    "line": "{mark}{name} = {value} (kniha: {book}; {where}): {meaning}",
    "line.changed": "* ",
    "footer": "Vypravěči je mění příkazem house set JMÉNO HODNOTA a vracejí příkazem house reset JMÉNO.",
    "usage": "Napište house, house set JMÉNO HODNOTA nebo house reset JMÉNO.",
    "unknown": "{system} nemá domácí pravidlo {name}; seznam vypíše house.",
    "unknown.suggest": "{system} nemá domácí pravidlo {name}; mysleli jste {suggestion}?",
    "wrong.bool": "{name} může být jen zapnuto nebo vypnuto (on/off), ne „{value}“.",
    "wrong.int": "{name} musí být celé číslo od {low} do {high}, ne „{value}“.",
    "wrong.choice": "{name} může být jen jedno z: {choices}, ne „{value}“.",
    "set": "Domácí pravidlo zde: {name} = {value} (dříve {old}; podle knihy {book}), nastavil(a) {who}.",
    "same": "{name} tu už je {value}.",
    "reset": "Domácí pravidlo {name} je zde zpět na výchozí hodnotě {value}, vrátil(a) {who}.",
    "reset.none": "{name} tu už má výchozí hodnotu: {value}.",
    "on": "zapnuto",
    "off": "vypnuto",
    "roll.note": " [domácí pravidla: {names}]",
}

RU = {
    "none": "В системе {system} нет домашних правил для переключения.",
    "header": "Домашние правила системы {system} в этом канале (изменено по сравнению с книгой: {n}):",
    "header.book": "Домашние правила системы {system} в этом канале: всё по книге.",
    "line": "{mark}{name} = {value} (по книге: {book}; {where}): {meaning}",
    "line.changed": "* ",
    "footer": "Рассказчики меняют их командой house set ИМЯ ЗНАЧЕНИЕ и возвращают командой house reset ИМЯ.",
    "usage": "Напишите house, house set ИМЯ ЗНАЧЕНИЕ или house reset ИМЯ.",
    "unknown": "В системе {system} нет домашнего правила {name}; список покажет house.",
    "unknown.suggest": "В системе {system} нет домашнего правила {name}; может быть, {suggestion}?",
    "wrong.bool": "{name} принимает только вкл или выкл (on или off), а не «{value}».",
    "wrong.int": "{name} — целое число от {low} до {high}, а не «{value}».",
    "wrong.choice": "{name} принимает одно из значений: {choices}, а не «{value}».",
    "set": "Домашнее правило здесь: {name} = {value} (было {old}; по книге {book}), установил(а) {who}.",
    "same": "{name} здесь уже {value}.",
    "reset": "Домашнее правило {name} здесь снова по умолчанию, {value}; вернул(а) {who}.",
    "reset.none": "{name} здесь уже по умолчанию: {value}.",
    "on": "вкл.",
    "off": "выкл.",
    "roll.note": " [домашние правила: {names}]",
}

CATALOGUE = Catalogue({"en": EN, "cs": CS, "ru": RU})
t = CATALOGUE.t


def shown(locale: str, value: object) -> str:
    """A switch's value as people read it: on/off in their language, else as written."""
    if isinstance(value, bool):
        return t(locale, "on" if value else "off")
    return str(value)
