"""The core's own replies (help, lang, system, verify, link, the router's refusals) in every language
the gateway ships (``gateway.core.i18n.LANGUAGES``), so a Czech or Russian player never meets English
core text. Plugins keep their own catalogues; this one is only for ``gateway/``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gateway.core.i18n import LANGUAGES, Catalogue

EN = {
    # help
    "help.list": "{system} commands: {names}. Type {help} COMMAND for one.",
    "help.index": (
        "{system} commands: {names}; topics: {topics} ({help} TOPIC lists one). Type {help} COMMAND for one."
    ),
    "help.topic": "{topic} commands ({n}): {entries}.",
    "help.page": " Page {page} of {pages}; next: {next}",
    "help.page.last": " Page {page} of {pages}.",
    "help.page.none": "{command}: {pages} {pages:plural:page:pages} in all.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Usage: {usage}",
    "help.none": "No command {name!r}. Type {help} for the list.",
    "help.none.suggest": "No command {name!r}. Did you mean {options}? Type {help} for the list.",
    # the router
    "unknown": "Unknown command {word!r}. Type {help} for the list.",
    "unknown.suggest": "Unknown command {word!r}. Did you mean {options}? Type {help} for the list.",
    "not_installed": "This channel uses the rule system {name!r}, which is not installed.",
    "need.player": (
        "{command} needs a verified account: identify to services (or ask the operator to trust this"
        " network) and try again."
    ),
    "need.storyteller": "{command} needs the Storyteller role, which you do not have.",
    "not_allowed": "{command} is not allowed here.",
    "internal": "Something went wrong on our side; nothing was saved.",
    # typed parameters (``gateway.core.params``): a line that does not fit them, and help COMMAND's lines
    "param.missing": "{command}: {label} is missing: {description}.",
    "param.not_integer": "{command}: {label} must be a whole number, not {word!r}.",
    "param.not_modifier": "{command}: {label} is written +N or -N (such as +2), not {word!r}.",
    "param.too_low": "{command}: {label} must be at least {minimum}, not {word}.",
    "param.too_high": "{command}: {label} must be at most {maximum}, not {word}.",
    "param.not_choice": "{command}: {label} is {choices}, not {word!r}.",
    "param.extra": "{command}: {word!r} is more than this command takes.",
    "param.line": "{label}: {description} ({details})",
    "param.required": "required",
    "param.optional": "optional",
    "param.keyword": "after {keyword}",
    "param.flag": "the word {keyword}",
    "param.range": "{minimum} to {maximum}",
    "param.minimum": "at least {minimum}",
    "param.maximum": "at most {maximum}",
    "param.many": "one or more",
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
    "verify.none": "No roll with id {id!r} in the log.",
    "verify.secret": "#{id} is a secret roll: only its roller and the Storytellers may see it.",
    "verify.line": "#{id}: {who} ({identity}) rolled {system} in {where} at {when}: {detail}",
    "verify.no_dice": "no dice",
    "verify.side": "side {n}",
    "verify.vs": "vs",
    "verify.wins": "{winner} wins by {margin}",
    "verify.wins_plain": "{winner} wins",
    "verify.no_winner": "no winner",
    "verify.rerolls": "; {n} {n:plural:tie was:ties were} rolled again first",
    # link and unlink
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
    "unlink.none": "You have no {platform} identity linked. Yours: {mine}.",
    "unlink.many": "You have {n} {platform} identities ({keys}): write unlink PLATFORM:ID for one.",
    "unlink.only": "{key} is your only identity: there is nothing to unlink it from.",
    "unlink.done": "{key} is now a person of its own, with no characters; they stay with {rest}.",
    # st (storytellers)
    "st.unknown": "Unknown Storyteller command {word!r}. ",
    "st.unknown.suggest": "Unknown Storyteller command {word!r}; did you mean {options}? ",
    "st.commands": "Storyteller commands: {names}. Type help COMMAND for one.",
    "st.identity": (
        "{word!r} is not an identity: write PLATFORM:ID, e.g. discord:80351110224678912, sl:<avatar uuid>,"
        " matrix:@ana:example.org, irc:libera/ana or console:ana."
    ),
    "person.unknown": (
        "Nobody called {name} has been seen here: write PLATFORM:ID, e.g. discord:80351110224678912."
    ),
    "person.ambiguous": "Several people are called {name} ({keys}): write one of them as PLATFORM:ID.",
    "st.since": (
        "I cannot read {text!r} as a time: write --since 2h, 30m, 3d, today, 2026-11-30 or 2026-11-30T18:00."
    ),
    "st.already": "{key} is already a Storyteller.",
    "st.added": "{key} ({name}) is now a Storyteller, on every platform they link.",
    "st.added.log": "{name} made {key} a Storyteller.",
    "st.not": "{key} is not a Storyteller.",
    "st.owner": (
        "{key} is the vault owner ({owner}, setting [vault] owner): change that setting to remove them."
    ),
    "st.removed": "{key} is no longer a Storyteller.",
    "st.removed.log": "{name} removed {key} as a Storyteller.",
    "st.list.owner": "Vault owner: {owner}.",
    "st.list.no_owner": "No vault owner is set ([vault] owner).",
    "st.list.others": " Storytellers: {people}.",
    "st.list.none": " No other Storytellers.",
    "st.list.no_identity": "no identity",
    "st.flag_value": "{flag} needs a value, e.g. {flag} 2h.",
    "st.limit": "--limit is a number from 1 to {most}.",
    "st.log.no_character": (
        "No {system} character called {name}. Write st log [NAME] [--since 2h] [--limit N]."
    ),
    "st.log.for": " for {name}",
    "st.log.since": " since {when}",
    "st.log.empty": "The Storyteller log{scope} is empty.",
    "st.log.head": "Storyteller log{scope}, last {n}:",
    "st.history.usage": "Write st history NAME.",
    "st.history.no_character": "No {system} character called {name}.",
    "st.history.head": "History of {name}, last {n}:",
    "st.history.empty": "{name} has no history yet.",
}

CS = {
    "help.list": "Příkazy ({system}): {names}. Nápovědu k jednomu z nich vypíše {help} PŘÍKAZ.",
    "help.index": (
        "Příkazy ({system}): {names}; témata: {topics} ({help} TÉMA)."
        " Nápovědu k jednomu z nich vypíše {help} PŘÍKAZ."
    ),
    "help.topic": "Příkazy tématu {topic} ({n}): {entries}.",
    "help.page": " Strana {page} z {pages}; další: {next}",
    "help.page.last": " Strana {page} z {pages}.",
    "help.page.none": "{command}: celkem {pages} {pages:plural:strana:strany:stran}.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Použití: {usage}",
    "help.none": "Příkaz „{name}“ neexistuje. Seznam příkazů vypíše {help}.",
    "help.none.suggest": (
        "Příkaz „{name}“ neexistuje. Nemysleli jste {options}? Seznam příkazů vypíše {help}."
    ),
    "unknown": "Neznámý příkaz „{word}“. Seznam příkazů vypíše {help}.",
    "unknown.suggest": "Neznámý příkaz „{word}“. Nemysleli jste {options}? Seznam příkazů vypíše {help}.",
    "not_installed": "Tento kanál má nastavený systém pravidel „{name}“, který tu není nainstalovaný.",
    "need.player": (
        "Příkaz {command} vyžaduje ověřený účet: přihlaste se u služeb sítě (nebo požádejte správce,"
        " ať této síti důvěřuje) a zkuste to znovu."
    ),
    "need.storyteller": "Příkaz {command} smí použít jen Vypravěč a tuto roli nemáte.",
    "not_allowed": "Příkaz {command} tu není povolený.",
    "internal": "Něco se u nás pokazilo; nic se neuložilo.",
    "param.missing": "{command}: chybí parametr „{label}“ – {description}.",
    "param.not_integer": "{command}: parametr „{label}“ musí být celé číslo, ne „{word}“.",
    "param.not_modifier": "{command}: parametr „{label}“ se píše +N nebo -N (třeba +2), ne „{word}“.",
    "param.too_low": "{command}: parametr „{label}“ musí být nejméně {minimum}, ne {word}.",
    "param.too_high": "{command}: parametr „{label}“ smí být nejvýše {maximum}, ne {word}.",
    "param.not_choice": "{command}: parametr „{label}“ může být jen {choices}, ne „{word}“.",
    "param.extra": "{command}: „{word}“ tu přebývá, tolik tento příkaz nebere.",
    "param.line": "{label}: {description} ({details})",
    "param.required": "nutno zadat",
    "param.optional": "lze vynechat",
    "param.keyword": "za slovem {keyword}",
    "param.flag": "slovo {keyword}",
    "param.range": "{minimum} až {maximum}",
    "param.minimum": "nejméně {minimum}",
    "param.maximum": "nejvýše {maximum}",
    "param.many": "jedna či více hodnot",
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
    "verify.none": "V záznamu není žádný hod s ID „{id}“.",
    "verify.secret": "#{id} je tajný hod: vidí ho jen ten, kdo házel, a Vypravěči.",
    "verify.line": "#{id}: {who} ({identity}) – hod v systému {system}, kanál {where}, {when}: {detail}",
    "verify.no_dice": "bez kostek",
    "verify.side": "strana {n}",
    "verify.vs": "vs.",  # "proti" would need the dative ("proti protivníkovi"); names are not declined
    "verify.wins": "vítězí {winner}, rozdíl {margin}",
    "verify.wins_plain": "vítězí {winner}",
    "verify.no_winner": "bez vítěze",
    "verify.rerolls": "; předtím {n}× shoda, házelo se znovu",
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
    "unlink.none": "Nemáte propojenou žádnou identitu {platform}. Vaše identity: {mine}.",
    "unlink.many": (
        "Máte {n} {n:plural:identitu:identity:identit} {platform} ({keys}): napište unlink"
        " PLATFORMA:ID pro jednu z nich."
    ),
    "unlink.only": "{key} je vaše jediná identita: není od čeho ji odpojit.",
    "unlink.done": "{key} je teď samostatná osoba bez postav; postavy zůstávají u {rest}.",
    "st.unknown": "Neznámý příkaz Vypravěče „{word}“. ",
    "st.unknown.suggest": "Neznámý příkaz Vypravěče „{word}“; nemysleli jste {options}? ",
    "st.commands": "Příkazy Vypravěče: {names}. Nápovědu k jednomu z nich vypíše help PŘÍKAZ.",
    "st.identity": (
        "„{word}“ není identita: napište PLATFORMA:ID, např. discord:80351110224678912, sl:<uuid avatara>,"
        " matrix:@ana:example.org, irc:libera/ana nebo console:ana."
    ),
    "person.unknown": (
        "Nikoho jménem {name} brána zatím neviděla: napište PLATFORMA:ID, např. discord:80351110224678912."
    ),
    "person.ambiguous": "Jméno {name} má více lidí ({keys}): napište jednoho z nich jako PLATFORMA:ID.",
    "st.since": (
        "„{text}“ nelze přečíst jako čas: napište --since 2h, 30m, 3d, today, 2026-11-30"
        " nebo 2026-11-30T18:00."
    ),
    "st.already": "{key} už má roli Vypravěče.",
    "st.added": "{key} ({name}) má nyní roli Vypravěče, na všech platformách, které si propojí.",
    "st.added.log": "{name}: {key} má nyní roli Vypravěče.",
    "st.not": "{key} nemá roli Vypravěče.",
    "st.owner": (
        "{key} je vlastník úložiště ({owner}, nastavení [vault] owner): roli mu odeberete jen změnou"
        " tohoto nastavení."
    ),
    "st.removed": "{key} už nemá roli Vypravěče.",
    "st.removed.log": "{name}: {key} už nemá roli Vypravěče.",
    "st.list.owner": "Vlastník úložiště: {owner}.",
    "st.list.no_owner": "Vlastník úložiště není nastavený ([vault] owner).",
    "st.list.others": " Vypravěči: {people}.",
    "st.list.none": " Žádní další Vypravěči.",
    "st.list.no_identity": "bez identity",
    "st.flag_value": "{flag} potřebuje hodnotu, např. {flag} 2h.",
    "st.limit": "--limit je číslo od 1 do {most}.",
    "st.log.no_character": (
        "Postava {name} v systému {system} neexistuje. Napište st log [JMÉNO] [--since 2h] [--limit N]."
    ),
    "st.log.for": " – {name}",
    "st.log.since": " od {when}",
    "st.log.empty": "Záznam Vypravěče{scope} je prázdný.",
    "st.log.head": "Záznam Vypravěče{scope}, {n:plural:poslední:poslední:posledních} {n}:",
    "st.history.usage": "Napište st history JMÉNO.",
    "st.history.no_character": "Postava {name} v systému {system} neexistuje.",
    "st.history.head": "Historie postavy {name}, {n:plural:poslední:poslední:posledních} {n}:",
    "st.history.empty": "Postava {name} zatím nemá žádnou historii.",
}

RU = {
    "help.list": "Команды ({system}): {names}. Справка по одной из них: {help} КОМАНДА.",
    "help.index": (
        "Команды ({system}): {names}; темы: {topics} ({help} ТЕМА). Справка по одной из них: {help} КОМАНДА."
    ),
    "help.topic": "Команды темы {topic} ({n}): {entries}.",
    "help.page": " Страница {page} из {pages}; дальше: {next}",
    "help.page.last": " Страница {page} из {pages}.",
    "help.page.none": "{command}: всего {pages} {pages:plural:страница:страницы:страниц}.",
    "help.one": "{name}: {summary}.",
    "help.usage": " Как писать: {usage}",
    "help.none": "Команды «{name}» нет. Список команд: {help}.",
    "help.none.suggest": (
        "Команды «{name}» нет. Может быть, вы имели в виду {options}? Список команд: {help}."
    ),
    "unknown": "Неизвестная команда «{word}». Список команд: {help}.",
    "unknown.suggest": (
        "Неизвестная команда «{word}». Может быть, вы имели в виду {options}? Список команд: {help}."
    ),
    "not_installed": "В этом канале выбрана система правил «{name}», но она не установлена.",
    "need.player": (
        "Для команды {command} нужна подтверждённая учётная запись: войдите через службы сети (или"
        " попросите администратора доверять этой сети) и попробуйте снова."
    ),
    "need.storyteller": "Команда {command} доступна только Рассказчику, а у вас этой роли нет.",
    "not_allowed": "Команда {command} здесь не разрешена.",
    "internal": "У нас что-то сломалось; ничего не сохранено.",
    "param.missing": "{command}: не указан параметр «{label}» — {description}.",
    "param.not_integer": "{command}: параметр «{label}» должен быть целым числом, а не «{word}».",
    "param.not_modifier": (
        "{command}: параметр «{label}» пишется как +N или -N (например, +2), а не «{word}»."
    ),
    "param.too_low": "{command}: параметр «{label}» должен быть не меньше {minimum}, а не {word}.",
    "param.too_high": "{command}: параметр «{label}» должен быть не больше {maximum}, а не {word}.",
    "param.not_choice": "{command}: параметр «{label}» может быть только {choices}, а не «{word}».",
    "param.extra": "{command}: лишнее «{word}», столько эта команда не принимает.",
    "param.line": "{label}: {description} ({details})",
    "param.required": "обязательно",
    "param.optional": "можно не указывать",
    "param.keyword": "после слова {keyword}",
    "param.flag": "слово {keyword}",
    "param.range": "от {minimum} до {maximum}",
    "param.minimum": "не меньше {minimum}",
    "param.maximum": "не больше {maximum}",
    "param.many": "одно или несколько значений",
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
    "verify.none": "В журнале нет броска с кодом «{id}».",
    "verify.secret": "#{id} — тайный бросок: его видят только бросавший и Рассказчики.",
    "verify.line": (
        "#{id}: {who} ({identity}) — бросок по системе «{system}», канал {where}, {when}: {detail}"
    ),
    "verify.no_dice": "кубики не бросались",
    "verify.side": "сторона {n}",
    "verify.vs": "—",  # not «против»: it wants the genitive, which a name cannot be put in
    "verify.wins": "побеждает {winner}, разница {margin}",
    "verify.wins_plain": "побеждает {winner}",
    "verify.no_winner": "без победителя",
    "verify.rerolls": (
        "; до этого {n:plural:была:были:было} {n} {n:plural:ничья:ничьи:ничьих},"
        " {n:plural:её:их:их} перебросили"
    ),
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
    "unlink.none": "У вас нет связанной учётной записи {platform}. Ваши: {mine}.",
    "unlink.many": (
        "У вас {n} {n:plural:учётная запись:учётные записи:учётных записей} {platform} ({keys}):"
        " напишите unlink ПЛАТФОРМА:ID для одной из них."
    ),
    "unlink.only": "{key} — ваша единственная учётная запись: отвязывать её не от чего.",
    "unlink.done": "{key} теперь отдельный человек без персонажей; персонажи остаются у {rest}.",
    "st.unknown": "Неизвестная команда Рассказчика «{word}». ",
    "st.unknown.suggest": "Неизвестная команда Рассказчика «{word}»; может быть, вы имели в виду {options}? ",
    "st.commands": "Команды Рассказчика: {names}. Справка по одной из них: help КОМАНДА.",
    "st.identity": (
        "«{word}» — не учётная запись: напишите ПЛАТФОРМА:ID, например discord:80351110224678912,"
        " sl:<uuid аватара>, matrix:@ana:example.org, irc:libera/ana или console:ana."
    ),
    "person.unknown": (
        "Никого по имени {name} шлюз ещё не встречал: напишите ПЛАТФОРМА:ID,"
        " например discord:80351110224678912."
    ),
    "person.ambiguous": (
        "Имя {name} носят несколько человек ({keys}): укажите одного из них как ПЛАТФОРМА:ID."
    ),
    "st.since": (
        "Не удаётся прочитать «{text}» как время: напишите --since 2h, 30m, 3d, today, 2026-11-30"
        " или 2026-11-30T18:00."
    ),
    "st.already": "{key} уже Рассказчик.",
    "st.added": "{key} ({name}) теперь Рассказчик на всех связанных платформах.",
    "st.added.log": "{name}: {key} теперь Рассказчик.",
    "st.not": "{key} — не Рассказчик.",
    "st.owner": (
        "{key} — владелец хранилища ({owner}, настройка [vault] owner): чтобы снять роль, измените"
        " эту настройку."
    ),
    "st.removed": "{key} больше не Рассказчик.",
    "st.removed.log": "{name}: {key} больше не Рассказчик.",
    "st.list.owner": "Владелец хранилища: {owner}.",
    "st.list.no_owner": "Владелец хранилища не задан ([vault] owner).",
    "st.list.others": " Рассказчики: {people}.",
    "st.list.none": " Других Рассказчиков нет.",
    "st.list.no_identity": "без учётной записи",
    "st.flag_value": "Для {flag} нужно значение, например {flag} 2h.",
    "st.limit": "--limit — число от 1 до {most}.",
    "st.log.no_character": (
        "Персонажа {name} в системе {system} нет. Напишите st log [ИМЯ] [--since 2h] [--limit N]."
    ),
    "st.log.for": " — {name}",
    "st.log.since": " с {when}",
    "st.log.empty": "Журнал Рассказчика{scope} пуст.",
    "st.log.head": (
        "Журнал Рассказчика{scope}, {n:plural:последняя:последние:последние} {n}"
        " {n:plural:запись:записи:записей}:"
    ),
    "st.history.usage": "Напишите st history ИМЯ.",
    "st.history.no_character": "Персонажа {name} в системе {system} нет.",
    "st.history.head": (
        "История персонажа {name}, {n:plural:последняя:последние:последние} {n}"
        " {n:plural:запись:записи:записей}:"
    ),
    "st.history.empty": "У персонажа {name} пока нет истории.",
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
