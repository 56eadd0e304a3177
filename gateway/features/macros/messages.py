"""Texts of the macro commands and of a macro that cannot run, in en, cs and ru. Braces shown to the
reader are doubled (``{{1}}`` reads ``{1}``): the catalogue formats with ``str.format``."""

from __future__ import annotations

from typing import Any

from gateway.core.i18n import Catalogue

EN = {
    # macro add / list / show / remove
    "usage.add": (
        "Write macro add [--chronicle] NAME = COMMAND; COMMAND..., with {{1}}, {{2}}, {{name}} or"
        " {{name=default}} where the values go."
    ),
    "usage.name": "Write macro {verb} [--chronicle] NAME.",
    "name.bad": (
        "{name!r} cannot name a macro: letters, digits, - and _, at most 24 bytes, and not add, list,"
        " show or remove."
    ),
    "added.mine": "Your macro {name} for {system}: {body}. Run it: {run}.",
    "added.chronicle": "Channel macro {name} for {system}, for everyone here: {body}. Run it: {run}.",
    "added.was": " It was: {old}.",
    "added.command": " {name} is a command, and a command always wins: this macro runs only as macro {name}.",
    "added.shadows": " Your own macro {name} shadows the channel's for you.",
    "full": "You keep {most} macros for {system} already; remove one first (macro remove NAME).",
    "list.empty": "No macros for {system} here. Add one: macro add NAME = COMMAND.",
    "list": "Macros for {system} ({n}): {entries}. macro show NAME shows one.",
    "list.mine": "{name}",
    "list.chronicle": "{name} (channel)",
    "list.shadows": "{name} (yours, over the channel's)",
    "show.mine": "Your macro {name} ({system}): {body}",
    "show.chronicle": "Channel macro {name} ({system}): {body}",
    "show.shadows": " It shadows the channel's macro of that name: {body}",
    "none": "No macro {name!r} for {system} here. macro list shows those you have.",
    "removed.mine": "Your macro {name} is removed.",
    "removed.chronicle": "Channel macro {name} is removed.",
    # a macro that cannot run (or be saved)
    "body.long": "Macro {macro}: it is {length} characters long; a macro holds at most {most}.",
    "body.empty": "Macro {macro}: one of its commands is empty (two ; in a row, or one at the end).",
    "slot.brace": "Macro {macro}: a {{ or }} has no partner; write {{{{ or }}}} for a brace itself.",
    "slot.number": "Macro {macro}: {{{slot}}} is no parameter; numbered ones run from {{1}} to {{{most}}}.",
    "slot.bad": "Macro {macro}: {{{slot}}} is no parameter; write {{1}}, {{name}} or {{name=default}}.",
    "slot.defaults": "Macro {macro}: {{{slot}}} has two different defaults; give it one.",
    "value.missing": "Macro {macro} needs a value for {{{slot}}}.",
    "value.extra": "Macro {macro} takes {n} {n:plural:value:values}; {extra!r} is one too many.",
    "value.quotes": "Macro {macro}: a value holds both kinds of quote, so it cannot be passed on.",
    "words": "Macro {macro} has a quote never closed, or a control character.",
    "loop": "Macro {macro} calls itself ({chain}); a macro may not loop.",
    "deep": "Macro {macro} nests macros more than {most} deep.",
    "many": "Macro {macro} runs more than {most} commands.",
    "long": "Macro {macro} expands to more than {most} characters.",
    "missing": "Macro {macro}: there is no macro {name} here.",
    "other.system": "Macro {macro} is for {other}; this channel plays {system}.",
    "inner": "Macro {macro}: {error}",
    "offload": "Macro {macro}: {command} takes a while, so it runs only as a macro's single command.",
}

