"""The typed parameters of Decanter, Dramatic Systems, Pravidla and Night Wanderers
(``plugins/*/params.py``): each names a real command, speaks every language its system ships, means
the same thing under the same name in every system (Discord merges one slash command from all of
them), and takes every line the systems' own grammars take, since the router binds the words
before the handler runs: a declaration that refused a good line would break a command."""

from __future__ import annotations

import dataclasses
import shlex
from types import ModuleType

import pytest

from gateway import Command, RuleSystem
from gateway.core.params import Param, ParamError, bind, render
from plugins import decanter, dramatic, nightwanderers, pravidla
from plugins.decanter import params as decanter_params
from plugins.dramatic import params as dramatic_params
from plugins.nightwanderers import params as nightwanderers_params
from plugins.nightwanderers.words import translate
from plugins.pravidla import params as pravidla_params

SYSTEMS: dict[str, tuple[RuleSystem, ModuleType]] = {
    "decanter": (decanter.DECANTER, decanter_params),
    "dramatic": (dramatic.DRAMATIC, dramatic_params),
    "pravidla": (pravidla.PRAVIDLA, pravidla_params),
    "nightwanderers": (nightwanderers.NIGHT_WANDERERS, nightwanderers_params),
}


def commands_of(system: RuleSystem) -> dict[str, Command]:
    return {c.name: c for c in system.commands()}


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_declaration_is_on_its_command(name: str) -> None:
    system, module = SYSTEMS[name]
    commands = commands_of(system)
    assert set(module.PARAMS) <= set(commands), "a declaration for no command"
    for command_name, params in module.PARAMS.items():
        assert commands[command_name].params == params, command_name


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_parameter_speaks_the_systems_languages(name: str) -> None:
    system, module = SYSTEMS[name]
    others = [locale for locale in system.locales if locale != "en"]
    for command_name, params in module.PARAMS.items():
        for param in params:
            assert param.description, (command_name, param.name)
            for locale in others:
                label, description = param.texts.get(locale, ("", ""))
                assert label and description, (command_name, param.name, locale)
                assert description != param.description, (command_name, param.name, locale)


def test_one_name_means_one_thing_in_every_system() -> None:
    """Discord merges a command of every system into one slash command (``roll``): an option of one
    name has one kind in it (an integer here, a word there would not merge). The words typed may
    differ (Pravidla's ``tn``, Dramatic's ``diff``): the channel's system renders its own."""
    seen: dict[tuple[str, str], tuple[str, Param]] = {}
    for name, (_, module) in SYSTEMS.items():
        for command, params in module.PARAMS.items():
            for param in params:
                key = (command, param.name)
                if key in seen:
                    where, first = seen[key]
                    same = (param.kind, param.many, param.required) == (
                        first.kind,
                        first.many,
                        first.required,
                    )
                    assert same, (command, param.name, name, where)
                else:
                    seen[key] = (name, param)
    # The roll's shared options are the same across systems.
    for name in ("dramatic", "pravidla", "nightwanderers"):
        [difficulty] = [p for p in SYSTEMS[name][1].PARAMS["roll"] if p.name == "difficulty"]
        assert difficulty.kind == "integer"
    for name in SYSTEMS:
        roll = {p.name: p for p in SYSTEMS[name][1].PARAMS["roll"]}
        # Not required: the handler's own "Which pool?" explains a roll with none.
        assert roll["pool"].kind == "pool" and not roll["pool"].required
        assert roll["against"].keyword == "vs" and roll["against"].kind == "pool"


