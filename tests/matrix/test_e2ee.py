"""Issue 14, Matrix: end-to-end encryption with mautrix's crypto, against a real Synapse. A player
whose own client encrypts (mautrix ``OlmMachine``) rolls in an encrypted room and reads the decrypted
reply; the bot's device and keys survive a restart (crypto store in the vault: SQLite and
PostgreSQL); without the crypto packages the bot refuses the room as before."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from gateway.core.dice import ScriptedDice
from gateway.core.settings import ClusterSection, Settings
from gateway.vault import repo
from tests.matrix.conftest import (
    WAIT_CEILING,
    Bot,
    Running,
    die_holding_leases,
    gateway_settings,
    register_bot,
    start_gateway,
    start_standby,
)
from tests.matrix.e2ee import CryptoUser
from tests.matrix.synapse import Synapse

FAILOVER = 2.0


@pytest.fixture
async def crypto_users(synapse: Synapse) -> AsyncIterator[Callable[..., Any]]:
    made: list[CryptoUser] = []

    async def make(name: str, display_name: str) -> CryptoUser:
        user = await CryptoUser.register(synapse, name, display_name)
        made.append(user)
        return user

    yield make
    for user in made:
        await user.close()


async def bot_and_player(synapse: Synapse, vault: str, crypto_users: Any) -> tuple[Bot, CryptoUser, Settings]:
    """A bot account and Mira (an encrypting client, an allowed inviter), and the gateway's settings."""
    bot = await register_bot(synapse)
    mira: CryptoUser = await crypto_users("mira", "Mira")
    account = {"user_id": bot.user_id, "allowed_inviters": [mira.user_id]}
    return bot, mira, gateway_settings(vault, synapse, {"main": account})


async def test_a_roll_in_an_encrypted_room_is_read_and_answered_encrypted_across_a_restart(
    synapse: Synapse, vault_url: str, crypto_users: Any, gateways: list[Running]
) -> None:
    bot, mira, settings = await bot_and_player(synapse, vault_url, crypto_users)
    running = await start_gateway(settings, ScriptedDice([9, 5, 10, 2]))
    gateways.append(running)
    account = running.account()
    assert account.e2ee is not None
    device = account.api.device_id
    assert await mira.devices_of(bot.user_id) == [device]  # keys uploaded before the first sync

    room = await mira.create_encrypted_room(bot.user_id)
    await mira.wait_joined(room, bot.user_id)
    await mira.send(room, "!roll 3")
    [reply] = await mira.replies(room, bot.user_id)
    assert str(reply.content.msgtype) == "m.notice"
    assert reply.content.body.startswith("Mira rolls 3 dice: 9 5 10 → 3 (Solid)")
    seen = [e["type"] for e in mira.raw if e["room_id"] == room]
    assert seen == ["m.room.encrypted"]  # nothing in the room went in plain text
    assert account.stats["decrypted"] == 1
    assert running.adapter.status()["encryption"] == "on"

    # A restart keeps the device (token, device id and Olm account from the vault): no new device,
    # and the Megolm session Mira already shared with it still decrypts her next message.
    await running.stop()
    gateways.remove(running)
    running = await start_gateway(settings, ScriptedDice([7]))
    gateways.append(running)
    assert running.account().api.device_id == device
    assert running.account().stats["logins"] == 0
    await mira.send(room, "!roll 1")
    replies = await mira.replies(room, bot.user_id, 2)
    assert " rolls 1 die: 7 → 1 (Marginal)" in replies[1].content.body
    assert await mira.devices_of(bot.user_id) == [device]
    assert [e["type"] for e in mira.raw if e["room_id"] == room] == ["m.room.encrypted"] * 2


async def test_the_storyteller_log_goes_encrypted_into_an_encrypted_log_room(
    synapse: Synapse, vault: str, crypto_users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    st: CryptoUser = await crypto_users("st", "Storyteller")
    log_room = await st.create_encrypted_room(bot.user_id)  # an invite to a log room is accepted
    settings = gateway_settings(
        vault, synapse, {"main": {"user_id": bot.user_id}}, stlog=[f"matrix:{log_room}"]
    )
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)
    await st.wait_joined(log_room, bot.user_id)
    async with running.gateway.services.vault.transaction() as session:
        await repo.enqueue(session, "matrix", log_room, {"text": "Mira's sheet: Strength 3", "kind": "stlog"})
    running.gateway.outbox.wake()
    [line] = await st.replies(log_room, bot.user_id)
    assert line.content.body == "Mira's sheet: Strength 3"
    assert [e["type"] for e in st.raw if e["room_id"] == log_room] == ["m.room.encrypted"]
    [row] = await running.outbox()
    assert (row.status, row.attempts) == ("delivered", 1)


