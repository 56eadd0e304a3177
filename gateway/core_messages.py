"""The core's own replies (help, lang, system, verify, link, the router's refusals) in every language
the gateway ships (``gateway.i18n.LANGUAGES``), so a Czech or Russian player never meets English
core text. Plugins keep their own catalogues; this one is only for ``gateway/``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gateway.i18n import LANGUAGES, Catalogue

EN = {
    # help
    "help.list": "{system} commands: {names}. Type help COMMAND for one.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Usage: {usage}",
    "help.none": "No command {name!r}. Type help for the list.",
    # the router
    "unknown": "Unknown command {word!r}. Type help for the list.",
    "unknown.suggest": "Unknown command {word!r}. Did you mean {options}? Type help for the list.",
    "not_installed": "This channel uses the rule system {name!r}, which is not installed.",
    "need.player": (
        "{command} needs a verified account: identify to services (or ask the operator to trust this"
        " network) and try again."
    ),
    "need.storyteller": "{command} needs the Storyteller role, which you do not have.",
    "not_allowed": "{command} is not allowed here.",
    "internal": "Something went wrong on our side; nothing was saved.",
    "or": "or",
    "and": "and",
    # lang
    "lang.show": "Language here: {language} ({code}). Available: {known}.",
    "lang.usage": "Write lang CODE or lang channel CODE, with CODE one of {known}.",
    "lang.channel_command": "lang channel CODE",
    "lang.set.person": "Language for you: {language}.",
    "lang.set.channel": "Language for this channel: {language}.",
    "lang.system_lacks": (
        " {system} speaks only {spoken}, so its commands answer in {fallback}; help, lang, verify, link"
        " and the other common replies will be in {chosen}."
    ),
    "lang.spoken.en": "English",
    "lang.spoken.cs": "Czech",
    "lang.spoken.ru": "Russian",
    "lang.in.en": "English",
    "lang.in.cs": "Czech",
    "lang.in.ru": "Russian",
    # system
    "system.show": "This channel plays {title}. Installed: {listing}.",
    "system.set": "This channel now plays {title}.",
    "system.none": "No rule system {name!r}. Installed: {names}.",
    "system.command": "system NAME",
    # verify
    "verify.usage": "Write verify ID, with the id shown at the end of a roll (for example verify k3f9m2x).",
    "verify.none": "No roll with id {id!r} in the log.",
    "verify.line": "#{id}: {who} ({identity}) rolled {system} in {where} at {when}: {detail}",
    "verify.no_dice": "no dice",
    "verify.side": "side {n}",
    "verify.vs": "vs",
    "verify.wins": "{winner} wins by {margin}",
    "verify.wins_plain": "{winner} wins",
    "verify.no_winner": "no winner",
    # link and unlink
    "link.usage": "Write link to get a code, or link CODE with the code from your other platform.",
    "link.too_many_codes": (
        "You have asked for {n} link codes in the last hour; the next can be made in {minutes} min."
    ),
    "link.code": (
        "Your link code is {code}. On your other platform, type link {code} within {ttl} minutes; it"
        " works once, and joins that identity to this one ({identity}) with all your characters."
    ),
    "link.too_many_failures": (
        "Too many wrong link codes from this identity ({limit} in an hour); try again in {minutes} min."
    ),
    "link.no_code": "No link code {code!r}: check it, or type link on your other platform for a new one.",
    "link.used": "That link code has been used already; type link on your other platform for a new one.",
    "link.expired": ("That link code expired {ago} min ago; type link on your other platform for a new one."),
    "link.already": "{a} and {b} are already one person.",
    "link.gone": "The person behind that link code is gone; ask for a new code.",
    "link.done": (
        "Linked: {identities} are now one person. Characters: {names}; active: {active}.{storyteller}"
    ),
    "link.no_characters": "none",
    "link.no_active": "none",
    "link.storyteller": " Storyteller role: yes.",
    "unlink.usage": "Write unlink PLATFORM (e.g. unlink discord) or unlink PLATFORM:ID.",
    "unlink.none": "You have no {platform} identity linked. Yours: {mine}.",
    "unlink.many": "You have {n} {platform} identities ({keys}): write unlink PLATFORM:ID for one.",
    "unlink.only": "{key} is your only identity: there is nothing to unlink it from.",
    "unlink.done": "{key} is now a person of its own, with no characters; they stay with {rest}.",
}

CS = {
    "help.list": "Příkazy ({system}): {names}. Nápovědu k jednomu z nich vypíše help PŘÍKAZ.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Použití: {usage}",
    "help.none": "Příkaz „{name}“ neexistuje. Seznam příkazů vypíše help.",
    "unknown": "Neznámý příkaz „{word}“. Seznam příkazů vypíše help.",
    "unknown.suggest": "Neznámý příkaz „{word}“. Nemysleli jste {options}? Seznam příkazů vypíše help.",
    "not_installed": "Tento kanál má nastavený systém pravidel „{name}“, který tu není nainstalovaný.",
    "need.player": (
        "Příkaz {command} vyžaduje ověřený účet: přihlaste se u služeb sítě (nebo požádejte správce,"
        " ať této síti důvěřuje) a zkuste to znovu."
    ),
    "need.storyteller": "Příkaz {command} smí použít jen Vypravěč a tuto roli nemáte.",
    "not_allowed": "Příkaz {command} tu není povolený.",
    "internal": "Něco se u nás pokazilo; nic se neuložilo.",
    "or": "nebo",
    "and": "a",
    "lang.show": "Jazyk zde: {language} ({code}). K dispozici: {known}.",
    "lang.usage": "Napište lang KÓD nebo lang channel KÓD, kde KÓD je jeden z těchto: {known}.",
    "lang.channel_command": "lang channel KÓD",
    "lang.set.person": "Jazyk pro vás: {language}.",
    "lang.set.channel": "Jazyk tohoto kanálu: {language}.",
    "lang.system_lacks": (
        " Systém {system} umí jen {spoken}, jeho příkazy proto odpovídají v {fallback}; help, lang,"
        " verify, link a ostatní obecné odpovědi budou v {chosen}."
    ),
    "lang.spoken.en": "anglicky",
    "lang.spoken.cs": "česky",
    "lang.spoken.ru": "rusky",
    "lang.in.en": "angličtině",
    "lang.in.cs": "češtině",
    "lang.in.ru": "ruštině",
    "system.show": "Systém pravidel tohoto kanálu: {title}. Nainstalované: {listing}.",
    "system.set": "Systém pravidel tohoto kanálu je nyní {title}.",
    "system.none": "Systém pravidel „{name}“ tu není. Nainstalované: {names}.",
    "system.command": "system NÁZEV",
    "verify.usage": "Napište verify ID, kde ID je kód na konci hodu (například verify k3f9m2x).",
    "verify.none": "V záznamu není žádný hod s ID „{id}“.",
    "verify.line": "#{id}: {who} ({identity}) – hod v systému {system}, kanál {where}, {when}: {detail}",
    "verify.no_dice": "bez kostek",
    "verify.side": "strana {n}",
    "verify.vs": "proti",
    "verify.wins": "vítězí {winner}, rozdíl {margin}",
    "verify.wins_plain": "vítězí {winner}",
    "verify.no_winner": "bez vítěze",
    "link.usage": "Napište link a dostanete kód, nebo link KÓD s kódem z druhé platformy.",
    "link.too_many_codes": (
        "Za poslední hodinu {n:plural:byl vydán:byly vydány:bylo vydáno} {n}"
        " {n:plural:kód:kódy:kódů} k propojení; další půjde vytvořit za {minutes} min."
    ),
    "link.code": (
        "Váš kód k propojení je {code}. Na druhé platformě napište do {ttl}"
        " {ttl:plural:minuty:minut:minut} link {code}; platí jen jednou a připojí tamní identitu"
        " k této ({identity}) i se všemi vašimi postavami."
    ),
    "link.too_many_failures": (
        "Z této identity přišlo příliš mnoho chybných kódů ({limit} za hodinu); zkuste to znovu"
        " za {minutes} min."
    ),
    "link.no_code": (
        "Kód „{code}“ neexistuje: zkontrolujte ho, nebo si na druhé platformě napište link o nový."
    ),
    "link.used": "Tento kód už byl použit; nový dostanete příkazem link na druhé platformě.",
    "link.expired": "Platnost kódu vypršela před {ago} min; nový dostanete příkazem link na druhé platformě.",
    "link.already": "{a} a {b} už jsou jedna osoba.",
    "link.gone": "Osoba, které kód patřil, už neexistuje; vyžádejte si nový kód.",
    "link.done": (
        "Propojeno: {identities} jsou teď jedna osoba. Postavy: {names}; aktivní: {active}.{storyteller}"
    ),
    "link.no_characters": "žádné",
    "link.no_active": "žádná",
    "link.storyteller": " Role Vypravěče: ano.",
    "unlink.usage": "Napište unlink PLATFORMA (např. unlink discord) nebo unlink PLATFORMA:ID.",
    "unlink.none": "Nemáte propojenou žádnou identitu {platform}. Vaše identity: {mine}.",
    "unlink.many": (
        "Máte {n} {n:plural:identitu:identity:identit} {platform} ({keys}): napište unlink"
        " PLATFORMA:ID pro jednu z nich."
    ),
    "unlink.only": "{key} je vaše jediná identita: není od čeho ji odpojit.",
    "unlink.done": "{key} je teď samostatná osoba bez postav; postavy zůstávají u {rest}.",
}

RU = {
    "help.list": "Команды ({system}): {names}. Справка по одной из них: help КОМАНДА.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Как писать: {usage}",
    "help.none": "Команды «{name}» нет. Список команд: help.",
    "unknown": "Неизвестная команда «{word}». Список команд: help.",
    "unknown.suggest": (
        "Неизвестная команда «{word}». Может быть, вы имели в виду {options}? Список команд: help."
    ),
    "not_installed": "В этом канале выбрана система правил «{name}», но она не установлена.",
    "need.player": (
        "Для команды {command} нужна подтверждённая учётная запись: войдите через службы сети (или"
        " попросите администратора доверять этой сети) и попробуйте снова."
    ),
    "need.storyteller": "Команда {command} доступна только Рассказчику, а у вас этой роли нет.",
    "not_allowed": "Команда {command} здесь не разрешена.",
    "internal": "У нас что-то сломалось; ничего не сохранено.",
    "or": "или",
    "and": "и",
    "lang.show": "Язык здесь: {language} ({code}). Доступны: {known}.",
    "lang.usage": "Напишите lang КОД или lang channel КОД, где КОД — один из этих: {known}.",
    "lang.channel_command": "lang channel КОД",
    "lang.set.person": "Язык для вас: {language}.",
    "lang.set.channel": "Язык этого канала: {language}.",
    "lang.system_lacks": (
        " Система {system} говорит только {spoken}, поэтому её команды отвечают на {fallback}; help,"
        " lang, verify, link и другие общие ответы будут на {chosen}."
    ),
    "lang.spoken.en": "по-английски",
    "lang.spoken.cs": "по-чешски",
    "lang.spoken.ru": "по-русски",
    "lang.in.en": "английском",
    "lang.in.cs": "чешском",
    "lang.in.ru": "русском",
    "system.show": "Система правил этого канала: {title}. Установлены: {listing}.",
    "system.set": "Система правил этого канала теперь {title}.",
    "system.none": "Системы правил «{name}» нет. Установлены: {names}.",
    "system.command": "system НАЗВАНИЕ",
    "verify.usage": "Напишите verify ID, где ID — код в конце броска (например, verify k3f9m2x).",
    "verify.none": "В журнале нет броска с кодом «{id}».",
    "verify.line": "#{id}: {who} ({identity}) — бросок по системе {system}, канал {where}, {when}: {detail}",
    "verify.no_dice": "без костей",
    "verify.side": "сторона {n}",
    "verify.vs": "против",
    "verify.wins": "побеждает {winner}, разница {margin}",
    "verify.wins_plain": "побеждает {winner}",
    "verify.no_winner": "без победителя",
    "link.usage": "Напишите link, чтобы получить код, или link КОД с кодом с другой платформы.",
    "link.too_many_codes": (
        "За последний час вы запросили {n} {n:plural:код:кода:кодов} для связывания; следующий можно"
        " получить через {minutes} мин."
    ),
    "link.code": (
        "Ваш код для связывания: {code}. На другой платформе напишите link {code} в течение {ttl}"
        " {ttl:plural:минуты:минут:минут}; код действует один раз и присоединит ту учётную запись"
        " к этой ({identity}) вместе со всеми вашими персонажами."
    ),
    "link.too_many_failures": (
        "С этой учётной записи пришло слишком много неверных кодов ({limit} за час); попробуйте снова"
        " через {minutes} мин."
    ),
    "link.no_code": (
        "Кода «{code}» нет: проверьте его или напишите link на другой платформе, чтобы получить новый."
    ),
    "link.used": "Этот код уже использован; новый можно получить командой link на другой платформе.",
    "link.expired": (
        "Срок действия кода истёк {ago} мин назад; новый можно получить командой link на другой платформе."
    ),
    "link.already": "{a} и {b} — уже один человек.",
    "link.gone": "Человека, которому принадлежал этот код, больше нет; запросите новый код.",
    "link.done": (
        "Связано: {identities} теперь один человек. Персонажи: {names}; активный: {active}.{storyteller}"
    ),
    "link.no_characters": "нет",
    "link.no_active": "нет",
    "link.storyteller": " Роль Рассказчика: да.",
    "unlink.usage": "Напишите unlink ПЛАТФОРМА (например, unlink discord) или unlink ПЛАТФОРМА:ID.",
    "unlink.none": "У вас нет связанной учётной записи {platform}. Ваши: {mine}.",
    "unlink.many": (
        "У вас {n} {n:plural:учётная запись:учётные записи:учётных записей} {platform} ({keys}):"
        " напишите unlink ПЛАТФОРМА:ID для одной из них."
    ),
    "unlink.only": "{key} — ваша единственная учётная запись: отвязывать её не от чего.",
    "unlink.done": "{key} теперь отдельный человек без персонажей; персонажи остаются у {rest}.",
}

CORE = Catalogue({"en": EN, "cs": CS, "ru": RU})


def say(locale: str, key: str, /, **params: Any) -> str:
    return CORE.t(locale, key, **params)


def listing(locale: str, items: Sequence[str], conjunction: str = "and") -> str:
    """``a, b and c`` (``or``), with the locale's conjunction and no comma before it."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {say(locale, conjunction)} {items[-1]}"


def locale_for(person: str | None, channel: str | None, system_default: str | None) -> str:
    """The reader's language: theirs, else the channel's, else the rule system's, else English."""
    return person or channel or system_default or "en"


def language_notice(locale: str, system_title: str, system_locales: Sequence[str]) -> str:
    """What ``lang`` adds when the channel's rule system has no catalogue for ``locale``: the
    system's commands go on in its own languages (the catalogues fall back to English), the core's
    replies follow the choice. Empty when the system speaks ``locale``."""
    if locale in system_locales or locale not in LANGUAGES:
        return ""
    spoken = [code for code in system_locales if code in LANGUAGES]
    fallback = "en" if "en" in spoken or not spoken else spoken[0]
    return say(
        locale,
        "lang.system_lacks",
        system=system_title,
        spoken=listing(locale, [say(locale, f"lang.spoken.{code}") for code in spoken or ["en"]]),
        fallback=say(locale, f"lang.in.{fallback}"),
        chosen=say(locale, f"lang.in.{locale}"),
    )
