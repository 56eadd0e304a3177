"""Random Night Wanderers lines built from the Russian option words, names of two words and tricks of
two words, by a player, another player and a DM: every line is answered, none with an internal error,
nothing logged as an error. A CI slice of 200 lines; ``GATEWAY_FUZZ_EXAMPLES=20000`` for a long run."""

from __future__ import annotations

import os
import random

import structlog

from gateway.testing import Chat
from tests.helpers.chat import make_character

VOCAB = (
    "", "0", "1", "2", "3", "5", "11", "-1", "-10", "+2", "99999", "vs", "против", "трудность", "нужно",
    "тайно", "сила", "невооруженный", "бой", "Физ.", "Защита", "Максина", "Флавиус", "Рыцарь", "крови",
    "быстрота", "начальная", "продвинутая", "могущество", "начальное", "инстинкт", "корова", "кошка",
    "пул", "защита", "поглощение", "увертка", "бег", "когти", "клыки", "средняя", "в", "упор", "стрела",
    "метательное", "прямой", "непрямой", "небольшой", "внезапно", "глубокие", "кровь", "end", "start",
    "roll", "stop", "hp", "hpmax", "blood", "bloodmax", "максимум", "Здоровья", "запас", "вид", "человек",
    "вампир", "xp", "опыт", "kind", "dead", "да", "нет", "трущобы", "деловая", "часть",
)  # fmt: skip
COMMANDS = (
    "roll", "odds", "attack", "shoot", "grapple", "grapple damage", "bite", "drink", "grapple release",
    "sneak", "hunt", "pursue", "tug start", "tug roll", "tug", "tug stop", "feed", "heal", "wake", "give",
    "boost", "boost end", "frenzy", "frenzy end", "discipline", "sun", "fire", "damage", "st set",
    "init add", "init join", "init roll", "init", "turn", "dismember", "humanity buy", "sheet", "scene end",
)  # fmt: skip
RESET = ("st set Максина hp 25", "st set Максина blood 10", "st set Флавиус hp 25", "st set Максина dead нет")


async def test_random_russian_lines_are_answered_cleanly(nw: Chat) -> None:
    await make_character(nw, "olga", "Максина", strength=4, brawl=3, dodge=3, defence=2)
    await make_character(nw, "dm", "Флавиус", strength=3)
    await make_character(nw, "ivan", '"Рыцарь крови"')
    rng = random.Random(31)
    lines = int(os.environ.get("GATEWAY_FUZZ_EXAMPLES", "200"))
    nw.dice.extend(rng.randint(1, 6) for _ in range(lines * 60))
    bad: list[tuple[str, str, str]] = []
    with structlog.testing.capture_logs() as logs:
        for i in range(lines):
            words = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 6)))
            line, who = f"{rng.choice(COMMANDS)} {words}", rng.choice(("olga", "dm", "ivan"))
            for reply in await nw.say(line, as_=who, st=who == "dm"):
                if reply.error == "internal" or not reply.text:
                    bad.append((line, who, reply.text))
            if i % 50 == 49:  # bring the characters back, so the lines keep reaching the rules
                for reset in RESET:
                    await nw.say(reset, as_="dm", st=True)
    errors = [e for e in logs if e.get("log_level") in ("error", "critical") or e.get("exc_info")]
    assert not bad and not errors, (bad[:5], errors[:5])
