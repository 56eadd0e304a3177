"""Issue 14, Matrix, against a real Synapse: the HTML says what the body says, Storyteller-log rooms the
bot is not in keep their rows until it is, a pointer to a new direct room, a refusal the inviter sees."""

from __future__ import annotations

from typing import Any

from mautrix.types import RoomCreatePreset

from adapters.matrix import notices
from adapters.matrix.adapter import ABSENT
from gateway.core.dice import ScriptedDice
from tests.matrix.conftest import (
    MatrixUser,
    Running,
    gateway_settings,
    register_bot,
    start_gateway,
)
from tests.matrix.rows import queue_and_try
from tests.matrix.synapse import Synapse
from tests.matrix.test_native_render import shown
from tests.matrix.test_rooms import bot_in_room


async def test_char_new_and_char_use_show_their_whole_text_in_html(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [])
    bot_id = running.account().user_id
    await mira.send(room, "!char new Mira Vey")  # character replies are private: a direct room
    dm = await mira.wait_for(lambda: next(iter(mira.invites), None), "the direct room invite")
    await mira.client.join_room_by_id(dm)
    await mira.send(room, "!char new Other")
    await mira.send(room, "!char use Mira Vey")
    replies = await mira.wait_for(
        lambda: (n := mira.notices(dm, bot_id)) and len(n) == 3 and n, "three replies"
    )
    made, _, used = (r["content"] for r in replies)
    assert "Traits start at 1: place 6 points" in made["body"]
    assert "Traits start at 1: place 6 points" in shown(made["formatted_body"])
    assert "is now your active character" in shown(used["formatted_body"])


async def stlog_gateway(
    synapse: Synapse, vault: str, gateways: list[Running], room: str
) -> tuple[Running, str]:
    bot = await register_bot(synapse)
    settings = gateway_settings(vault, synapse, {"main": {"user_id": bot.user_id}}, stlog=[f"matrix:{room}"])
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)
    return running, bot.user_id


async def test_a_log_room_the_bot_cannot_join_keeps_its_rows_until_it_is_invited(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    st: MatrixUser = await users("st")  # not an allowed inviter: the log room's invite is accepted anyway
    room = await st.create_room()  # private: the bot cannot join it by itself
    running, bot_id = await stlog_gateway(synapse, vault, gateways, room)

    unreachable: Any = running.adapter.status()["unreachable_targets"]
    assert unreachable[room] == f"cannot join (M_FORBIDDEN); invite {bot_id} to it"

    row = await queue_and_try(running, st, room, "Mira rolls 3 dice", until=lambda r: bool(r.last_error))
    assert row.status == "pending"
    assert row.attempts == 0  # waiting for the room is not an attempt
    assert row.last_error is not None and row.last_error.startswith(ABSENT)
    assert bot_id in row.last_error

    await st.client.invite_user(room, bot_id)
    logged = await st.wait_for(lambda: st.notices(room, bot_id), "the waiting log row")
    assert [n["content"]["body"] for n in logged] == ["Mira rolls 3 dice"]
    assert (await running.outbox())[-1].status == "delivered"
    assert "unreachable_targets" not in running.adapter.status()


async def test_a_log_room_the_bot_can_join_is_joined_at_start(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    st: MatrixUser = await users("st")
    room = str(await st.client.create_room(preset=RoomCreatePreset.PUBLIC))
    running, bot_id = await stlog_gateway(synapse, vault, gateways, room)
    assert room in running.account().joined
    assert "unreachable_targets" not in running.adapter.status()
    await st.wait_for(lambda: st.membership(room, bot_id) == "join", "the bot in the log room")


async def test_a_new_direct_room_leaves_one_pointer_in_the_command_room(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [7, 7])
    bot_id = running.account().user_id
    await mira.send(room, "!roll 2 secret")
    pointer = await mira.wait_for(lambda: mira.notices(room, bot_id), "the pointer")
    assert pointer[0]["content"]["m.mentions"] == {"user_ids": [mira.user_id]}
    assert pointer[0]["content"]["body"].startswith("Mira: I answered you privately, in a direct chat")
    assert mira.user_id in pointer[0]["content"]["formatted_body"]

    dm = await mira.wait_for(lambda: next(iter(mira.invites), None), "the direct room invite")
    await mira.client.join_room_by_id(dm)
    await mira.send(room, "!help")
    await mira.wait_for(lambda: len(mira.notices(dm, bot_id)) == 2, "both private replies")
    assert len(mira.notices(room, bot_id)) == 1  # only the first private reply opened a room


async def test_a_refused_invite_says_why_where_the_inviter_sees_it(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    stranger: MatrixUser = await users("stranger", "Stranger")
    settings = gateway_settings(vault, synapse, {"main": {"user_id": bot.user_id}})
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)

    room = await stranger.create_room(invite=[bot.user_id])
    await stranger.wait_for(lambda: stranger.membership(room, bot.user_id) == "leave", "the refusal")
    said = stranger.notices(room, bot.user_id)
    assert [n["content"]["body"] for n in said] == [
        f"{stranger.user_id[1:].split(':')[0]}: {notices.REFUSED}"
    ]
    assert said[0]["content"]["m.mentions"] == {"user_ids": [stranger.user_id]}
    assert running.account().stats["invites_refused"] == 1
    assert room not in running.account().joined

    again = await stranger.create_room(invite=[bot.user_id])  # the same stranger at once: declined only
    await stranger.wait_for(lambda: stranger.membership(again, bot.user_id) == "leave", "the second refusal")
    assert stranger.notices(again, bot.user_id) == []
