"""``char retire NAME`` and ``st retire NAME``: a character leaves play for good, for every system
whose commands include ``retire_commands(SYSTEM)``.

The character is hidden from every list (``char list``, rosters, the HUD's menus), is nobody's active
character any more, and its name is free for a new one (``gateway.features.characters.retire_character``);
its rows stay, so its rolls, Storyteller log and audit trail stay verifiable. The owner retires their
own; a Storyteller retires anyone's. Both are audited and go to the Storyteller log.
"""

from __future__ import annotations

from gateway.core.commands import Command, CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.i18n import Catalogue
from gateway.core.types import Invocation, Reply
from gateway.features.characters import find_character, lock_character, retire_character

EN = {
    "retired": (
        "{name} is retired: gone from the character lists and from play, its rolls and log kept;"
        " the name is free for a new character."
    ),
    "retired.log": "{who} retired {name} ({title}).",
    "err.char_usage": "Write char retire NAME, with the name of one of your characters (char list).",
    "err.st_usage": "Write st retire NAME.",
    "err.not_yours": "You have no {title} character called {name}: char list shows yours.",
    "err.no_such": "No {title} character called {name} is in play.",
}
CS = {
    "retired": (
        "Postava {name} je vyřazena ze hry: v seznamech postav už není, její hody a záznamy zůstávají"
        " a jméno je volné pro novou postavu."
    ),
    "err.char_usage": "Napište char retire JMÉNO se jménem některé ze svých postav (char list).",
    "err.st_usage": "Napište st retire JMÉNO.",
    "err.not_yours": "Postavu se jménem {name} ({title}) nemáte: své postavy vypíšete příkazem char list.",
    "err.no_such": "Postava se jménem {name} ({title}) ve hře není.",
}
RU = {
    "retired": (
        "Персонаж {name} выведен из игры: его больше нет в списках персонажей, броски и журнал"
        " сохранены, имя свободно для нового персонажа."
    ),
    "err.char_usage": "Напишите char retire ИМЯ, указав имя одного из своих персонажей (char list).",
    "err.st_usage": "Напишите st retire ИМЯ.",
    "err.not_yours": "У вас нет персонажа с именем {name} ({title}): ваших персонажей покажет char list.",
    "err.no_such": "Персонажа с именем {name} ({title}) в игре нет.",
}
CATALOGUE = Catalogue({"en": EN, "cs": CS, "ru": RU})

CHAR_TEXTS = {
    "cs": ("vyřadí vaši postavu ze hry (hody a záznamy zůstanou, jméno se uvolní)", "char retire JMÉNO"),
    "ru": (
        "вывести своего персонажа из игры (броски и журнал сохраняются, имя освобождается)",
        "char retire ИМЯ",
    ),
}
ST_TEXTS = {
    "cs": ("Vypravěč: vyřadí kteroukoli postavu ze hry (zapisuje se do auditu)", "st retire JMÉNO"),
    "ru": ("Рассказчик: вывести из игры любого персонажа (записывается в журнал)", "st retire ИМЯ"),
}


def retire_commands(system: str) -> list[Command]:
    """``char retire`` (the owner) and ``st retire`` (a Storyteller) for ``system``."""
    return [
        Command(
            "char retire",
            _char_retire,
            "retire one of your characters for good (rolls and log kept, the name freed)",
            "char retire NAME",
            system=system,
            texts=CHAR_TEXTS,
            params=PARAMS["char retire"],
        ),
        Command(
            "st retire",
            _st_retire,
            "Storyteller: retire any character for good (audited)",
            "st retire NAME",
            system=system,
            role="storyteller",
            texts=ST_TEXTS,
            params=PARAMS["st retire"],
        ),
    ]


async def _char_retire(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise CATALOGUE.refusal(ctx, "err.char_usage")
    character = await find_character(ctx.session, ctx.system.name, name)
    if character is None or character.owner_id != ctx.person.id:
        raise CATALOGUE.refusal(ctx, "err.not_yours", title=ctx.system.title_in(ctx.locale), name=name[:60])
    return await _retire(ctx, character.id, "char.retire", private=True)


async def _st_retire(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words)
    if not name:
        raise CATALOGUE.refusal(ctx, "err.st_usage")
    character = await find_character(ctx.session, ctx.system.name, name)
    if character is None:
        raise CATALOGUE.refusal(ctx, "err.no_such", title=ctx.system.title_in(ctx.locale), name=name[:60])
    return await _retire(ctx, character.id, "st.retire", private=False)


async def _retire(ctx: CommandContext, character_id: int | None, action: str, *, private: bool) -> Reply:
    assert character_id is not None  # a row read from the vault
    character = await lock_character(ctx.session, character_id)
    if character.retired_at is not None:  # retired meanwhile by another command
        raise CATALOGUE.refusal(
            ctx, "err.no_such", title=ctx.system.title_in(ctx.locale), name=character.name
        )
    if ctx.person.active_character_id == character.id:
        ctx.person.active_character_id = None
        ctx.session.add(ctx.person)
    await retire_character(ctx.session, character, ctx.now)
    await ctx.audit(
        action, character_id=character.id, field_name="retired", old=character.status, new="retired"
    )
    result = {"kind": "retired", "system": ctx.system.name, "character": character.name, "id": character.id}
    await ctx.stlog(
        CATALOGUE.t("en", "retired.log", who=ctx.name, name=character.name, title=ctx.system.title),
        kind="retire",
        result=result,
        character_id=character.id,
    )
    return Reply(text=CATALOGUE.say(ctx, "retired", name=character.name), private=private, result=result)