# Lines the systems take today (from their usage lines, their tests and their books), as typed.
GOOD = {
    "decanter": [
        "roll 3+2 dc 4",
        "roll dex+firearms dc hard adv",
        "roll dex + firearms +1 dc very hard adv adv",
        "roll 5 dc 12 aid 2 aid npc 4 half force ext",
        "roll 5 vs npc 6",
        "roll 5 vs Bob dex+stealth madv secret",
        "odds 3 dc 2 dis",
        "sp",
        "sp Mira Vance",
        "sp give Mira Vance 2",
        "sp bonus 2 1",
        "downgrade",
        "downgrade 2",
        "sp spend reroll xp",
        "sp refund Mira Vance",
        "cond",
        "cond add Shaken scene penalty 'Disadvantage on Composure rolls' for Mira Vance",
        "cond resolve Shaken for Mira",
        "ext hard 3",
        "ext very hard 2 for Mira Vance",
        "ext stop",
    ],
    "dramatic": [
        "roll 6 diff 7",
        "roll dex+brawl wp",
        "roll wits+gang_lore for streetwise",
        "roll retry",
        "roll 5 vs 4",
        "roll 5 diff 12",
        "roll 5 diff -3 spec",
        "roll 6 diff 6 vs Bob dex+dodge diff 7 spec secret",
        "odds 6 diff 7 reflex",
    ],
    "pravidla": [
        "roll 3",
        "roll síla +1 tn 5 need 2",
        "roll 4 cc 3",
        "roll 4 tn 5 tn 6",  # the handler's "said twice"
        "roll 3 vs Jan Novák",
        "roll 3 vs 4 secret",
        "odds 5 tn 3 need 2 vs 4",
        "tug start Jan Novák 3 síla vs síla tn 5",
        "tug roll",
        "tug roll 3 vs 4",
        "init join lovecký celerita základní",
        "init join hunting celerity advanced",
        "init add Strážný 3 2 hunting",
    ],
    "nightwanderers": [
        "roll 3",
        "roll сила +1 diff 5 need 2",
        "roll 2 diff 8",
        "roll 2 diff 1",
        "roll 2 сл 5",
        "roll 3 vs Иван Грозный сила secret",
        "odds 4 diff 3 need 2 vs 3",
        "heal",
        "heal 3",
        "discipline basic",
        "discipline advanced Доминирование",
        "boost 2",
        "feed",
        "feed 3 человек",
        "feed cow",
        "frenzy",
        "frenzy кровь",
        "give 2 Иван Грозный",
        "attack Иван когти уклонение",
        "attack pool 4 str 3 def 2 soak 1",
        "shoot Иван long arrow dodge pool 4",
        "sun direct 3",
        "sun indirect 2 Иван Грозный",
        "fire small surprise",
        "fire large 2 Иван",
        "damage 3 deep Иван Грозный",
        "damage 2 Иван",
        "dismember Иван 2",
        "hunt город",
        "hunt город 5",
        "sneak vs 3",
        "sneak 4 vs Иван",
        "grapple Иван",
        "grapple pool 4 str 3 def 2 Иван",
        "grapple damage",
        "bite Иван",
        "drink 2 Иван",
        "grapple release",
        "pursue celerity basic vs Иван potence advanced",
        "tug start Иван 3 сила vs сила diff 5",
        "humanity buy",
        "humanity buy 2",
        "turn",
        "turn 3",
        "init join инстинкт быстрота начальная",
        "init add Стражник hunting",
        # Russian option words, translated by the system after the router has bound the words
        "roll 3 трудность 5 нужно 2 против 4 тайно",
        "sun прямой 3 Иван",
        "fire небольшой внезапно",
        "sneak против 3",
        "damage 3 глубокие Иван",
        "hunt деловая часть города 5",
        "feed 2 корову",
        "attack Иван когтями",
        "shoot Иван в упор стрелой",
        "tug start Иван 3 сила против сила трудность 5",
    ],
}


def _bind(name: str, line: str) -> dict[str, object]:
    system, _ = SYSTEMS[name]
    commands = commands_of(system)
    words = shlex.split(line)
    for size in (3, 2, 1):  # the longest command name first, as the router finds it
        command = commands.get(" ".join(words[:size]))
        if command is not None and len(words) >= size:
            return bind(command.params, words[size:])
    raise AssertionError(f"no command for {line!r}")


@pytest.mark.parametrize(("name", "line"), [(n, line) for n, lines in GOOD.items() for line in lines])
def test_a_line_the_system_takes_binds(name: str, line: str) -> None:
    _bind(name, line)


@pytest.mark.parametrize("line", GOOD["nightwanderers"])
def test_a_night_wanderers_line_binds_again_once_translated(line: str) -> None:
    """Night Wanderers reads Russian option words at entry (``entry.args_of`` binds the translated
    words again): the translation of a line that fits fits too."""
    system, _ = SYSTEMS["nightwanderers"]
    commands = commands_of(system)
    words = shlex.split(line)
    size = next(n for n in (2, 1) if " ".join(words[:n]) in commands)
    command = commands[" ".join(words[:size])]
    bind(command.params, translate(command.name, words[size:]))


