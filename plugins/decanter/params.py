"""Decanter's commands' typed parameters (``gateway.core.params``), by command name: what Discord's slash
options, the console's completion, ``help`` and the web's forms offer. English only, as the system.

Handlers still read their words (``parse``): a declaration takes every line the grammar takes, so
words it cannot place (qualities ``adv``/``dis``, ``aid N``, a DC's name in two words) stay in the
pool; the DC is a word, since ``dc hard`` and ``dc 12`` are both the book's. A pool or a line of
the command's own grammar is never ``required``: its handler explains a missing one in the
system's words."""

from __future__ import annotations

from dataclasses import replace

from gateway import Command, CommandSet, Param

ROLL = (
    Param(
        "pool",
        "pool",
        "Attribute + Skill, numbers or trait names joined by +, and adv|dis|madv|mdis",
    ),
    Param(
        "dc",
        "word",
        "the DC: 1 to 8 or its name (easy, routine, moderate, hard, very hard, superhuman)",
        keyword="dc",
    ),
    Param("against", "pool", "the other side: a pool, CHARACTER POOL, or npc POOL", keyword="vs"),
    Param("half", "flag", "take half instead of rolling", keyword="half"),
    Param("force", "flag", "roll even an automatic success", keyword="force"),
    Param("ext", "flag", "a roll of the extended contest in this channel", keyword="ext"),
    Param("secret", "flag", "only you and the Storytellers see it", keyword="secret"),
)
# A name may have spaces: it takes the rest of the line (``many``), so it comes last.
NAME = Param("name", "character", "a character's name", many=True)
OWN = Param("name", "own_character", "one of your characters", many=True)

PARAMS: dict[str, tuple[Param, ...]] = {
    "roll": ROLL,
    "odds": ROLL,
    "sp": (NAME,),
    # ``sp give Mira Vance 2``: a name takes the words the number after it leaves.
    "sp give": (
        Param("name", "character", "the character", required=True),
        Param(
            "amount",
            "integer",
            "Story Points to give (a negative number takes them)",
            required=True,
            minimum=-1000,
            maximum=1000,
        ),
    ),
    "sp bonus": (
        Param(
            "amount",
            "integer",
            "Story Points to spend, a success each",
            required=True,
            minimum=1,
            maximum=100,
        ),
        Param("cost", "word", "what each costs: stain, xp, condition NAME, virtue or vice", many=True),
    ),
    "downgrade": (Param("amount", "integer", "steps down (1 unless said)", minimum=1),),
    "sp spend": (
        Param("use", "text", "what the Story Points buy"),
        Param("xp", "flag", "pay in experience instead", keyword="xp"),
    ),
    "sp refund": (Param("name", "character", "whose last spending to refund", required=True, many=True),),
    "cond": (Param("name", "character", "whose Conditions (Storytellers; yours when left out)", many=True),),
    "cond add": (
        Param(
            "condition",
            "text",
            "NAME [scene|night|resolved] [penalty TEXT] [effect EFFECT] [resist N]",
        ),
        Param("character", "character", "whose Condition (Storytellers)", keyword="for", many=True),
    ),
    "cond resolve": (
        Param("condition", "text", "the Condition to resolve"),
        Param("character", "character", "whose Condition (Storytellers)", keyword="for", many=True),
    ),
    "ext": (
        Param(
            "contest", "word", "DC K to start (K the multiplier), stop to end; nothing to show it", many=True
        ),
        Param("character", "character", "whose contest (Storytellers)", keyword="for", many=True),
    ),
}


def with_params(commands: CommandSet) -> list[Command]:
    """The set's commands, each with its parameters from ``PARAMS``."""
    return [replace(c, params=PARAMS.get(c.name, c.params)) for c in commands.commands()]