async def test_only_the_lease_holder_runs_the_olm_machine_and_a_takeover_keeps_the_device(
    synapse: Synapse, vault_url: str, crypto_users: Any, gateways: list[Running]
) -> None:
    bot, mira, settings = await bot_and_player(synapse, vault_url, crypto_users)
    settings = settings.model_copy(update={"cluster": ClusterSection(failover_seconds=FAILOVER)})
    dice = ScriptedDice([8, 4])
    first = await start_gateway(settings, dice)
    gateways.append(first)
    second = await start_standby(settings, dice)
    gateways.append(second)
    owner, standby = first.account(), second.account()
    assert owner.e2ee is not None and standby.e2ee is None  # one olm machine per Olm account
    device = owner.api.device_id

    room = await mira.create_encrypted_room(bot.user_id)
    await mira.wait_joined(room, bot.user_id)
    await mira.send(room, "!roll 1")
    await mira.replies(room, bot.user_id)
    assert standby.e2ee is None

    await die_holding_leases(first)  # the standby takes the account over after failover_seconds
    gateways.remove(first)
    await asyncio.wait_for(standby.ready.wait(), WAIT_CEILING)
    assert standby.e2ee is not None and standby.api.device_id == device
    await mira.send(room, "!roll 1")
    replies = await mira.replies(room, bot.user_id, 2)
    assert " rolls 1 die: 4 → " in replies[1].content.body
    assert await mira.devices_of(bot.user_id) == [device]


async def test_a_vault_without_the_devices_keys_logs_in_with_a_new_device(
    synapse: Synapse, vault: str, crypto_users: Any, gateways: list[Running]
) -> None:
    """The crypto tables lost (a vault restored without them): the old device's keys are on the
    homeserver but nowhere else, so the bot logs that device out and encrypts with a new one."""
    bot, mira, settings = await bot_and_player(synapse, vault, crypto_users)
    running = await start_gateway(settings, ScriptedDice([3, 5]))
    gateways.append(running)
    old = running.account().api.device_id
    room = await mira.create_encrypted_room(bot.user_id)
    await mira.wait_joined(room, bot.user_id)
    await running.stop()
    gateways.remove(running)
    database = vault.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM crypto_account")
        connection.execute("DELETE FROM crypto_olm_session")

    running = await start_gateway(settings, ScriptedDice([5]))
    gateways.append(running)
    account = running.account()
    assert account.stats["crypto_store_lost"] == 1 and account.stats["logins"] == 1
    new = account.api.device_id
    assert new != old
    assert await mira.devices_of(bot.user_id) == [new]  # the old device is logged out
    await mira.send(room, "!roll 1")
    [reply] = await mira.replies(room, bot.user_id)
    assert " rolls 1 die: 5 → " in reply.content.body


async def test_a_secret_roll_goes_encrypted_to_the_encrypted_direct_chat_the_player_opened(
    synapse: Synapse, vault: str, crypto_users: Any, gateways: list[Running]
) -> None:
    bot, mira, settings = await bot_and_player(synapse, vault, crypto_users)
    running = await start_gateway(settings, ScriptedDice([7, 7]))
    gateways.append(running)
    room = await mira.create_encrypted_room(bot.user_id)
    direct = await mira.create_encrypted_room(bot.user_id, direct=True)
    await mira.wait_joined(room, bot.user_id)
    await mira.wait_joined(direct, bot.user_id)

    await mira.send(room, "!roll 2 secret")
    [private] = await mira.replies(direct, bot.user_id)
    assert private.content.body.startswith("Mira rolls 2 dice: 7 7 → 2 (Solid)")
    assert running.account().dm_rooms == {mira.user_id: direct}  # kept: the bot can write there
    assert mira.received(room, bot.user_id) == []  # no pointer: the direct chat was already there
    assert {e["type"] for e in mira.raw} == {"m.room.encrypted"}


async def test_an_odds_picture_goes_encrypted_into_an_encrypted_room(
    synapse: Synapse, vault: str, crypto_users: Any, gateways: list[Running]
) -> None:
    """Issue 17: the chart's PNG is encrypted before upload (the homeserver stores ciphertext), the
    ``m.image`` carries its key in ``file`` and goes encrypted; Mira decrypts both and reads the PNG."""
    import io

    from mautrix.crypto.attachments import decrypt_attachment
    from PIL import Image

    from gateway.rules.charts.draw import COLOURS

    bot, mira, settings = await bot_and_player(synapse, vault, crypto_users)
    running = await start_gateway(settings, ScriptedDice([]))
    gateways.append(running)
    room = await mira.create_encrypted_room(bot.user_id)
    await mira.wait_joined(room, bot.user_id)
    await mira.send(room, "!odds 4")
    text, image = await mira.replies(room, bot.user_id, 2)
    assert text.content.body.startswith("Odds for 4 dice")
    content = image.content.serialize()
    assert content["msgtype"] == "m.image" and "url" not in content
    file = content["file"]
    ciphertext = await mira.client.download_media(file["url"])
    assert not ciphertext.startswith(b"\x89PNG")  # the homeserver never sees the picture
    png = decrypt_attachment(ciphertext, file["key"]["k"], file["hashes"]["sha256"], file["iv"])
    assert len(png) == content["info"]["size"]
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and (picture.width, picture.height) == (
        content["info"]["w"],
        content["info"]["h"],
    )
    assert COLOURS[0] in {c for _, c in picture.convert("RGB").getcolors(maxcolors=1 << 20) or []}
    assert [e["type"] for e in mira.raw if e["room_id"] == room] == ["m.room.encrypted"] * 2