def test_russian_option_words_mean_their_keywords_once_translated() -> None:
    roll = commands_of(SYSTEMS["nightwanderers"][0])["roll"]
    words = translate("roll", ["3", "трудность", "5", "нужно", "2", "против", "4", "тайно"])
    assert bind(roll.params, words) == {
        "pool": "3",
        "difficulty": 5,
        "need": 2,
        "against": "4",  # the other side's pool stops at the next keyword
        "secret": True,
    }
    assert _bind("nightwanderers", "roll 3 тайно") == {"pool": "3 тайно", "secret": False}  # as typed


def test_what_binds_is_what_was_meant() -> None:
    assert _bind("pravidla", "roll síla +1 tn 5 need 2 secret") == {
        "pool": "síla +1",
        "difficulty": 5,
        "need": 2,
        "secret": True,
    }
    assert _bind("dramatic", "roll dex+brawl for brawl diff 7 wp vs 4") == {
        "pool": "dex+brawl",
        "ability": "brawl",
        "difficulty": 7,
        "willpower": True,
        "against": "4",
        "secret": False,
    }
    assert _bind("nightwanderers", "damage 3 deep Иван Грозный") == {
        "amount": 3,
        "deep": True,
        "target": ["Иван", "Грозный"],
    }
    assert _bind("nightwanderers", "sun direct 2") == {"strength": "direct", "turns": 2}


@pytest.mark.parametrize(
    ("name", "line", "problem"),
    [
        ("pravidla", "roll 4 tn 7", "too_high"),
        ("pravidla", "roll 4 tn 1", "too_low"),
        ("pravidla", "roll 4 need 0", "too_low"),
        ("pravidla", "roll 4 tn x", "not_integer"),
        ("nightwanderers", "boost 21", "too_high"),
        ("nightwanderers", "give 0 Иван", "too_low"),
        ("nightwanderers", "sun прямой x", "not_integer"),
        ("nightwanderers", "damage Иван", "not_integer"),
        ("dramatic", "roll 5 diff seven", "not_integer"),
        ("nightwanderers", "boost", "missing"),
    ],
)
def test_a_line_out_of_the_declaration_is_refused(name: str, line: str, problem: str) -> None:
    with pytest.raises(ParamError) as refused:
        _bind(name, line)
    assert refused.value.problem == problem


@pytest.mark.parametrize(
    ("name", "command", "values", "line"),
    [
        ("pravidla", "roll", {"pool": "síla +1", "difficulty": 5, "secret": True}, "síla +1 tn 5 secret"),
        (
            "dramatic",
            "roll",
            {"pool": "6", "difficulty": 7, "willpower": True, "against": "4"},
            "6 diff 7 wp vs 4",
        ),
        ("decanter", "roll", {"pool": "3+2", "dc": "hard", "against": "npc 6"}, "3+2 dc hard vs npc 6"),
        (
            "nightwanderers",
            "damage",
            {"amount": 3, "deep": True, "target": "Иван Грозный"},
            "3 deep Иван Грозный",
        ),
        ("nightwanderers", "give", {"amount": 2, "target": "Иван"}, "2 Иван"),
    ],
)
def test_typed_values_render_to_the_line_a_person_types(
    name: str, command: str, values: dict[str, object], line: str
) -> None:
    """A Discord option or a web form field builds the words the handler already reads."""
    params = commands_of(SYSTEMS[name][0])[command].params
    words = render(params, values)
    assert " ".join(words) == line
    assert _bind(name, f"{command} {line}")  # and it reads back


async def test_night_wanderers_handlers_get_the_translated_words_bound() -> None:
    """``entry.translated``: the router bound the words as typed (``против`` was pool words); the
    handler gets the translated words and their binding; with nothing bound (a command the router
    did not bind), nothing is bound after."""
    from typing import Any

    from gateway import CommandContext, Invocation
    from plugins.nightwanderers.entry import translated

    seen: list[Invocation] = []

    async def handler(ctx: CommandContext, inv: Invocation) -> None:
        seen.append(inv)

    roll = commands_of(SYSTEMS["nightwanderers"][0])["roll"]
    entered = translated(dataclasses.replace(roll, handler=handler))
    typed = ("3", "трудность", "5", "против", "4")
    ctx: Any = None
    await entered.handler(
        ctx, Invocation("roll", typed, "roll " + " ".join(typed), args=bind(roll.params, typed))
    )
    await entered.handler(ctx, Invocation("roll", typed, "roll " + " ".join(typed)))
    assert seen[0].words == ("3", "diff", "5", "vs", "4")
    assert seen[0].args == {"pool": "3", "difficulty": 5, "against": "4", "secret": False}
    assert seen[1].args == {}
