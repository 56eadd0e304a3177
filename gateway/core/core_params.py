"""The typed parameters (``gateway.core.params``) of the core's own commands, by command name, with their
labels and descriptions in every language the core speaks: what the router binds, ``help COMMAND``
lists, Discord offers as options and the console completes.

Each command module registers its commands with ``params=PARAMS[name]``. The handlers go on
reading their words where the declaration cannot say everything (``stats me``, ``--since=2h``).
"""

from __future__ import annotations

from gateway.core.i18n import LANGUAGES
from gateway.core.params import Kind, Param

LOG_MAX = 200  # ``st log``/``st history --limit N``: entries shown at most

_SINCE = Param(
    "since",
    "word",
    "how far back: 2h, 30m, 3d, today, 2026-11-30 or 2026-11-30T18:00",
    keyword="--since",
    texts={
        "cs": ("od kdy", "jak daleko zpět: 2h, 30m, 3d, today, 2026-11-30 nebo 2026-11-30T18:00"),
        "ru": ("с какого времени", "насколько назад: 2h, 30m, 3d, today, 2026-11-30 или 2026-11-30T18:00"),
    },
)
_LIMIT = Param(
    "limit",
    "integer",
    "how many entries to show",
    keyword="--limit",
    minimum=1,
    maximum=LOG_MAX,
    texts={"cs": ("počet", "kolik záznamů vypsat"), "ru": ("количество", "сколько записей показать")},
)
_CHRONICLE = Param(
    "chronicle",
    "flag",
    "the chronicle's macro, shared in this channel; Storytellers save it",
    keyword="--chronicle",
    texts={
        "cs": ("kronika", "makro kroniky, společné v tomto kanálu; ukládá ho Vypravěč"),
        "ru": ("хроника", "макрос хроники, общий в этом канале; сохраняет Рассказчик"),
    },
)
_MACRO = Param(
    "name",
    "word",
    "the macro's name",
    required=True,
    texts={"cs": ("jméno", "jméno makra"), "ru": ("имя", "имя макроса")},
)
CHARACTER = Param(
    "name",
    "character",
    "the character",
    required=True,
    texts={"cs": ("postava", "jméno postavy"), "ru": ("персонаж", "имя персонажа")},
)
_IDENTITY = Param(
    "identity",
    "person",
    "the name of someone seen here, or PLATFORM:ID, e.g. discord:80351110224678912",
    required=True,
    texts={
        "cs": (
            "identita",
            "jméno někoho, koho brána už viděla, nebo PLATFORMA:ID, např. discord:80351110224678912",
        ),
        "ru": (
            "учётная запись",
            "имя того, кого шлюз уже встречал, или ПЛАТФОРМА:ID, например discord:80351110224678912",
        ),
    },
)
_HOUSE_RULE = Param(
    "name",
    "house_rule",
    "the house rule's name; house lists them",
    required=True,
    texts={
        "cs": ("pravidlo", "název domácího pravidla; vypíše je příkaz house"),
        "ru": ("правило", "название домашнего правила; список выводит команда house"),
    },
)
_EXPRESSION = Param(
    "expression",
    "notation",
    "dice notation: 2d6+3, 4d6kh3, 3d6!, 4d6r1, 6d10>=7f1, 4dF, d20 adv, 6x 4d6kh3",
    required=True,
    texts={
        "cs": ("výraz", "kostková notace: 2d6+3, 4d6kh3, 3d6!, 4d6r1, 6d10>=7f1, 4dF, d20 adv, 6x 4d6kh3"),
        "ru": (
            "выражение",
            "нотация кубиков: 2d6+3, 4d6kh3, 3d6!, 4d6r1, 6d10>=7f1, 4dF, d20 adv, 6x 4d6kh3",
        ),
    },
)
_SECRET = Param(
    "secret",
    "flag",
    "only you and the Storytellers see the result",
    keyword="secret",
    texts={
        "cs": ("tajně", "výsledek uvidíte jen vy a Vypravěči"),
        "ru": ("тайно", "результат увидите только вы и Рассказчики"),
    },
)


def _retired(kind: Kind, description: str, cs: str, ru: str) -> tuple[Param, ...]:
    return (
        Param(
            "name",
            kind,
            description,
            required=True,
            texts={"cs": ("jméno", cs), "ru": ("имя", ru)},
        ),
    )


