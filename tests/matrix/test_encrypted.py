"""Issue 14, Matrix, against a real Synapse: without the crypto packages (the ``matrix-e2ee`` extra;
their import failing is simulated here) encrypted rooms are refused. The bot says once, in an
unencrypted notice, that it cannot read the room and how to make one it can, and answers nothing
there; the log and ``gateway status`` say which extra to install."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from mautrix.types import EventType

from adapters.matrix import notices
from gateway.core.dice import ScriptedDice
from tests.matrix.conftest import MatrixUser, Running, gateway_settings, register_bot, start_gateway
from tests.matrix.rows import queue_and_try
from tests.matrix.synapse import Synapse
from tests.matrix.test_rooms import bot_in_room

MEGOLM = {"algorithm": "m.megolm.v1.aes-sha2"}


@pytest.fixture(autouse=True)
def no_olm(monkeypatch: pytest.MonkeyPatch) -> None:
    """python-olm as if it were not installed: ``import olm`` raises ImportError."""
    monkeypatch.setitem(sys.modules, "olm", None)


def said(user: MatrixUser, room: str, bot: str) -> list[str]:
    return [n["content"]["body"] for n in user.notices(room, bot)]


async def test_joining_an_encrypted_room_says_so_once_and_answers_nothing_there(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, plain = await bot_in_room(synapse, vault, users, gateways, [6])
    bot = running.account()
    assert bot.e2ee is None
    assert running.adapter.status()["encryption"] == (
        "off: olm is not installed (pip install 'nightcap-gateway[matrix-e2ee]')"
    )
    secret = str(
        await mira.client.create_room(
            invitees=[bot.user_id],
            initial_state=[{"type": "m.room.encryption", "state_key": "", "content": MEGOLM}],
        )
    )
    await mira.wait_for(lambda: said(mira, secret, bot.user_id), "the notice")
    assert said(mira, secret, bot.user_id) == [notices.ENCRYPTED]
    notice = mira.notices(secret, bot.user_id)[0]
    assert notice["type"] == "m.room.message"  # plain, readable without keys
    assert notice["content"]["msgtype"] == "m.notice"

    await mira.send(secret, "!roll 1")  # even a plain command is not run in an encrypted room
    await mira.send(plain, "!roll 1")
    answer = await mira.wait_for(lambda: said(mira, plain, bot.user_id), "the reply in the plain room")
    assert answer[0].startswith("Mira rolls 1 die: 6")  # the one scripted face went to this roll
    assert said(mira, secret, bot.user_id) == [notices.ENCRYPTED]  # once, nothing more
    account = running.account()
    assert account.stats["commands"] == 1
    assert await running.kv(f"matrix:{account.name}", f"encrypted:{secret}") == {"noticed": True}

    # Nothing is posted in plain text into the encrypted room either.
    row = await queue_and_try(running, mira, secret, "a secret roll")
    assert row.status == "dead"
    assert row.last_error == f"{secret} is end-to-end encrypted; the bot cannot post there"


async def test_encryption_switched_on_later_or_an_encrypted_message_is_noticed_once(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [])
    bot_id = running.account().user_id
    await mira.client.send_state_event(room, EventType.ROOM_ENCRYPTION, MEGOLM)
    await mira.wait_for(lambda: said(mira, room, bot_id), "the notice")

    other = await mira.create_room(invite=[bot_id])
    await mira.wait_for(lambda: mira.membership(other, bot_id) == "join", "the bot to join")
    ciphertext = {**MEGOLM, "ciphertext": "AwgAEnAC", "sender_key": "k", "device_id": "D", "session_id": "s"}
    await mira.client.send_message_event(room, EventType.ROOM_ENCRYPTED, ciphertext)
    await mira.client.send_message_event(other, EventType.ROOM_ENCRYPTED, ciphertext)
    await mira.wait_for(lambda: said(mira, other, bot_id), "the notice in the other room")
    assert said(mira, other, bot_id) == [notices.ENCRYPTED]
    assert said(mira, room, bot_id) == [notices.ENCRYPTED]
    assert running.account().stats["encrypted_rooms"] == 2


async def test_encryption_turned_off_in_the_settings_refuses_the_room_with_the_packages_installed(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(sys.modules, "olm")  # installed after all
    bot = await register_bot(synapse)
    mira: MatrixUser = await users("mira", "Mira")
    account = {"user_id": bot.user_id, "allowed_inviters": [mira.user_id]}
    settings = gateway_settings(vault, synapse, {"main": account}, options={"encryption": False})
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)
    assert running.adapter.status()["encryption"] == "off: turned off ([matrix] encryption = false)"
    bot_id = bot.user_id
    secret = str(
        await mira.client.create_room(
            invitees=[bot_id],
            initial_state=[{"type": "m.room.encryption", "state_key": "", "content": MEGOLM}],
        )
    )
    await mira.wait_for(lambda: said(mira, secret, bot_id), "the notice")
    assert said(mira, secret, bot_id) == [notices.ENCRYPTED]
