"""Tug of war (the book's Example 3, arm-wrestling): rounds of a contest whose differences add up; the
first side to be ahead by the Storyteller's number of successes wins. The channel's ``tug`` document."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, faces
from gateway.core import scene
from gateway.features.characters import find_character
from gateway.rules.numbers import is_digits
from gateway.vault.models import Character
from plugins.nightwanderers import tactics
from plugins.nightwanderers.commands import (
    ROLL_OPTIONS,
    SYSTEM,
    WORDS,
    RolledPool,
    build_pool,
    difficulty_of,
    fail,
    load_actor,
    log,
    my_actor,
    refuse_self,
    t,
    trait_pool,
)
from plugins.nightwanderers.house import house
from plugins.nightwanderers.registry import command
from plugins.nightwanderers.store import TUG

COMMANDS = CommandSet(SYSTEM)
START_USAGE = "tug start OPPONENT N POOL vs POOL [diff 2-6]"
MAX_GOAL = 20


async def opponent_pool(
    ctx: CommandContext, name: str, character: Character | None, words: tuple[str, ...]
) -> RolledPool:
    """``vs 4`` (dice) or ``vs TRAIT`` (the opponent's, when the opponent is a character)."""
    term = WORDS.term(ctx, words, "err.tug_usage")
    if term.number is not None:
        return build_pool(ctx, term, None)
    if character is None:
        raise fail(ctx, "err.no_character", name=name[:60])
    return trait_pool(ctx, await load_actor(ctx, character), WORDS.resolve(ctx, term.base), term)


def no_words(ctx: CommandContext, inv: Invocation) -> None:
    """``tug``, ``tug roll`` and ``tug stop`` take no words: ``tug strat …`` is a typo, not a look."""
    if inv.words:
        raise fail(ctx, "err.tug_usage")


@command(
    COMMANDS,
    "tug start",
    "start a tug of war: the first to lead by N successes wins",
    START_USAGE,
    (
        "начать противоборство: побеждает первый, кто наберёт перевес в N успехов",
        "tug start ПРОТИВНИК N ПУЛ против ПУЛ [трудность 2-6]",
    ),
)
async def tug_start_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "DM решает, что выиграет вампир, первым набравший 3 Успеха."\""""
    words = list(inv.words)
    at = next((i for i, w in enumerate(words) if i > 0 and is_digits(w)), None)
    if at is None or at + 1 >= len(words):
        raise fail(ctx, "err.tug_usage")
    name, goal = " ".join(words[:at])[:60], int(words[at])
    if not 1 <= goal <= MAX_GOAL:
        raise fail(ctx, "err.tug_goal", max=MAX_GOAL)
    if await scene.load(ctx, TUG) is not None:
        raise fail(ctx, "err.tug_running")
    pools = ["vs" if w.casefold() == "против" else w for w in words[at + 1 :]]
    split = WORDS.split(ctx, pools, ROLL_OPTIONS, flags=())
    if split.right is None:
        raise fail(ctx, "err.tug_usage")
    term = WORDS.term(ctx, split.left, "err.tug_usage")
    actor = await my_actor(ctx, required=term.number is None)
    character = await find_character(ctx.session, SYSTEM, name)
    refuse_self(ctx, actor, character)
    if actor is not None and name.casefold() == actor.name.casefold():
        raise fail(ctx, "err.self_contest", name=actor.name)
    left = build_pool(ctx, term, actor)
    right = await opponent_pool(ctx, name, character, split.right)
    diff, _ = difficulty_of(ctx, split.options.get("difficulty", house(ctx).default_difficulty))
    data: dict[str, Any] = {
        "left": actor.name if actor else ctx.name,
        "left_id": actor.id if actor else None,
        "right": name,
        "pools": [left.dice, right.dice],
        "goal": goal,
        "difficulty": diff,
        "balance": 0,
        "round": 0,
    }
    await scene.save(ctx, TUG, data)
    text = t(
        ctx, "tug.started", left=data["left"], right=name, goal=goal, diff=diff, lp=left.dice, rp=right.dice
    )
    return Reply(text=text, result={"kind": "tug", "system": SYSTEM, "tug": data})


def standing(ctx: CommandContext, data: dict[str, Any]) -> str:
    balance = int(data["balance"])
    if balance == 0:
        return t(ctx, "tug.even", goal=data["goal"])
    leader = data["left"] if balance > 0 else data["right"]
    return t(ctx, "tug.leads", leader=leader, n=abs(balance), goal=data["goal"])


@command(COMMANDS, "tug", "show the tug of war here", "tug", ("показать противоборство здесь", "tug"))
async def tug_command(ctx: CommandContext, inv: Invocation) -> Reply:
    no_words(ctx, inv)
    data = await scene.load(ctx, TUG)
    if data is None:
        return Reply(text=t(ctx, "tug.none"), result={"kind": "tug", "system": SYSTEM, "tug": None})
    return Reply(text=standing(ctx, data), result={"kind": "tug", "system": SYSTEM, "tug": data})


@command(
    COMMANDS,
    "tug roll",
    "roll the next round of the tug of war",
    "tug roll",
    ("следующий ход противоборства", "tug roll"),
)
async def tug_roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    no_words(ctx, inv)
    data = await scene.load(ctx, TUG)
    if data is None:
        raise fail(ctx, "tug.none")
    pools = (int(data["pools"][0]), int(data["pools"][1]))
    outcome = tactics.tug_round(
        int(data["balance"]), int(data["goal"]), pools, ctx.dice, int(data["difficulty"])
    )
    data = {**data, "balance": outcome.balance, "round": int(data["round"]) + 1}
    result = {**outcome.as_result(), "round": data["round"], "left": data["left"], "right": data["right"]}
    for side, who in zip(result["sides"], (data["left"], data["right"]), strict=True):
        side["who"] = who  # ``verify`` names each side
    line = t(
        ctx,
        "tug.round",
        round=data["round"],
        left=data["left"],
        right=data["right"],
        left_faces=faces(outcome.left.dice),
        right_faces=faces(outcome.right.dice),
        ls=outcome.left.successes,
        rs=outcome.right.successes,
    )
    if outcome.winner is None:
        await scene.save(ctx, TUG, data)
        after = standing(ctx, data)
    else:
        await scene.drop(ctx, TUG)
        winner = data["left"] if outcome.winner == 0 else data["right"]
        lead = abs(outcome.balance)  # a last round may overshoot the goal: the lead is told as it is
        key = "tug.won" if lead == data["goal"] else "tug.won.more"
        after = t(ctx, key, winner=winner, n=lead, goal=data["goal"])
    actor = await my_actor(ctx, required=False, able=False)
    return await log(ctx, result, [line, after], actor)


@command(
    COMMANDS, "tug stop", "call the tug of war off", "tug stop", ("прекратить противоборство", "tug stop")
)
async def tug_stop_command(ctx: CommandContext, inv: Invocation) -> Reply:
    no_words(ctx, inv)
    if await scene.load(ctx, TUG) is None:
        raise fail(ctx, "tug.none")
    await scene.drop(ctx, TUG)
    return Reply(text=t(ctx, "tug.stopped"), result={"kind": "tug", "system": SYSTEM, "tug": None})
