"""The adapter against a real Synapse: invites, commands and replies, private replies, kicks."""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import select

from gateway.core.dice import ScriptedDice
from gateway.vault.models import RollLog
from tests.matrix.conftest import (
    MatrixUser,
    Running,
    gateway_settings,
    register_bot,
    start_gateway,
)
from tests.matrix.rows import queue_and_try
from tests.matrix.synapse import Synapse


async def bot_in_room(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running], faces: list[int], **account: Any
) -> tuple[Running, MatrixUser, str]:
    """A gateway whose bot was invited by ``mira`` (an allowed inviter) into a fresh room and joined."""
    bot = await register_bot(synapse)
    mira: MatrixUser = await users("mira", "Mira")
    settings = gateway_settings(
        vault, synapse, {"main": {"user_id": bot.user_id, "allowed_inviters": [mira.user_id], **account}}
    )
    running = await start_gateway(settings, ScriptedDice(faces))
    gateways.append(running)
    room = await mira.create_room(invite=[bot.user_id])
    await mira.wait_for(lambda: mira.membership(room, bot.user_id) == "join", "the bot to join")
    return running, mira, room


async def test_joins_on_invite_from_allowed_user_and_refuses_a_stranger(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    st: MatrixUser = await users("st")
    stranger: MatrixUser = await users("stranger")
    settings = gateway_settings(
        vault, synapse, {"main": {"user_id": bot.user_id, "allowed_inviters": [st.user_id]}}
    )
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)

    ours = await st.create_room(invite=[bot.user_id])
    theirs = await stranger.create_room(invite=[bot.user_id])

    await st.wait_for(lambda: st.membership(ours, bot.user_id) == "join", "the bot to join")
    await stranger.wait_for(lambda: stranger.membership(theirs, bot.user_id) == "leave", "the refusal")
    account = running.account()
    assert ours in account.joined
    assert theirs not in account.joined
    assert account.stats["invites_accepted"] == 1
    assert account.stats["invites_refused"] == 1
    refusal = [e for e in stranger.rooms[theirs] if e.get("state_key") == bot.user_id][-1]
    assert refusal["sender"] == bot.user_id  # the bot itself turned the invite down


async def test_roll_answers_with_an_exact_notice_in_reply(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [9, 5, 10])
    bot_id = running.account().user_id

    command = await mira.send(room, "!roll 3")
    notices = await mira.wait_for(lambda: mira.notices(room, bot_id), "the reply")

    async with running.gateway.services.vault.transaction() as session:
        roll = (await session.exec(select(RollLog))).one()
    assert roll.dice == [9, 5, 10]
    assert len(notices) == 1
    assert notices[0]["content"] == {
        "msgtype": "m.notice",
        "body": f"Mira rolls 3 dice: 9 5 10 → 3 (Solid) #{roll.public_id}",
        "format": "org.matrix.custom.html",
        "formatted_body": f"Mira rolls 3 dice: <b>9 5 10</b> → <b>3</b> (<b>Solid</b>) #{roll.public_id}",
        "m.mentions": {"user_ids": [mira.user_id]},
        "m.relates_to": {"m.in_reply_to": {"event_id": command}},
    }
    assert roll.identity_key == f"matrix:{mira.user_id}"
    assert roll.channel_key == f"matrix:{room}"
    assert running.dice.remaining == 0


async def test_notices_edits_emotes_and_chat_are_not_commands(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [8])
    bot_id = running.account().user_id

    await mira.send(room, "!roll 3", msgtype="m.notice")  # another bot's output: never a command
    await mira.send(room, "!roll 3", msgtype="m.emote")
    chat = await mira.send(room, "just talking about !roll 3")
    await mira.client.send_message_event(
        room,
        "m.room.message",
        {
            "msgtype": "m.text",
            "body": "!roll 3",
            "m.new_content": {"msgtype": "m.text", "body": "!roll 3"},
            "m.relates_to": {"rel_type": "m.replace", "event_id": chat},
        },
    )
    last = await mira.send(room, "!roll 1")

    notices = await mira.wait_for(lambda: mira.notices(room, bot_id), "the reply")
    assert [n["content"]["m.relates_to"]["m.in_reply_to"]["event_id"] for n in notices] == [last]
    assert notices[0]["content"]["body"].startswith("Mira rolls 1 die: 8 → 1 (Marginal)")
    # Its own notice came back through sync and was ignored too: one command, one roll.
    await mira.send(room, "!roll 1")
    running.dice.extend([2])
    await mira.wait_for(lambda: len(mira.notices(room, bot_id)) == 2, "the second reply")
    assert running.account().stats["commands"] == 2


