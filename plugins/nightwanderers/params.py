"""Night Wanderers' commands' typed parameters (``gateway.core.params``), by command name, in English and
in Russian (the book's words: «кубики», «трудность», «Кровь»). Handlers still read their words, so
a declaration takes every line the grammar takes: the difficulty has no range because the book
lowers a higher one to 6 with a note rather than refusing it, and words a player may say in Russian
(``кровь``, ``человек``, ``когти``) stay free text for the handler's dictionary (``entry.args_of``
binds the translated words again). A pool or a line of the command's own grammar is never
``required``: its handler explains a missing one in the book's words."""

from __future__ import annotations

from dataclasses import replace

from gateway import Command, CommandSet, Param
from gateway.rules import sheet_params
from plugins.nightwanderers.sheet import CLANS


def _ru(label: str, description: str) -> dict[str, tuple[str, str]]:
    return {"ru": (label, description)}


POOL = Param(
    "pool",
    "pool",
    "a number of dice or an attribute, with +N or -N",
    texts=_ru("кубики", "число кубиков или атрибут, можно с +N или -N"),
)
DIFFICULTY = Param(
    "difficulty",
    "integer",
    "the difficulty, 2 to 6 (4 when left out; a higher one is lowered to 6)",
    keyword="diff",
    texts=_ru("трудность", "трудность N, от 2 до 6 (без неё 4; бо́льшая снижается до 6)"),
)
NEED = Param(
    "need",
    "integer",
    "how many successes the roll needs (1 when left out)",
    minimum=1,
    keyword="need",
    texts=_ru("нужно успехов", "нужно N: сколько успехов нужно броску (без этого 1)"),
)
AGAINST = Param(
    "against",
    "pool",
    "the other side: a number of dice, or a character's name and attribute",
    keyword="vs",
    texts=_ru("против", "против …: другая сторона, число кубиков или имя персонажа и атрибут"),
)
SECRET = Param(
    "secret",
    "flag",
    "only you and the Storytellers see it",
    keyword="secret",
    texts=_ru("тайно", "бросок увидят только вы и Рассказчики"),
)
TARGET = Param(
    "target",
    "character",
    "the other character's name",
    many=True,  # a name may have spaces: it takes the rest of the line
    texts=_ru("цель", "имя другого персонажа"),
)


# ``char new NAME [CLAN]``: the shared name (Discord merges it with the other systems' ``char new``)
# and the clan as the book's Humanity table names it, by its key. A keyword, since the name takes the
# rest of the line; ``char new Мира Лесанг`` (no keyword, any spelling ``match_clan`` knows) is read
# from the words by ``WandererCharacters.new_sheet``, as before.
CLAN = Param(
    "clan",
    "choice",
    "a clan of the book (werewolves makes a werewolf, human a mortal); left out, a vampire of no clan",
    keyword="clan",
    choices=tuple(CLANS),
    # The book's names: Discord's picker shows them, and ``clan Лесанг`` reads as ``clan lesang``.
    choice_texts={
        "en": {key: english for key, (english, _, _) in CLANS.items()},
        "ru": {key: russian for key, (_, russian, _) in CLANS.items()},
    },
    texts={
        "ru": (
            "клан",
            "клан по книге (werewolves — оборотень, human — человек); если не указан, вампир без клана",
        ),
        "cs": (
            "klan",
            "klan podle knihy (werewolves – vlkodlak, human – člověk); není-li uveden, upír bez klanu",
        ),
    },
)
CHAR_NEW = (*sheet_params.CHAR_NEW, CLAN)
# Commands that take nothing after their name (their handlers refuse words after it):
# ``* * *`` and ``scene end``, ``wake``, ``boost end``, ``frenzy end``, and ``tug`` (a look at the
# tug of war), ``tug roll`` and ``tug stop``.
NOTHING = ("* * *", "scene end", "wake", "boost end", "frenzy end", "tug", "tug roll", "tug stop")


