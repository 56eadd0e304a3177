"""The typed parameters (``gateway.core.params``) of the shared sheet and initiative commands
(``player_sheets``, ``storyteller_sheets``, ``initiative_tracker``), in English, Czech and Russian,
under the names the systems' own commands use for the same meaning (``name``, ``field``, ``value``).

The handlers read their words as before, so a line of a system's own grammar still reaches them:
only a character's name a command cannot do without is ``required`` (the router names it in the
reader's language); a field and its value stay optional, so the handler's refusal lists the fields.
"""

from __future__ import annotations

from gateway.core.core_params import CHARACTER
from gateway.core.params import Param

NEW_NAME = Param(
    "name",
    "text",
    "the new character's name, up to 60 characters",
    required=True,
    texts={
        "cs": ("jméno", "jméno nové postavy, nejvýš 60 znaků"),
        "ru": ("имя", "имя нового персонажа, не больше 60 символов"),
    },
)
OWN = Param(
    "name",
    "own_character",
    "one of your characters; char list shows them",
    required=True,
    texts={
        "cs": ("postava", "jedna z vašich postav; vypíše je char list"),
        "ru": ("персонаж", "один из ваших персонажей; их покажет char list"),
    },
)
SHOWN = Param(
    "name",
    "character",
    "one of your characters (a Storyteller: anyone's); your active one without it",
    texts={
        "cs": ("postava", "jedna z vašich postav (Vypravěč: kohokoli); bez něj vaše aktivní"),
        "ru": ("персонаж", "один из ваших персонажей (Рассказчику — любой); без него ваш активный"),
    },
)
FIELD = Param(
    "field",
    "word",
    "the field: a trait or another field of the sheet",
    texts={
        "cs": ("pole", "pole deníku: Vlastnost nebo jiný údaj"),
        "ru": ("поле", "поле листа: атрибут или другое поле"),
    },
)
VALUE = Param(
    "value",
    "text",
    "its new value",
    texts={"cs": ("hodnota", "jeho nová hodnota"), "ru": ("значение", "его новое значение")},
)
INIT_NAME = Param(
    "name",
    "text",
    "the name as the initiative shows it",
    required=True,
    texts={
        "cs": ("jméno", "jméno, jak ho ukazuje pořadí iniciativy"),
        "ru": ("имя", "имя, как его показывает порядок инициативы"),
    },
)

NONE: tuple[Param, ...] = ()  # takes no arguments
CHAR_NEW = (NEW_NAME,)
CHAR_USE = (OWN,)
SHEET = (SHOWN,)
SET = (FIELD, VALUE)
ST_SET = (CHARACTER, FIELD, VALUE)
ST_APPROVE = (CHARACTER,)
INIT_REMOVE = (INIT_NAME,)
