"""``help`` in Czech for every Pravidla command: (summary, usage) by command name, put on the
commands as ``Command.texts`` (the shared sheet and initiative commands of ``gateway.rules`` too)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from gateway import Command

CS: dict[str, tuple[str, str]] = {
    "roll": (
        "hod kostkami proti cílovému číslu, nebo měření sil",
        "roll POČET|VLASTNOST [+N|-N] [tn 2-6] [need N] [vs POČET|vs JMÉNO] [secret]",
    ),
    "odds": ("přesné šance hodu nebo měření sil", "odds POČET|VLASTNOST [tn 2-6] [need N] [vs POČET]"),
    "tug": ("ukáže přetlačování v tomto kanálu", "tug"),
    "tug start": (
        "začne přetlačování; vyhrává ten, kdo první získá náskok N",
        "tug start JMÉNO N [POČET|VLASTNOST vs POČET|VLASTNOST] [tn 2-6]",
    ),
    "tug roll": ("hodí další kolo přetlačování", "tug roll [POČET|VLASTNOST vs POČET|VLASTNOST]"),
    "tug stop": ("ukončí přetlačování (ten, kdo ho začal, nebo Vypravěč)", "tug stop"),
    "char": ("seznam vašich postav v Pravidlech", "char"),
    "char list": ("seznam vašich postav v Pravidlech", "char list"),
    "char new": ("vytvoří postavu v Pravidlech a udělá ji aktivní", "char new JMÉNO"),
    "char use": ("vybere vaši aktivní postavu", "char use JMÉNO"),
    # gateway.rules.retire (its own Czech texts are the same)
    "char retire": (
        "vyřadí vaši postavu ze hry (hody a záznamy zůstanou, jméno se uvolní)",
        "char retire JMÉNO",
    ),
    "st retire": ("Vypravěč: vyřadí kteroukoli postavu ze hry (zapisuje se do auditu)", "st retire JMÉNO"),
    "sheet": ("ukáže deník postavy", "sheet [JMÉNO]"),
    "st set": (
        "Vypravěč: nastaví pole deníku (zapisuje se do auditu)",
        "st set JMÉNO POLE HODNOTA (vlastnost 0–10, celerita 0–2, lovecký ano|ne, potence 0–2)",
    ),
    "init": ("ukáže pořadí iniciativy", "init"),
    "init join": (
        "přidá vaši aktivní postavu do iniciativy",
        "init join [lovecký] [celerita základní|pokročilá]",
    ),
    "init add": (
        "Vypravěč: přidá někoho do iniciativy",
        "init add JMÉNO [KONDICE ROZUM] [lovecký] [celerita základní|pokročilá]",
    ),
    "init roll": ("Vypravěč: určí pořadí iniciativy", "init roll"),
    "init remove": ("Vypravěč: vyřadí někoho z iniciativy", "init remove JMÉNO"),
    "init clear": ("Vypravěč: smaže iniciativu", "init clear"),
}


def in_czech(commands: Iterable[Command]) -> list[Command]:
    """The commands with their Czech help; a command missing from ``CS`` is an error, so a new one
    cannot slip in with English help alone."""
    return [replace(c, texts={**c.texts, "cs": CS[c.name]}) for c in commands]