PARAMS: dict[str, tuple[Param, ...]] = {
    "help": (
        Param(
            "command",
            "text",
            "a topic or a command's name, and a page number",
            texts={
                "cs": ("příkaz", "téma nebo název příkazu a číslo strany"),
                "ru": ("команда", "тема или название команды и номер страницы"),
            },
        ),
    ),
    "lang": (
        Param(
            "channel",
            "flag",
            "set the channel's language instead of yours; Storytellers only",
            keyword="channel",
            texts={
                "cs": ("kanál", "nastaví jazyk kanálu místo vašeho; jen Vypravěč"),
                "ru": ("канал", "выбрать язык канала, а не ваш; только Рассказчик"),
            },
        ),
        Param(
            "code",
            "choice",
            "the language",
            choices=tuple(LANGUAGES),
            texts={"cs": ("jazyk", "kód jazyka"), "ru": ("язык", "код языка")},
        ),
    ),
    "verify": (
        Param(
            "id",
            "word",
            "the roll's id, shown at the end of its line: k3f9m2x",
            required=True,
            texts={
                "cs": ("ID", "ID hodu, uvedené na konci jeho řádku: k3f9m2x"),
                "ru": ("код", "код броска в конце его строки: k3f9m2x"),
            },
        ),
    ),
    "system": (
        Param(
            "name",
            "word",
            "the rule system to play in this channel; Storytellers only",
            texts={
                "cs": ("systém", "systém pravidel pro tento kanál; jen Vypravěč"),
                "ru": ("система", "система правил для этого канала; только Рассказчик"),
            },
        ),
    ),
    "link": (
        Param(
            "code",
            "word",
            "the code link gave you on your other platform; without it, a new code",
            texts={
                "cs": ("kód", "kód, který vám příkaz link dal na druhé platformě; bez něj dostanete nový"),
                "ru": (
                    "код",
                    "код, который команда link выдала на другой платформе; без него вы получите новый",
                ),
            },
        ),
    ),
    "unlink": (
        Param(
            "identity",
            "word",
            "a platform, such as discord, or one identity on it: discord:ID",
            required=True,
            texts={
                "cs": ("identita", "platforma, třeba discord, nebo jedna identita na ní: discord:ID"),
                "ru": (
                    "учётная запись",
                    "платформа, например discord, или одна учётная запись на ней: discord:ID",
                ),
            },
        ),
    ),
    "macro add": (
        _CHRONICLE,
        Param(
            "definition",
            "text",
            "NAME = COMMAND; COMMAND, with {1} or {name=default} values",
            required=True,
            texts={
                "cs": ("definice", "JMÉNO = PŘÍKAZ; PŘÍKAZ, s hodnotami {1} nebo {jméno=výchozí}"),
                "ru": ("определение", "ИМЯ = КОМАНДА; КОМАНДА, со значениями {1} или {имя=по_умолчанию}"),
            },
        ),
    ),
    "macro show": (_CHRONICLE, _MACRO),
    "macro remove": (_CHRONICLE, _MACRO),
    "house set": (
        _HOUSE_RULE,
        Param(
            "value",
            "word",
            "its value here: on or off, a number or one of its choices",
            required=True,
            texts={
                "cs": ("hodnota", "jeho hodnota zde: on nebo off, číslo nebo jedna z jeho možností"),
                "ru": ("значение", "его значение здесь: on или off, число или один из его вариантов"),
            },
        ),
    ),
    "house": (),
    "house reset": (_HOUSE_RULE,),
    "macro list": (),
    "st": (),
    "st list": (),
    "st add": (_IDENTITY,),
    "st remove": (_IDENTITY,),
    "st log": (
        Param(
            "name",
            "character",
            "a character: only the entries about them",
            texts={
                "cs": ("postava", "jen záznamy o této postavě"),
                "ru": ("персонаж", "только записи об этом персонаже"),
            },
        ),
        _SINCE,
        _LIMIT,
    ),
    "st history": (CHARACTER, _LIMIT),
    "stats": (
        Param(
            "who",
            "character",
            "me (the default), a character's name, or channel",
            texts={
                "cs": ("kdo", "me (výchozí), jméno postavy nebo channel"),
                "ru": ("кто", "me (по умолчанию), имя персонажа или channel"),
            },
        ),
        _SINCE,
        Param(
            "system",
            "word",
            "only rolls of this rule system",
            keyword="--system",
            texts={
                "cs": ("systém", "jen hody tohoto systému pravidel"),
                "ru": ("система", "только броски этой системы правил"),
            },
        ),
    ),
    "char export": (
        Param(
            "name",
            "character",
            "the character (yours; a Storyteller's, any); your active one without it",
            texts={
                "cs": ("postava", "postava (vaše; Vypravěč jakákoli); bez něj vaše aktivní"),
                "ru": ("персонаж", "персонаж (ваш; Рассказчику — любой); без него ваш активный"),
            },
        ),
        Param(
            "sheet",
            "flag",
            "the sheet without its history or portrait, short enough for st import",
            keyword="--sheet",
            texts={
                "cs": ("deník", "jen deník bez historie a portrétu, dost krátký pro st import"),
                "ru": ("лист", "только лист без истории и портрета, достаточно короткий для st import"),
            },
        ),
    ),
    "st import": (
        Param(
            "document",
            "text",
            "the character's JSON document, as char export gives it",
            required=True,
            texts={
                "cs": ("dokument", "JSON dokument postavy, jak ho vydá char export"),
                "ru": ("документ", "JSON-документ персонажа, как его выдаёт char export"),
            },
        ),
    ),
    "roll": (_EXPRESSION, _SECRET),
    "odds": (_EXPRESSION, _SECRET),
    "char bio": (
        Param(
            "text",
            "text",
            "the biography: prose, // between paragraphs",
            texts={
                "cs": ("text", "životopis: souvislý text, odstavce oddělené //"),
                "ru": ("текст", "биография: связный текст, абзацы разделены //"),
            },
        ),
        Param(
            "clear",
            "flag",
            "remove the biography",
            keyword="--clear",
            texts={"cs": ("smazat", "smaže životopis"), "ru": ("удалить", "удалить биографию")},
        ),
    ),
    "char retire": _retired(
        "own_character",
        "the character to retire",
        "postava, kterou vyřadíte ze hry",
        "персонаж, которого вы выводите из игры",
    ),
    "st retire": _retired(
        "character",
        "the character to retire",
        "postava, kterou vyřadíte ze hry",
        "персонаж, которого вы выводите из игры",
    ),
}