def _text(name: str, description: str, ru: tuple[str, str]) -> Param:
    """Free text: a grammar of its own (``attack``, ``pursue``), read by the handler."""
    return Param(name, "text", description, texts=_ru(*ru))


PARAMS: dict[str, tuple[Param, ...]] = {
    "roll": (POOL, DIFFICULTY, NEED, AGAINST, SECRET),
    "odds": (POOL, DIFFICULTY, NEED, AGAINST),
    "heal": (
        Param(
            "amount",
            "integer",
            "BP to spend: each heals a level of Health (1 when left out)",
            minimum=1,
            texts=_ru("BP", "сколько BP потратить: каждое восстанавливает уровень Здоровья (без указания 1)"),
        ),
    ),
    "discipline": (
        _text(
            "discipline",
            "basic|advanced [NAME]: the level and the discipline's name",
            ("дисциплина", "начальная|продвинутая [НАЗВАНИЕ]: уровень и название дисциплины"),
        ),
    ),
    "boost": (
        Param(
            "amount",
            "integer",
            "how much to raise Strength and Physical, 1 to 20",
            required=True,
            minimum=1,
            maximum=20,
            texts=_ru("на сколько", "на сколько поднять Силу и ФА, от 1 до 20"),
        ),
    ),
    "feed": (
        _text(
            "feeding",
            "[N] [human|cow|dog|cat]: turns and the victim",
            ("кормление", "[N] [человек|корова|собака|кошка]: ходы и жертва"),
        ),
    ),
    "frenzy": (
        _text(
            "blood", "blood: the ravenous vampire sees blood", ("кровь", "кровь: голодный вампир видит кровь")
        ),
    ),
    "give": (
        Param(
            "amount",
            "integer",
            "BP of Blood to give",
            required=True,
            minimum=1,
            maximum=100,
            texts=_ru("BP", "сколько BP Крови отдать"),
        ),
        Param("target", "character", "who drinks", required=True, many=True, texts=_ru("кому", "кто пьёт")),
    ),
    "attack": (
        _text(
            "attack",
            "TARGET [claws|weapon|fangs] [dodge], or pool N str N def N [soak N]",
            ("атака", "ЦЕЛЬ [когти|оружие|клыки] [уклонение] или pool N str N def N [soak N]"),
        ),
    ),
    "shoot": (
        _text(
            "shot",
            "TARGET long|medium|point arrow|thrown [dodge|run] [pool N] [def N] [soak N]",
            (
                "выстрел",
                "ЦЕЛЬ дальняя|средняя|в упор стрела|бросок [уклонение|бег] [pool N] [def N] [soak N]",
            ),
        ),
    ),
    "sun": (
        Param(
            "strength",
            "word",
            "direct or indirect sunlight",
            required=True,
            texts=_ru("свет", "прямой или непрямой солнечный свет"),
        ),
        Param(
            "turns",
            "integer",
            "turns in the sun, 1 to 100",
            required=True,
            minimum=1,
            maximum=100,
            texts=_ru("ходы", "сколько ходов на солнце, от 1 до 100"),
        ),
        TARGET,
    ),
    "fire": (
        Param(
            "strength",
            "word",
            "a small or a large fire",
            required=True,
            texts=_ru("огонь", "небольшой или большой огонь"),
        ),
        Param(
            "when",
            "word",
            "turns in the fire, or surprise",
            required=True,
            texts=_ru("ходы", "сколько ходов в огне, или внезапно"),
        ),
        TARGET,
    ),
    "damage": (
        Param(
            "amount",
            "integer",
            "levels of Health to take",
            required=True,
            minimum=1,
            maximum=100,
            texts=_ru("уровни", "сколько уровней Здоровья снять"),
        ),
        Param(
            "deep",
            "flag",
            "deep damage (only Fortitude soaks it)",
            keyword="deep",
            texts=_ru("глубокие", "глубокие повреждения (поглощает только Стойкость)"),
        ),
        Param(
            "target",
            "character",
            "who takes it",
            required=True,
            many=True,
            texts=_ru("кто", "кто получает урон"),
        ),
    ),
    # ``dismember Иван Грозный 2``: the name takes the words the turns leave.
    "dismember": (
        Param("target", "character", "whom", texts=_ru("цель", "кого")),
        Param(
            "turns",
            "integer",
            "turns spent on it now, 1 to 5 (1 when left out)",
            texts=_ru("ходы", "сколько ходов потрачено сейчас, от 1 до 5 (без указания 1)"),
        ),
    ),
    "hunt": (
        Param(
            "ground",
            "word",
            "where you hunt: slums, suburbs, business...",
            required=True,
            texts=_ru("местность", "где охотитесь: трущобы, пригороды, деловая часть города…"),
        ),
        Param("pool", "pool", "the dice, if not your Mind", texts=_ru("кубики", "кубики, если не Разум")),
    ),
    "sneak": (
        Param(
            "pool",
            "pool",
            "the dice, if not your Sneak pool",
            texts=_ru("кубики", "кубики, если не Красться"),
        ),
        Param(
            "against",
            "pool",
            "the Inspection: a number of dice or a name (required)",
            keyword="vs",
            texts=_ru("против", "Инспекция: число кубиков или имя (против …)"),
        ),
    ),
    "grapple": (
        _text(
            "grapple",
            "TARGET, or pool N str N def N [TARGET]",
            ("захват", "ЦЕЛЬ или pool N str N def N [ЦЕЛЬ]"),
        ),
    ),
    "grapple damage": (TARGET,),
    "bite": (TARGET,),
    "drink": (_text("drink", "[N] [TARGET]: turns and whom", ("питьё", "[N] [ЦЕЛЬ]: ходы и у кого")),),
    "grapple release": (TARGET,),
    "pursue": (
        _text(
            "pursuit",
            "[celerity basic|advanced] vs QUARRY [celerity basic|advanced] [potence basic|advanced]",
            ("погоня", "[быстрота начальная|продвинутая] vs ДОБЫЧА [быстрота …] [мощь …]"),
        ),
    ),
    "tug start": (
        _text(
            "tug",
            "OPPONENT N POOL vs POOL: the opponent, the lead that wins, both sides' dice",
            ("противоборство", "ПРОТИВНИК N КУБИКИ vs КУБИКИ: противник, победный перевес, кубики сторон"),
        ),
        DIFFICULTY,
    ),
    "humanity buy": (
        Param(
            "amount",
            "integer",
            "points of Humanity to buy (1 when left out)",
            minimum=1,
            texts=_ru("пункты", "сколько пунктов Гуманности купить (без указания 1)"),
        ),
    ),
    "turn": (
        Param(
            "amount",
            "integer",
            "turns that passed, 1 to 20 (1 when left out)",
            minimum=1,
            maximum=20,
            texts=_ru("ходы", "сколько ходов прошло, от 1 до 20 (без указания 1)"),
        ),
    ),
    "init join": (
        _text(
            "powers",
            "[hunting] [celerity basic|advanced]",
            ("способности", "[инстинкт] [быстрота начальная|продвинутая]"),
        ),
    ),
    # A name (completed from the characters, as Pravidla's ``init add``) with the powers after it; as
    # the only parameter it takes the whole line, which the handler splits at the power words.
    "init add": (
        Param(
            "name",
            "character",
            "NAME [hunting] [celerity basic|advanced]",
            texts=_ru("имя", "ИМЯ [инстинкт] [быстрота начальная|продвинутая]"),
        ),
    ),
}


PARAMS.update(dict.fromkeys(NOTHING, ()))


def with_params(commands: CommandSet) -> list[Command]:
    """The set's commands, each with its parameters from ``PARAMS``."""
    return [replace(c, params=PARAMS.get(c.name, c.params)) for c in commands.commands()]