async def test_private_reply_goes_to_a_direct_room_created_once(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [7, 7])
    bot_id = running.account().user_id

    await mira.send(room, "!roll 2 secret")
    invite_room = await mira.wait_for(lambda: next(iter(mira.invites), None), "the direct room invite")
    invite = mira.invites[invite_room]
    me = next(
        e
        for e in invite["invite_state"]["events"]
        if e["type"] == "m.room.member" and e.get("state_key") == mira.user_id
    )
    assert me["sender"] == bot_id
    assert me["content"].get("is_direct") is True
    await mira.client.join_room_by_id(invite_room)
    first = await mira.wait_for(lambda: mira.notices(invite_room, bot_id), "the private reply")
    assert re.fullmatch(r"Mira rolls 2 dice: 7 7 → 2 \(Solid\) #\w+", first[0]["content"]["body"])
    assert first[0]["content"]["m.mentions"] == {}
    assert "m.relates_to" not in first[0]["content"]  # the command is in another room

    await mira.send(room, "!help")  # help answers privately too: the same direct room
    await mira.wait_for(lambda: len(mira.notices(invite_room, bot_id)) == 2, "the second private reply")
    assert mira.notices(invite_room, bot_id)[1]["content"]["body"].startswith("Nightcap commands:")
    pointers = [n["content"]["body"] for n in mira.notices(room, bot_id)]
    assert pointers == [
        "Mira: I answered you privately, in a direct chat with me: accept its invite to read it."
    ]
    assert list(mira.invites) == [invite_room]
    account = running.account()
    assert account.stats["dm_rooms_created"] == 1
    assert await running.kv(f"matrix:{account.name}", f"dm:{mira.user_id}") == {"room_id": invite_room}


async def test_kicked_bot_leaves_cleanly_and_drops_rows_for_that_room(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [])
    account = running.account()
    await mira.client.kick_user(room, account.user_id, reason="scene over")
    await mira.wait_for(lambda: mira.membership(room, account.user_id) == "leave", "the kick")
    while room in account.joined or room not in account.left:
        await mira.sync_once(200)
    stored = await running.kv(f"matrix:{account.name}", f"left:{room}")
    assert stored == {"by": mira.user_id, "membership": "leave", "reason": "scene over"}

    row = await queue_and_try(running, mira, room, "too late")
    assert row.status == "dead"
    assert row.last_error == f"the bot was removed from {room}"


async def test_account_prefix_and_bare_commands(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [10], prefix=".")
    bot_id = running.account().user_id
    await mira.send(room, "!roll 1")  # the gateway's prefix is not this account's
    await mira.send(room, "* * *")  # a bare command, but not of this channel's system: chat
    command = await mira.send(room, ".roll 1")
    notices = await mira.wait_for(lambda: mira.notices(room, bot_id), "the reply")
    assert notices[0]["content"]["m.relates_to"]["m.in_reply_to"]["event_id"] == command
    assert notices[0]["content"]["body"].startswith("Mira rolls 1 die: 10 → 2 (Solid)")

    running.gateway.settings.vault.owner = f"matrix:{mira.user_id}"
    await mira.send(room, ".system decanter")
    scene = await mira.send(room, "* * *")  # said alone, Decanter's scene break needs no prefix
    await mira.wait_for(lambda: len(mira.notices(room, bot_id)) >= 3, "the scene break")
    last = mira.notices(room, bot_id)[2]["content"]
    assert last["m.relates_to"]["m.in_reply_to"]["event_id"] == scene
    assert last["body"] == "The scene ends here."


async def test_history_before_the_bot_joined_is_not_run(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    mira: MatrixUser = await users("mira", "Mira")
    settings = gateway_settings(
        vault, synapse, {"main": {"user_id": bot.user_id, "allowed_inviters": [mira.user_id]}}
    )
    running = await start_gateway(settings, ScriptedDice([6]))
    gateways.append(running)
    room = await mira.create_room()
    await mira.send(room, "!roll 5")  # said before the bot was there
    await mira.client.invite_user(room, bot.user_id)
    await mira.wait_for(lambda: mira.membership(room, bot.user_id) == "join", "the bot to join")
    command = await mira.send(room, "!roll 1")
    notices = await mira.wait_for(lambda: mira.notices(room, bot.user_id), "the reply")
    assert [n["content"]["m.relates_to"]["m.in_reply_to"]["event_id"] for n in notices] == [command]
    assert running.account().stats["commands"] == 1
