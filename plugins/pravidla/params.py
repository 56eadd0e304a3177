"""Pravidla's commands' typed parameters (``gateway.core.params``), by command name, in English and in
Czech (the book's words: «počet kostek», «cílové číslo», «Vlastnost»; «vy»). Handlers still read
their words, so a declaration takes every line the grammar takes: modifiers (``+1``) and the other
side's pool stay in the pool's words. A pool or a line of the command's own grammar is never
``required``: its handler explains a missing one in the system's words."""

from __future__ import annotations

from dataclasses import replace

from gateway import Command, CommandSet, Param
from plugins.pravidla.mechanics import MAX_TARGET, MIN_TARGET

POOL = Param(
    "pool",
    "pool",
    "a number of dice or a Trait, with +N or -N",
    texts={"cs": ("počet kostek", "počet kostek nebo Vlastnost, případně +N nebo -N")},
)
TARGET = Param(
    "difficulty",
    "integer",
    "the target number, 2 to 6 (4 when left out)",
    minimum=MIN_TARGET,
    maximum=MAX_TARGET,
    keyword="tn",
    texts={"cs": ("cílové číslo", "cílové číslo od 2 do 6 (když ho neuvedete, platí 4)")},
)
NEED = Param(
    "need",
    "integer",
    "how many successes the roll needs (1 when left out)",
    minimum=1,
    keyword="need",
    texts={"cs": ("potřebné úspěchy", "kolik úspěchů hod potřebuje (když to neuvedete, stačí 1)")},
)
AGAINST = Param(
    "against",
    "pool",
    "the other side of a contest: a number of dice, or a character's name",
    keyword="vs",
    texts={"cs": ("protivník", "druhá strana měření sil: počet kostek, nebo jméno postavy")},
)
SECRET = Param(
    "secret",
    "flag",
    "only you and the Storytellers see it",
    keyword="secret",
    texts={"cs": ("tajně", "hod uvidíte jen vy a Vypravěči")},
)
SIDES = Param(
    "sides",
    "pool",
    "POOL vs POOL: both sides' dice (the same as last round when left out)",
    texts={"cs": ("strany", "POČET vs POČET: kostky obou stran (když je neuvedete, jako v minulém kole)")},
)
POWERS = Param(
    "powers",
    "text",
    "[hunting] [celerity basic|advanced]: the Hunting Instinct and Celerity switched on",
    texts={
        "cs": ("schopnosti", "[lovecký] [celerita základní|pokročilá]: zapnutý Lovecký instinkt a Celerita")
    },
)

PARAMS: dict[str, tuple[Param, ...]] = {
    "roll": (POOL, TARGET, NEED, AGAINST, SECRET),
    "odds": (POOL, TARGET, NEED, AGAINST),
    # The opponent's name may have spaces; the first number after it is the lead.
    "tug start": (
        Param(
            "tug",
            "text",
            "NAME N [POOL vs POOL]: the opponent, the lead in successes that wins, and both sides' dice",
            texts={
                "cs": (
                    "přetlačování",
                    "JMÉNO N [POČET vs POČET]: protivník, o kolik úspěchů víc vyhrává, a kostky obou stran",
                )
            },
        ),
        TARGET,
    ),
    "tug roll": (SIDES,),
    # ``lovecký`` and ``celerita základní`` are said in Czech too: the words stay the handler's.
    "init join": (POWERS,),
    # A name takes the words the numbers after it leave (``init add Ďábelský Jack 4 3 lovecký``); a
    # Pravidla character's name alone takes its sheet's Stamina and Wits.
    "init add": (
        Param(
            "name",
            "character",
            "a name, or a Pravidla character's (its sheet's Stamina and Wits)",
            texts={"cs": ("jméno", "jméno, nebo jméno postavy z Pravidel (Kondice a Rozum z jejího deníku)")},
        ),
        Param(
            "stamina",
            "integer",
            "for someone with no sheet: Stamina, 0 to 10",
            texts={"cs": ("Kondice", "u někoho bez deníku: Kondice, 0 až 10")},
        ),
        Param(
            "wits",
            "integer",
            "for someone with no sheet: Wits, 0 to 10",
            texts={"cs": ("Rozum", "u někoho bez deníku: Rozum, 0 až 10")},
        ),
        POWERS,
    ),
}


def with_params(commands: CommandSet) -> list[Command]:
    """The set's commands, each with its parameters from ``PARAMS``."""
    return [replace(c, params=PARAMS.get(c.name, c.params)) for c in commands.commands()]
