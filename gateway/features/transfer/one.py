"""``char export [NAME]`` and ``st import DOCUMENT``: one character as a characters file (the format of
``gateway export characters``, version 2, with one entry in ``characters``), from and into the vault
the gateway runs on.

``char export`` answers with the document as compact JSON (private), and with it as the reply's
``result.document``; ``--sheet`` leaves out what makes it long, the history and the portrait (a
picture's base64 is longer than any command line), so that it can be pasted. ``st import`` takes
such a document as the rest of its line (compact JSON on one line: the command line's own limits
apply, see ``gateway.core.parser.MAX_LINE``) and checks and writes it exactly as ``gateway import
characters`` does, in the command's own unit: all of it or nothing. A refused biography or portrait
is said in the reader's language (``gateway.features.transfer.profile``).
"""

from __future__ import annotations

import io
from collections.abc import Callable

import orjson

from gateway.core.commands import Command, CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.errors import PermissionDenied, UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.i18n import Catalogue
from gateway.core.types import Invocation, Reply
from gateway.features.characters import active_character, find_character

TEXTS = Catalogue(
    {
        "en": {
            "export.none": "You have no active {system} character: write char export NAME.",
            "export.no_character": "No {system} character called {name}.",
            "export.not_yours": "{name} is not your character: players export their own characters only.",
            "import.usage": "Write st import, then the character's JSON document (what char export gives).",
            "import.json": "Nothing imported: that is not a JSON document ({reason}).",
            "import.one": "Nothing imported: the document holds {n} characters; st import takes one.",
            "import.refused": "Nothing imported: {problem}",
            "import.done": "Imported {name} ({system}) with {rolls} {rolls:plural:roll:rolls} of history.",
        },
        "cs": {
            "export.none": "Nemáte žádnou aktivní postavu v systému {system}: napište char export JMÉNO.",
            "export.no_character": "Postava {name} v systému {system} neexistuje.",
            "export.not_yours": "{name} není vaše postava: hráči exportují jen své vlastní postavy.",
            "import.usage": "Napište st import a za to JSON dokument postavy (ten, který dá char export).",
            "import.json": "Nic nebylo importováno: to není JSON dokument ({reason}).",
            "import.one": (
                "Nic nebylo importováno: dokument obsahuje {n} {n:plural:postavu:postavy:postav};"
                " st import bere jednu."
            ),
            "import.refused": "Nic nebylo importováno: {problem}",
            "import.done": (
                "Postava {name} ({system}) importována i s {rolls} {rolls:plural:hodem:hody:hody} historie."
            ),
        },
        "ru": {
            "export.none": "У вас нет активного персонажа в системе {system}: напишите char export ИМЯ.",
            "export.no_character": "Персонажа {name} в системе {system} нет.",
            "export.not_yours": "{name} — не ваш персонаж: игроки выгружают только своих персонажей.",
            "import.usage": (
                "Напишите st import и затем JSON-документ персонажа (тот, что выдаёт char export)."
            ),
            "import.json": "Ничего не импортировано: это не JSON-документ ({reason}).",
            "import.one": (
                "Ничего не импортировано: в документе {n} {n:plural:персонаж:персонажа:персонажей};"
                " st import берёт одного."
            ),
            "import.refused": "Ничего не импортировано: {problem}",
            "import.done": (
                "Персонаж {name} ({system}) импортирован вместе с {rolls}"
                " {rolls:plural:броском:бросками:бросками} истории."
            ),
        },
    }
)


async def char_export(ctx: CommandContext, inv: Invocation) -> Reply:
    """``char export [NAME] [--sheet]``: the named character, or the sender's active one, as a
    document; ``--sheet`` leaves the history and the portrait out (short enough to paste into
    ``st import``)."""
    title = ctx.system.title
    words = [w for w in inv.words if w.casefold() != "--sheet"]
    sheet_only = len(words) < len(inv.words)
    if words:
        name = " ".join(words)
        character = await find_character(ctx.session, ctx.system.name, name)
        if character is None:
            raise UserError(TEXTS.t(ctx.locale, "export.no_character", system=title, name=name[:60]))
    else:
        character = await active_character(ctx)
        if character is None:
            raise UserError(TEXTS.t(ctx.locale, "export.none", system=title))
    if not ctx.storyteller and character.owner_id != ctx.sender.person_id:
        raise PermissionDenied(TEXTS.t(ctx.locale, "export.not_yours", name=character.name))
    from gateway.features.transfer.cli import system_versions
    from gateway.features.transfer.export import export_characters

    out = io.StringIO()
    versions = system_versions(ctx.services.plugins)
    await export_characters(
        ctx.services.vault, out, system=None, versions=versions, now=ctx.now, character_id=character.id
    )
    document = orjson.loads(out.getvalue())
    if sheet_only:
        for entry in document["characters"]:
            entry.update(rolls=[], stlog=[], audit=[])
            flavour = entry.get("profile")
            if flavour is not None:
                flavour["portrait"] = None
                if not flavour["biography"]:
                    del entry["profile"]
    text = orjson.dumps(document).decode()
    return Reply(text=text, private=True, result={"kind": "character_export", "document": document})


