"""Dice notation on Discord (issue 33): ``/roll dice:2d6+3`` in any system, its autocomplete offering
notation, and ``/odds dice:...`` answered with the odds and their picture."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gateway.features.notation.examples import EXAMPLES
from tests.discord.conftest import DiscordEnv
from tests.discord.test_autocomplete import ac_env, opt, suggest  # noqa: F401 (ac_env: a fixture)
from tests.discord.test_components import final_answer

pytestmark = pytest.mark.both_modes


async def test_roll_takes_notation_in_dice(env: DiscordEnv) -> None:
    env.dice.extend([4, 5])
    answer = await env.command("roll", [opt("dice", "2d6+3")])
    content = answer["data"]["content"]
    assert content.startswith("Mira rolls 2d6+3: \\[4 5\\] + 3 → 12 #"), content  # markdown escaped
    env.dice.extend([9, 5, 10])
    pool = await env.command("roll", [opt("dice", "3")])  # a number is still a pool of the system
    assert pool["data"]["content"].startswith("Mira rolls 3 dice: 9 5 10"), pool


async def test_dice_autocomplete_offers_notation(ac_env: DiscordEnv) -> None:  # noqa: F811
    empty = await suggest(ac_env, "roll", [opt("dice", "", focused=True)])
    assert [c["value"] for c in empty] == list(EXAMPLES)
    four = await suggest(ac_env, "roll", [opt("dice", "4d", focused=True)])
    assert [c["value"] for c in four][:3] == ["4d6", "4d10", "4d20"]
    five = await suggest(ac_env, "odds", [opt("dice", "5", focused=True)])
    assert [c["value"] for c in five][:3] == ["5", "5d6", "5d10"]
    adv = await suggest(ac_env, "roll", [opt("dice", "d20 a", focused=True)])
    assert [c["value"] for c in adv] == ["d20 adv"]


async def test_odds_of_notation_come_with_a_picture(env: DiscordEnv) -> None:
    body = json.dumps(env.interaction("odds", [opt("dice", "2d6")])).encode()
    response = await env.post(body, env.sign(body))
    if response.status == 202:  # the answer with its picture went to the callback endpoint
        callback = env.fake.callbacks[json.loads(body)["id"]]
        answer: dict[str, Any] = callback.body
        assert callback.files, "the odds chart is attached"
    else:
        answer = await final_answer(env, await response.json())
    content = answer["data"]["content"]
    assert content.startswith("Odds of 2d6: mean 7; exactly: 2 2.8%"), content
