"""Arbitrary words to every d6 command never escape as an internal error."""

from __future__ import annotations

import random

import pytest

from gateway.testing import Chat

WORDS = [
    "",
    "0",
    "1",
    "3",
    "7",
    "99",
    "-2",
    "+1",
    "vs",
    "tn",
    "diff",
    "need",
    "secret",
    "šarm",
    "сила",
    "charm",
    "mind",
    "Maxina",
    "dodge",
    "claws",
    "pool",
    "str",
    "def",
    "soak",
    "long",
    "arrow",
    "point",
    "surprise",
    "small",
    "direct",
    "blood",
    "end",
    "hunting",
    "celerity",
    "basic",
    "advanced",
    "slums",
    "'",
    '"x y"',
    "ÿ",
    "2+2",
    "--",
    "vs vs",
    "human",
    "cat",
]
COMMANDS = {
    "pravidla": [
        "roll",
        "odds",
        "tug",
        "tug start",
        "tug roll",
        "tug stop",
        "init",
        "init join",
        "init add",
        "init roll",
        "init remove",
        "init clear",
        "char",
        "char new",
        "char use",
        "sheet",
        "st set",
    ],
    "nightwanderers": [
        "roll",
        "odds",
        "char new",
        "char use",
        "sheet",
        "st set",
        "wake",
        "heal",
        "discipline",
        "boost",
        "boost end",
        "feed",
        "frenzy",
        "frenzy end",
        "attack",
        "shoot",
        "sun",
        "fire",
        "damage",
        "hunt",
        "sneak",
        "init join",
        "init add",
        "init roll",
        "init remove",
    ],
}


@pytest.mark.parametrize("system", sorted(COMMANDS))
async def test_no_internal_errors(chat: Chat, system: str) -> None:
    rng = random.Random(system)
    await chat.one(f"system {system}", as_="st", st=True)
    await chat.one("char new Maxina", as_="alice")
    chat.dice.extend([rng.randint(1, 6) for _ in range(20_000)])
    for _ in range(400):
        command = rng.choice(COMMANDS[system])
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 5)))
        for reply in await chat.say(
            f"{command} {words}", as_=rng.choice(["alice", "st"]), st=rng.random() < 0.5
        ):
            assert reply.error != "internal", f"{command} {words}"
