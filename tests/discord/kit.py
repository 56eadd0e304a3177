"""A rule system for the Discord tests that declares typed parameters, as the core's and the
systems' commands declare theirs: its commands merge into the same slash commands (``/roll``,
``/st approve``, ...), so the slash options exist whatever the real systems declare yet, and a
channel of another system runs that system's command with the words the options rendered.

In a ``kit`` channel each command answers with what the router read from the line: the name and
the values ``gateway.core.params.bind`` found, as JSON (``kit trait {"rating": 3, "trait": "dex"}``),
which is how the tests see the whole way back: option -> render -> the router's tokeniser -> bind.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from gateway import Command, CommandContext, Invocation, Reply, RuleSystem, hookimpl
from gateway.core.params import Param, bind
from gateway.core.spec import Role

SYSTEM = "kit"
TIERS = ("basic", "adept", "advanced", "epic", "legendary")

POOL = Param(
    "pool",
    "pool",
    "trait or number, modifiers, wp, vs: e.g. physical +1 wp vs mental",
    texts={"cs": ("", "vlastnost nebo počet kostek a modifikátory, např. obratnost +1")},
)
# Dice notation, as the core's system-free roll takes it: declared by a second system, so that (as
# with the core's roll beside a system's) /roll has both, and each alone reads as its own line.
DICE = Param(
    "dice",
    "notation",
    "dice notation (2d6+3, 4d6kh3, d20 adv) or a number of dice",
    texts={
        "cs": ("kostky", "kostková notace (2d6+3) nebo počet kostek"),
        "ru": ("кубики", "нотация кубиков"),
    },
)
MODIFIER = Param(
    "modifier",
    "modifier",
    "dice added or taken away, -10 to +10",
    minimum=-10,
    maximum=10,
    texts={
        "cs": ("modifikátor", "kostky navíc nebo méně"),
        "ru": ("модификатор", "добавить или убрать кубики"),
    },
)
AGAINST = Param(
    "against",
    "pool",
    "a contest: the other side's pool (written after vs)",
    keyword="vs",
    texts={
        "cs": ("proti", "souboj: kostky protistrany"),
        "ru": ("против", "состязание: кубики другой стороны"),
    },
)
SECRET = Param("secret", "flag", "only you and the Storytellers see it", keyword="secret")
NAME = Param("name", "character", "the character's name", required=True)

DECLARED: dict[str, tuple[Param, ...]] = {
    "roll": (POOL, MODIFIER, AGAINST, SECRET),
    "odds": (POOL, MODIFIER, AGAINST),
    "verify": (Param("id", "word", "the roll id, e.g. k3f9m2x", required=True),),
    "char new": (Param("name", "word", "the new character's name", required=True),),
    "char use": (Param("name", "own_character", "one of your characters", required=True),),
    "trait": (
        Param("trait", "trait", "which trait", required=True),
        Param("rating", "integer", "the new rating", required=True, minimum=0, maximum=5),
    ),
    "power use": (
        Param("name", "power", "the power", required=True),
        Param("tier", "choice", "cast at a lower tier", choices=TIERS),
        Param("against", "text", "contest it: a power or a trait", keyword="vs"),
    ),
    "power add": (
        Param("name", "word", "the power's name", required=True),
        Param("tier", "choice", "tier", required=True, choices=TIERS),
        Param("trait", "trait", "the trait it keys off", required=True),
    ),
    "char set": (
        Param("field", "word", "which field", required=True),
        Param("text", "text", "the new text", required=True),
    ),
    "team start": (
        Param("trait", "trait", "the trait rolled", required=True),
        Param("mods", "text", "+N/-N"),
    ),
    "team roll": (Param("wp", "flag", "spend Willpower", keyword="wp"),),
    "init move": (NAME, Param("position", "integer", "1 is first", required=True, minimum=1)),
    "house set": (
        Param("rule", "house_rule", "the house rule", required=True),
        Param("value", "word", "its new value", required=True),
    ),
    "st approve": (NAME,),
    "st show": (NAME,),
    "st export": (NAME,),
    "st soak": (NAME, Param("value", "integer", "soak", required=True, minimum=0, maximum=10)),
}


def role(name: str) -> Role:
    return "storyteller" if name.startswith("st ") else "anyone"


async def echo(ctx: CommandContext, inv: Invocation) -> Reply:
    params = DECLARED[inv.name] if ctx.system.name == SYSTEM else (DICE,)
    args = dict(inv.args) or bind(params, inv.words)
    return Reply(text=f"kit {inv.name} {json.dumps(args, sort_keys=True, ensure_ascii=False)}")


KIT = RuleSystem(
    SYSTEM,
    "Kit",
    "typed parameters for the Discord tests",
    commands=[
        Command(name, echo, f"kit's {name}", system=SYSTEM, params=params, role=role(name))
        for name, params in DECLARED.items()
    ],
)


NOTATION = RuleSystem(
    "kitdice",
    "Kit dice",
    "dice notation for the Discord tests",
    commands=[
        Command(name, echo, f"kitdice's {name}", params=(DICE,), role="anyone") for name in ("roll", "odds")
    ],
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(KIT)
    register(NOTATION)


def commands() -> list[Command]:
    return [*KIT.commands(), *NOTATION.commands()]
