"""The router end to end over a real vault: results, the roll log, verify, bad input, dedupe."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func
from sqlmodel import select

from gateway.core import commands
from gateway.core.errors import Repeated
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.testing import Chat
from gateway.vault.models import OutboxRow, RollLog


async def count(chat: Chat, model: type) -> int:
    async with chat.services.vault.transaction() as session:
        return (await session.exec(select(func.count()).select_from(model))).one()


async def test_roll_result_shape_and_log(any_chat: Chat) -> None:
    chat = any_chat
    chat.dice.extend([9, 5, 10])
    reply = await chat.one("roll 3", as_="mira")
    result = reply.result
    assert result is not None
    for key, value in {
        "kind": "roll",
        "system": "nightcap",
        "pool": 3,
        "dice": [9, 5, 10],
        "chance_die": False,
        "dice_total": 3,
        "willpower": False,
        "total": 3,
        "degree": "solid",
    }.items():
        assert result[key] == value, key
    async with chat.services.vault.transaction() as session:
        row = (await session.exec(select(RollLog))).one()
    assert row.public_id == result["id"]
    assert (row.dice, row.total, row.degree, row.identity_key) == ([9, 5, 10], 3, "solid", "console:mira")


async def test_modifiers_stack_then_the_pool_is_checked(chat: Chat) -> None:
    chat.dice.extend([10])
    reply = await chat.one("roll 2 -1 -2")
    assert reply.result is not None
    assert (reply.result["pool"], reply.result["chance_die"], reply.result["total"]) == (-1, True, 1)
    assert "a chance die: 10 → 1 (Marginal)" in reply.text


async def test_dorian_contest_against_npc_is_a_deadlock(chat: Chat) -> None:
    chat.dice.extend([7, 8, 3, 1, 8, 6, 4, 2])
    reply = await chat.one("roll 4 vs 3+1", as_="dorian")
    result = reply.result
    assert result is not None
    assert result["kind"] == "contest"
    assert [s["total"] for s in result["sides"]] == [1, 1]
    assert [s["dice"] for s in result["sides"]] == [[7, 8, 3, 1], [8, 6, 4, 2]]
    assert (result["margin"], result["winner"], result["outcome"]) == (0, None, "deadlock")
    assert "Deadlock, margin 0" in reply.text


async def test_verify_on_another_platform(chat: Chat) -> None:
    chat.dice.extend([9, 5, 10])
    roll = await chat.one("roll 3", as_="mira")
    assert roll.result is not None
    check = await chat.one(f"verify #{roll.result['id']}", as_="1234", platform="discord", channel="g/c")
    assert check.error is None
    assert check.result is not None
    assert check.result["identity"] == "console:mira"
    assert check.result["roll"]["dice"] == [9, 5, 10]
    assert "9 5 10 → 3 (solid)" in check.text


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("frobnicate 3", "Unknown command"),
        ("roll wisdom", "Unknown trait"),
        ("roll 3 +x", "cannot read"),
        ("roll +2", "starts with a pool"),
        ("roll", "pool is missing"),
        ("roll 51", "above the maximum of 50"),
        ("roll 3 wp", "Willpower needs a character"),
        ("roll 3 wp wp", "once per roll"),
        ("roll 3 vs 2 vs 1", "one vs"),
        ("roll \x07 3", "control"),
        ('roll "3', "never closed"),
        ("roll 99999999999999999999", "stop at 1000"),
        ("verify", "verify ID"),
        ("system klingon", "Storyteller"),
    ],
)
async def test_bad_input_is_one_line_and_writes_nothing(chat: Chat, line: str, fragment: str) -> None:
    chat.dice.extend([5] * 5)
    reply = await chat.one(line)
    assert reply.error is not None
    assert fragment in reply.text
    assert "\n" not in reply.text
    assert await count(chat, RollLog) == 0
    assert await count(chat, OutboxRow) == 0


async def test_running_out_of_scripted_dice_fails_cleanly(chat: Chat) -> None:
    chat.dice.extend([9, 9])
    reply = await chat.one("roll 3")
    assert reply.error == "dice_script"
    assert await count(chat, RollLog) == 0


async def test_redelivered_message_runs_once(chat: Chat) -> None:
    chat.dice.extend([9, 9, 9])
    first = await chat.say("roll 3", message_id="evt-1")
    again = await chat.say("roll 3", message_id="evt-1")
    assert len(first) == 1
    assert again == first  # answered on the request: a retry gets the first run's replies
    assert await count(chat, RollLog) == 1


async def test_a_repeat_is_refused_when_the_adapter_asks(chat: Chat) -> None:
    chat.dice.extend([9, 9, 9])

    def msg() -> InboundMessage:
        sender = Identity("sl", "k", "Mira")
        return InboundMessage(
            sender, Channel("secondlife", "region/x"), "roll 3", "hmac:s", refuse_repeat=True
        )

    assert len(await chat.services.router.handle(msg())) == 1
    with pytest.raises(Repeated):
        await chat.services.router.handle(msg())
    assert await count(chat, RollLog) == 1


async def test_prefixed_platform_ignores_chat_and_queues_replies(chat: Chat) -> None:
    router = chat.services.router
    sender = Identity("irc", "net/alice", "alice")
    room = Channel("irc", "net/#table")

    def msg(text: str) -> InboundMessage:
        return InboundMessage(sender=sender, channel=room, text=text, prefixed=True, sync_reply=False)

    assert await router.handle(msg("roll 3, said in passing")) == []
    chat.dice.extend([7, 7, 7])
    replies = await router.handle(msg("!roll 3"))
    assert replies[0].result is not None and replies[0].result["total"] == 3
    async with chat.services.vault.transaction() as session:
        rows = (await session.exec(select(OutboxRow).where(OutboxRow.platform == "irc"))).all()
    assert [(r.target, r.payload["text"]) for r in rows] == [("net/#table", replies[0].text)]


async def test_unverified_identity_may_roll_but_not_change_the_channel(chat: Chat) -> None:
    chat.dice.extend([7])
    assert (await chat.one("roll 1", verified=False)).error is None
    denied = await chat.one("system", verified=False)
    assert denied.error == "forbidden"
    assert "verified account" in denied.text


async def test_storyteller_switches_system_and_back(chat: Chat) -> None:
    reply = await chat.one("system nightcap", st=True)
    assert reply.error is None
    assert reply.result is not None
    assert (reply.result["kind"], reply.result["current"]) == ("systems", "nightcap")
    assert {"nightcap", "decanter", "dramatic", "pravidla", "nightwanderers"} <= set(
        reply.result["installed"]
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.text(max_size=80) | st.from_regex(r"(roll|verify|help|system|lang) [ -~]{0,30}", fullmatch=True)
)
async def test_no_exception_escapes_the_router(chat: Chat, text: str) -> None:
    chat.dice.extend([5] * 60)
    replies = await chat.say(text)
    for reply in replies:
        assert reply.error != "internal", (text, reply)
        assert isinstance(reply.text, str) and reply.text


async def test_a_permission_plugin_can_refuse_a_command(sqlite_url: str) -> None:
    """``gateway_permission``: one False vote refuses the command (nothing logged); None abstains."""
    from gateway.core.app import Gateway
    from gateway.core.dice import ScriptedDice
    from gateway.core.hookspecs import hookimpl
    from gateway.core.settings import Settings

    class NoRollsInTheLibrary:
        @hookimpl
        def gateway_permission(self, ctx: object, command: object) -> bool | None:
            where = ctx.message.channel.id  # type: ignore[attr-defined]
            return False if command.name == "roll" and where == "library" else None  # type: ignore[attr-defined]

    dice = ScriptedDice([9, 5, 10])
    gateway = Gateway(
        Settings(vault={"url": sqlite_url}), dice=dice, extra_plugins=[NoRollsInTheLibrary()], platforms=()
    )
    await gateway.upgrade_vault()
    await gateway.start()
    try:
        mira = Identity("console", "mira", "Mira")
        refused = await gateway.services.router.handle(
            InboundMessage(mira, Channel("console", "library"), "roll 3")
        )
        assert refused[0].error == "forbidden" and "not allowed here" in refused[0].text
        allowed = await gateway.services.router.handle(
            InboundMessage(mira, Channel("console", "main"), "roll 3")
        )
        assert allowed[0].error is None and allowed[0].result is not None
        async with gateway.services.vault.transaction() as session:
            assert (await session.exec(select(func.count()).select_from(RollLog))).one() == 1
    finally:
        await gateway.stop()


async def test_a_roll_id_clash_is_retried_until_an_id_is_free(
    chat: Chat, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Roll ids are short and random: as the log grows, a new id sometimes clashes, even twice or three
    times running; the unit of work runs again with a fresh id instead of failing the roll."""
    ids = iter(["aaaaa", "aaaaa", "aaaaa", "aaaaa", "bbbbb"])
    monkeypatch.setattr(commands, "new_public_id", lambda length=5: next(ids))
    chat.dice.extend([9, 9, 9] * 5)
    first = await chat.one("roll 3")
    second = await chat.one("roll 3")
    assert second.error is None, second.text
    assert (first.result or {})["id"] == "aaaaa"
    assert (second.result or {})["id"] == "bbbbb"
    assert await count(chat, RollLog) == 2