CS = {
    "usage.add": (
        "Napište macro add [--chronicle] JMÉNO = PŘÍKAZ; PŘÍKAZ..., s {{1}}, {{2}}, {{jméno}} nebo"
        " {{jméno=výchozí}} tam, kam patří hodnoty."
    ),
    "usage.name": "Napište macro {verb} [--chronicle] JMÉNO.",
    "name.bad": (
        "{name!r} nemůže být jméno makra: písmena, číslice, - a _, nejvýš 24 bajtů, a ne add, list,"
        " show ani remove."
    ),
    "added.mine": "Vaše makro {name} pro {system}: {body}. Spustíte ho: {run}.",
    "added.chronicle": "Makro kanálu {name} pro {system}, pro všechny zde: {body}. Spustíte ho: {run}.",
    "added.was": " Předtím: {old}.",
    "added.command": (
        " {name} je příkaz a příkaz má vždy přednost: toto makro spustíte jen jako macro {name}."
    ),
    "added.shadows": " Vaše vlastní makro {name} vám zakrývá makro kanálu.",
    "full": "Pro {system} už máte {most} maker; nejdřív jedno odstraňte (macro remove JMÉNO).",
    "list.empty": "Pro {system} tu nejsou žádná makra. Přidejte si: macro add JMÉNO = PŘÍKAZ.",
    "list": "Makra pro {system} ({n}): {entries}. macro show JMÉNO ukáže jedno.",
    "list.mine": "{name}",
    "list.chronicle": "{name} (kanálu)",
    "list.shadows": "{name} (vaše, zakrývá makro kanálu)",
    "show.mine": "Vaše makro {name} ({system}): {body}",
    "show.chronicle": "Makro kanálu {name} ({system}): {body}",
    "show.shadows": " Zakrývá stejnojmenné makro kanálu: {body}",
    "none": "Makro {name!r} pro {system} tu není. macro list ukáže ta, která máte.",
    "removed.mine": "Vaše makro {name} je odstraněno.",
    "removed.chronicle": "Makro kanálu {name} je odstraněno.",
    "body.long": "Makro {macro}: má {length} znaků; makro jich pojme nejvýš {most}.",
    "body.empty": "Makro {macro}: jeden z jeho příkazů je prázdný (dva ; za sebou nebo jeden na konci).",
    "slot.brace": "Makro {macro}: {{ nebo }} nemá pár; samotnou závorku napište jako {{{{ nebo }}}}.",
    "slot.number": "Makro {macro}: {{{slot}}} není parametr; číslované jdou od {{1}} do {{{most}}}.",
    "slot.bad": "Makro {macro}: {{{slot}}} není parametr; napište {{1}}, {{jméno}} nebo {{jméno=výchozí}}.",
    "slot.defaults": "Makro {macro}: {{{slot}}} má dvě různé výchozí hodnoty; dejte mu jednu.",
    "value.missing": "Makro {macro} potřebuje hodnotu pro {{{slot}}}.",
    "value.extra": ("Makro {macro} bere {n} {n:plural:hodnotu:hodnoty:hodnot}; {extra!r} je navíc."),
    "value.quotes": "Makro {macro}: hodnota obsahuje oba druhy uvozovek, a tak ji nelze předat dál.",
    "words": "Makro {macro} má neuzavřenou uvozovku nebo řídicí znak.",
    "loop": "Makro {macro} volá samo sebe ({chain}); makro se nesmí zacyklit.",
    "deep": "Makro {macro} vnořuje makra do více než {most} úrovní.",
    "many": "Makro {macro} spouští víc než {most} příkazů.",
    "long": "Makro {macro} se rozvine na víc než {most} znaků.",
    "missing": "Makro {macro}: makro {name} tu není.",
    "other.system": "Makro {macro} je pro {other}; tento kanál hraje {system}.",
    "inner": "Makro {macro}: {error}",
    "offload": "Makro {macro}: {command} chvíli trvá, a proto běží jen jako jediný příkaz makra.",
}

