"""Issue 14, Discord: replies to rolls carry an embed coloured by degree, with the dice, the total and
the roll id (as Inconnu and Tzimisce answer); errors and secret rolls stay ephemeral. Every answer is
checked against Discord's documented limits (tests/discord/fake_discord.py)."""

from __future__ import annotations

import importlib

import pytest
from nacl.signing import SigningKey
from sqlmodel import select

from adapters.discord import render
from gateway import Command, CommandContext, DegreeColour, Invocation, Reply, RuleSystem
from gateway.testing import rule_system_plugin
from gateway.vault.models import RollLog
from tests.discord.conftest import DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord, message_problems, response_problems

pytestmark = pytest.mark.both_modes

EPHEMERAL = 64


def pool(value: str) -> list[dict[str, object]]:
    return [{"name": "pool", "type": 3, "value": value}]


async def test_a_roll_reply_is_an_embed_with_dice_total_degree_and_id(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    answer = await env.command("roll", pool("3"))
    assert response_problems(answer) == []
    data = answer["data"]
    async with env.gateway.services.vault.transaction() as session:
        roll = (await session.exec(select(RollLog))).one()
    # The text stays as content: notifications, search and screen readers show it.
    assert data["content"] == f"Mira rolls 3 dice: 9 5 10 → 3 (Solid) #{roll.public_id}"
    [embed] = data["embeds"]
    assert embed["title"] == "Mira · 3 dice"
    assert embed["color"] == render.GREEN
    assert embed["fields"] == [
        {"name": "Dice", "value": "`9 5 10`", "inline": True},
        {"name": "Total", "value": "**3**", "inline": True},
        {"name": "Degree", "value": "Solid", "inline": True},
    ]
    assert embed["footer"] == {"text": f"#{roll.public_id}"}
    assert "flags" not in data


@pytest.mark.parametrize(
    ("faces", "line", "degree", "colour"),
    [
        ([1], "1", "Botch", render.RED),
        ([2], "1", "Failure", render.GREY),
        ([7], "1", "Marginal", render.AMBER),
        ([10, 10, 10], "3", "Overwhelming", render.GOLD),
    ],
)
async def test_the_colour_follows_the_degree(
    env: DiscordEnv, faces: list[int], line: str, degree: str, colour: int
) -> None:
    env.dice.extend(faces)
    [embed] = (await env.command("roll", pool(line)))["data"]["embeds"]
    assert {f["name"]: f["value"] for f in embed["fields"]}["Degree"] == degree
    assert embed["color"] == colour


async def test_every_rule_systems_degree_words_have_a_colour(env: DiscordEnv) -> None:
    """Generic, not Nightcap's alone: each system declares its own degree words' colours on the one
    scale (``RuleSystem.degree_colours``), and the adapter draws them knowing no system."""
    systems = env.gateway.plugins.systems()
    for module, name in (
        ("plugins.nightcap.mechanics", "DEGREES"),
        ("plugins.decanter.mechanics", "DEGREES"),
        ("plugins.dramatic.mechanics", "DEGREES"),
        ("plugins.pravidla.mechanics", "DEGREES"),
        ("plugins.nightwanderers.mechanics", "QUALITIES"),
    ):
        words = getattr(importlib.import_module(module), name)
        system = module.split(".")[1]
        assert set(words) == set(systems[system].degree_colours), (module, words)
        for word in words:
            assert env.adapter.colours.of({"system": system, "degree": word}) != render.TEXT_COLOUR
    colours = env.adapter.colours
    assert colours.of({"system": "nightcap", "degree": "botch"}) == render.RED
    assert colours.of({"system": "nightcap", "degree": "overwhelming"}) == render.GOLD
    assert colours.of({"system": "nightwanderers", "degree": "masterful"}) == render.GOLD
    assert colours.of({"system": "nightcap", "degree": "no such word"}) == render.TEXT_COLOUR


async def test_a_contest_embed_shows_both_sides_and_the_outcome(env: DiscordEnv) -> None:
    env.dice.extend([8, 8, 1, 3, 7])
    answer = await env.command("roll", pool("3 +1 vs 1"))
    assert response_problems(answer) == []
    [embed] = answer["data"]["embeds"]
    assert embed["title"].endswith("· Deadlock")
    sides = embed["fields"][:2]
    assert sides[0]["value"] == "`8 8 1 3` → **1** (Marginal)"
    assert sides[1]["value"] == "`7` → **1** (Marginal)"
    assert embed["fields"][2] == {"name": "Margin", "value": "0", "inline": True}
    assert embed["color"] == render.OUTCOME_COLOURS["deadlock"]
    assert embed["footer"]["text"].startswith("#")


async def test_secret_rolls_and_errors_stay_ephemeral(env: DiscordEnv) -> None:
    env.dice.extend([9])
    secret = await env.command("roll", [*pool("1"), {"name": "secret", "type": 5, "value": True}])
    assert secret["data"]["flags"] == EPHEMERAL
    [embed] = secret["data"]["embeds"]
    assert embed["title"].startswith("Secret roll · ")
    error = await env.command("roll", pool("+2"))
    assert error["data"]["flags"] == EPHEMERAL
    assert "embeds" not in error["data"]  # a mistake is one short line, no embed
    assert error["data"]["content"].startswith("A roll starts with a pool")


def test_a_huge_roll_reply_still_fits_discords_limits() -> None:
    result = {
        "kind": "roll",
        "who": "M" * 400,
        "trait": "t" * 300,
        "pool": 900,
        "dice": [10] * 900,
        "total": 1800,
        "degree": "overwhelming",
        "id": "abcde",
    }
    body = render.reply_message("x" * 9000, False, result)
    assert message_problems(body) == []
    assert body["embeds"][0]["footer"] == {"text": "#abcde"}
    assert body["embeds"][0]["title"].endswith("…")


def test_a_roll_reply_stands_alone_other_replies_are_joined() -> None:
    from gateway import Reply

    roll = {"kind": "roll", "dice": [7], "total": 1, "degree": "marginal", "id": "a"}
    messages = render.group_replies(
        [Reply("one"), Reply("two"), Reply("rolled", result=roll), Reply("three"), Reply("oops", error="x")]
    )
    assert [(m.text, m.private, m.result is not None) for m in messages] == [
        ("one\ntwo", False, False),
        ("rolled", False, True),
        ("three", False, False),
        ("oops", True, False),
    ]


async def test_a_deferred_roll_follows_up_with_its_embed(env: DiscordEnv) -> None:
    """A reply after the deferral goes through the outbox: the follow-up carries the same embed."""
    import asyncio

    from gateway.core.commands import Command
    from gateway.core.types import Reply

    delay = env.adapter.config.reply_timeout + 0.3
    result = {"kind": "roll", "who": "Mira", "dice": [7, 10], "total": 3, "degree": "solid", "id": "q1"}

    async def slow(ctx: CommandContext, inv: Invocation) -> list[Reply]:
        await asyncio.sleep(delay)
        return [Reply(text="Mira rolls late", result=dict(result))]

    env.gateway.plugins.registry.add_command(Command("slow", slow, "a slow command", role="anyone"))
    answer = await env.command("gw", [{"name": "text", "type": 3, "value": "slow"}])
    assert answer == {"type": 5, "data": {}}
    await env.until(lambda: any(r.follow_up for r in env.fake.received), timeout=15)
    [follow_up] = [r.body for r in env.fake.received if r.follow_up]
    assert follow_up["content"] == "Mira rolls late"
    assert follow_up["embeds"] == [render.result_embed(result, colours=env.adapter.colours)]
    assert follow_up["embeds"][0]["footer"] == {"text": "#q1"}


# --------------------------------------------------------------------------- the Storyteller log webhook


def test_the_log_embed_links_the_channel_and_names_the_character() -> None:
    guild, channel = "300000000000000003", "400000000000000004"
    payload = {
        "kind": "stlog",
        "who": "ana",  # the person who typed it
        "where": f"discord:{guild}/{channel}",
        "result": {
            "kind": "roll",
            "who": "Mira Vance",
            "dice": [7],
            "total": 1,
            "degree": "marginal",
            "id": "z9",
        },
    }
    [embed] = render.outbox_message(payload)["embeds"]
    assert embed["author"] == {"name": "Mira Vance"}
    assert embed["footer"] == {"text": "Discord · #z9"}
    assert guild not in embed["footer"]["text"] and channel not in embed["footer"]["text"]
    assert embed["url"] == f"https://discord.com/channels/{guild}/{channel}"
    assert embed["fields"] == [{"name": "Channel", "value": f"<#{channel}>", "inline": True}]
    assert message_problems(render.outbox_message(payload)) == []
    elsewhere = {**payload, "where": "irc:libera/#night", "result": {**payload["result"], "who": None}}
    [embed] = render.outbox_message(elsewhere)["embeds"]
    assert embed["author"] == {"name": "ana"}  # no character: the person
    assert embed["footer"] == {"text": "libera/#night · IRC · #z9"}
    assert "url" not in embed
    direct = {**payload, "where": "discord:@me/42"}
    [embed] = render.outbox_message(direct)["embeds"]
    assert embed["footer"] == {"text": "direct message · Discord · #z9"}


# --------------------------------------------------------------------------- a system Discord never heard of


async def tarot_draw(ctx: CommandContext, inv: Invocation) -> Reply:
    """A roll of a system the adapter knows nothing of, with a degree word no built-in system has."""
    face = ctx.dice.roll(6)
    result = {"kind": "roll", "system": "tarot", "who": "Mira", "dice": [face], "total": face}
    result["degree"] = "fortune" if face == 6 else "omen"
    await ctx.log_roll(result)
    return Reply(text=f"Mira draws {face}", result=result)


async def tarot_challenge(ctx: CommandContext, inv: Invocation) -> Reply:
    return Reply(text="A challenge", result={"kind": "challenge", "system": "tarot", "status": "pending"})


TAROT = RuleSystem(
    "tarot",
    "Tarot",
    "one d6",
    commands=[
        Command("draw", tarot_draw, "draw a card", role="anyone"),
        Command("dare", tarot_challenge, "dare someone", role="anyone"),
    ],
    degree_colours={"omen": DegreeColour.FAILURE, "fortune": DegreeColour.BEST},
    defences=("heart", "mind"),
)


async def test_a_new_systems_colours_and_defences_come_from_its_object(
    sqlite_url: str, fake: FakeDiscord, key: SigningKey, mode: str
) -> None:
    """A sixth system registered as one object gets its degree colours and Defend buttons on
    Discord with no change to the adapter."""
    hooks = {"stlog": fake.add_webhook("200")}
    sections = {"gateway": {"default_system": "tarot"}}
    plugins = [rule_system_plugin(TAROT)]
    env = await start_env(sqlite_url, fake, key, hooks, sections, extra_plugins=plugins, mode=mode)
    try:
        env.dice.extend([6, 2])
        for colour in (render.GOLD, render.GREY):
            [embed] = (await env.command("gw", [{"name": "text", "type": 3, "value": "draw"}]))["data"][
                "embeds"
            ]
            assert embed["color"] == colour
        answer = await env.command("gw", [{"name": "text", "type": 3, "value": "dare"}])
        buttons = [b["label"] for row in answer["data"]["components"] for b in row["components"]]
        assert buttons[:2] == ["Defend: Heart", "Defend: Mind"] and len(buttons) == 3
    finally:
        await env.client.close()