def _document(inv: Invocation) -> str:
    """What follows ``st import`` on the line, untouched by the tokenizer (quotes, spaces)."""
    raw = inv.raw.strip()
    for word in ("st", "import"):
        raw = raw[len(word) :].lstrip() if raw[: len(word)].casefold() == word else raw
    return raw


async def st_import(ctx: CommandContext, inv: Invocation) -> Reply:
    """``st import DOCUMENT``: one character from a document, checked whole, then written."""
    # The file format's models and the import's checks, imported here: every process registers this
    # command, few run it (pydantic builds the format's models on import: a console start's 2%).
    from gateway.features.profiles import portrait_kib
    from gateway.features.transfer import profile
    from gateway.features.transfer.format import load
    from gateway.features.transfer.importer import (
        Owners,
        file_problems,
        known_identities,
        vault_problems,
        write_characters,
    )

    text = _document(inv)
    if not text:
        raise UserError(TEXTS.t(ctx.locale, "import.usage"))
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise UserError(TEXTS.t(ctx.locale, "import.json", reason=str(exc)[:80])) from None
    count = (
        len(data["characters"]) if isinstance(data, dict) and isinstance(data.get("characters"), list) else 1
    )
    if count != 1:
        raise UserError(TEXTS.t(ctx.locale, "import.one", n=count))
    doc, problems = load(data)
    if doc is None or problems:
        raise UserError(TEXTS.t(ctx.locale, "import.refused", problem=problems[0]))
    problems = file_problems(doc, ctx.services.plugins.registry.systems)
    if problems:
        raise UserError(TEXTS.t(ctx.locale, "import.refused", problem=problems[0]))
    try:
        limit = portrait_kib(ctx.services.settings.section("web"))
    except ValueError as exc:  # where no web adapter validated the table
        raise UserError(str(exc)) from None
    unfit = profile.problems(doc, limit)
    if unfit:
        raise UserError(TEXTS.t(ctx.locale, "import.refused", problem=unfit[0].text(ctx.locale)))
    owners = Owners(await known_identities(ctx.session, doc))
    problems, refs = await vault_problems(ctx.session, doc, owners)
    if problems:
        raise UserError(TEXTS.t(ctx.locale, "import.refused", problem=problems[0]))
    await write_characters(ctx.session, doc, owners, refs)
    character = doc.characters[0]
    await ctx.audit("st.import", field_name=character.name, old=None, new=character.system)
    system = ctx.services.plugins.registry.systems[character.system].title
    done = TEXTS.t(ctx.locale, "import.done", name=character.name, system=system, rolls=len(character.rolls))
    return Reply(text=done, private=True, result={"kind": "character_import", "name": character.name})


HELP = {
    "char export": {
        "cs": ("vypíše postavu jako JSON dokument", "char export [JMÉNO] [--sheet]"),
        "ru": ("выгрузить персонажа JSON-документом", "char export [ИМЯ] [--sheet]"),
    },
    "st import": {
        "cs": ("importuje postavu z JSON dokumentu", "st import DOKUMENT"),
        "ru": ("импортировать персонажа из JSON-документа", "st import ДОКУМЕНТ"),
    },
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "char export",
            char_export,
            "a character as a JSON document (the export format)",
            "char export [NAME] [--sheet]",
            texts=HELP["char export"],
            params=PARAMS["char export"],
            private=True,
        )
    )
    register(
        Command(
            "st import",
            st_import,
            "import one character from a JSON document",
            "st import DOCUMENT",
            role="storyteller",
            texts=HELP["st import"],
            params=PARAMS["st import"],
            private=True,
        )
    )