RU = {
    "usage.add": (
        "Напишите macro add [--chronicle] ИМЯ = КОМАНДА; КОМАНДА..., с {{1}}, {{2}}, {{имя}} или"
        " {{имя=по_умолчанию}} там, где стоят значения."
    ),
    "usage.name": "Напишите macro {verb} [--chronicle] ИМЯ.",
    "name.bad": (
        "{name!r} не годится как имя макроса: буквы, цифры, - и _, не больше 24 байт, и не add, list,"
        " show или remove."
    ),
    "added.mine": "Ваш макрос {name} для {system}: {body}. Запуск: {run}.",
    "added.chronicle": "Макрос канала {name} для {system}, для всех здесь: {body}. Запуск: {run}.",
    "added.was": " Был: {old}.",
    "added.command": (
        " {name} — команда, а команда всегда важнее: этот макрос запускается только как macro {name}."
    ),
    "added.shadows": " Ваш собственный макрос {name} заслоняет для вас макрос канала.",
    "full": "У вас уже {most} макросов для {system}; сначала удалите один (macro remove ИМЯ).",
    "list.empty": "Здесь нет макросов для {system}. Добавьте: macro add ИМЯ = КОМАНДА.",
    "list": "Макросы для {system} ({n}): {entries}. macro show ИМЯ покажет один.",
    "list.mine": "{name}",
    "list.chronicle": "{name} (канала)",
    "list.shadows": "{name} (ваш, поверх макроса канала)",
    "show.mine": "Ваш макрос {name} ({system}): {body}",
    "show.chronicle": "Макрос канала {name} ({system}): {body}",
    "show.shadows": " Он заслоняет одноимённый макрос канала: {body}",
    "none": "Макроса {name!r} для {system} здесь нет. macro list покажет ваши.",
    "removed.mine": "Ваш макрос {name} удалён.",
    "removed.chronicle": "Макрос канала {name} удалён.",
    "body.long": (
        "Макрос {macro}: в нём {length} {length:plural:символ:символа:символов}; макрос вмещает не больше"
        " {most}."
    ),
    "body.empty": "Макрос {macro}: одна из его команд пуста (два ; подряд или один в конце).",
    "slot.brace": "Макрос {macro}: у {{ или }} нет пары; саму скобку пишите как {{{{ или }}}}.",
    "slot.number": "Макрос {macro}: {{{slot}}} — не параметр; номера идут от {{1}} до {{{most}}}.",
    "slot.bad": "Макрос {macro}: {{{slot}}} — не параметр; пишите {{1}}, {{имя}} или {{имя=по_умолчанию}}.",
    "slot.defaults": "Макрос {macro}: у {{{slot}}} два разных значения по умолчанию; оставьте одно.",
    "value.missing": "Макросу {macro} нужно значение для {{{slot}}}.",
    "value.extra": (
        "Макрос {macro} принимает {n} {n:plural:значение:значения:значений}; {extra!r} — лишнее."
    ),
    "value.quotes": "Макрос {macro}: в значении есть кавычки обоих видов, его нельзя передать дальше.",
    "words": "В макросе {macro} не закрыта кавычка или есть управляющий символ.",
    "loop": "Макрос {macro} вызывает сам себя ({chain}); макрос не может зацикливаться.",
    "deep": "Макрос {macro} вкладывает макросы глубже {most} уровней.",
    "many": "Макрос {macro} запускает больше {most} команд.",
    "long": "Макрос {macro} разворачивается больше чем в {most} символов.",
    "missing": "Макрос {macro}: макроса {name} здесь нет.",
    "other.system": "Макрос {macro} — для {other}; этот канал играет в {system}.",
    "inner": "Макрос {macro}: {error}",
    "offload": (
        "Макрос {macro}: {command} считается долго, поэтому запускается только как единственная команда"
        " макроса."
    ),
}

MACROS = Catalogue({"en": EN, "cs": CS, "ru": RU})


def say(locale: str, key: str, /, **params: Any) -> str:
    return MACROS.t(locale, key, **params)
