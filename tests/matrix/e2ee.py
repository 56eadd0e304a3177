"""A player with an encrypting client of their own: mautrix's ``Client`` with an ``OlmMachine`` on
in-memory stores, syncing in the background, as Element would (it uploads device keys, shares its
Megolm session with the bot's device, decrypts what the bot sends).

mautrix's own decryption dispatcher is replaced by one that waits for the room key first: the
to-device event that carries it and the room event can arrive in the same sync, and mautrix
handles them concurrently.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from mautrix.api import HTTPAPI
from mautrix.client import Client
from mautrix.client.encryption_manager import DecryptionDispatcher
from mautrix.client.state_store import MemoryStateStore, MemorySyncStore
from mautrix.crypto import MemoryCryptoStore, OlmMachine
from mautrix.crypto import StateStore as CryptoStateStore
from mautrix.types import (
    EncryptedEvent,
    EventType,
    Membership,
    MessageEvent,
    RoomID,
    TextMessageEventContent,
    UserID,
)

from gateway.testing import eventually
from tests.matrix.conftest import PASSWORD, WAIT_CEILING, register_account, unique
from tests.matrix.synapse import Synapse

MEGOLM = {"algorithm": "m.megolm.v1.aes-sha2"}


class StateStore(MemoryStateStore, CryptoStateStore):
    """mautrix's in-memory room state, with the one query the olm machine adds."""

    async def find_shared_rooms(self, user_id: UserID) -> list[RoomID]:
        return [
            room
            for room, members in self.members.items()
            if (members.get(user_id) is not None and members[user_id].membership == Membership.JOIN)
        ]


@dataclass
class CryptoUser:
    client: Client
    machine: OlmMachine
    session: aiohttp.ClientSession
    user_id: str
    device_id: str
    clear: list[MessageEvent] = field(default_factory=list)  # decrypted messages, in order
    raw: list[dict[str, Any]] = field(default_factory=list)  # what arrived, as sent (encrypted or not)
    failures: list[str] = field(default_factory=list)
    _sync: asyncio.Future[Any] | None = None

    @classmethod
    async def register(cls, synapse: Synapse, name: str, display_name: str) -> CryptoUser:
        session = aiohttp.ClientSession()
        data = await register_account(session, synapse.url, {"username": unique(name), "password": PASSWORD})
        api = HTTPAPI(base_url=synapse.url, token=data["access_token"], client_session=session)
        state = StateStore()
        client = Client(
            mxid=data["user_id"],
            device_id=data["device_id"],
            api=api,
            state_store=state,
            sync_store=MemorySyncStore(),
        )
        machine = OlmMachine(client, MemoryCryptoStore(data["user_id"], "test"), state)
        client.crypto = machine
        client.remove_dispatcher(DecryptionDispatcher)
        await machine.load()
        await machine.share_keys()
        await client.set_displayname(display_name, check_current=False)
        user = cls(client, machine, session, data["user_id"], data["device_id"])
        client.add_event_handler(EventType.ROOM_ENCRYPTED, user._on_encrypted)
        client.add_event_handler(EventType.ROOM_MESSAGE, user._on_plain)
        user._sync = client.start(None)
        return user

    async def _on_plain(self, event: MessageEvent) -> None:
        if event.sender != self.user_id:
            self.raw.append({"type": "m.room.message", "room_id": event.room_id, "content": event.content})

    async def _on_encrypted(self, event: EncryptedEvent) -> None:
        if event.sender == self.user_id:
            return
        self.raw.append({"type": "m.room.encrypted", "room_id": event.room_id, "event_id": event.event_id})
        session = event.content.session_id
        if not await self.machine.crypto_store.has_group_session(event.room_id, session):
            # (wait_for_session waits out its timeout for a key that came before it was called)
            await self.machine.wait_for_session(event.room_id, session, timeout=WAIT_CEILING)
        try:
            decrypted = await self.machine.decrypt_megolm_event(event)
        except Exception as exc:
            self.failures.append(repr(exc))
            return
        if isinstance(decrypted, MessageEvent):
            self.clear.append(decrypted)

    async def close(self) -> None:
        self.client.stop()
        if self._sync is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sync
        await self.session.close()

    async def create_encrypted_room(self, invite: str, *, direct: bool = False) -> str:
        """An encrypted room (as Element makes them); ``direct``: a direct chat with ``invite``."""
        return str(
            await self.client.create_room(
                invitees=[UserID(invite)],
                is_direct=direct,
                initial_state=[{"type": "m.room.encryption", "state_key": "", "content": MEGOLM}],
            )
        )

    async def send(self, room: str, text: str) -> str:
        """Sent encrypted: the client encrypts for every device in the room (the bot's included)."""
        content = TextMessageEventContent(msgtype="m.text", body=text)
        return str(await self.client.send_message_event(RoomID(room), EventType.ROOM_MESSAGE, content))

    async def wait_joined(self, room: str, user: str) -> None:
        async def joined() -> bool:
            members = await self.client.get_joined_members(RoomID(room))
            return UserID(user) in members

        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_CEILING
        while not await joined():
            assert loop.time() < deadline, f"{user} never joined {room}"
            await asyncio.sleep(0.1)

    async def replies(self, room: str, sender: str, count: int = 1) -> list[MessageEvent]:
        def done() -> bool:
            return len(self.received(room, sender)) >= count

        await eventually(done, timeout=WAIT_CEILING, message=lambda: f"no reply; failures: {self.failures}")
        return self.received(room, sender)

    def received(self, room: str, sender: str) -> list[MessageEvent]:
        return [e for e in self.clear if e.room_id == room and e.sender == sender]

    async def devices_of(self, user: str) -> list[str]:
        """The devices the homeserver lists for ``user`` (with keys uploaded)."""
        response = await self.client.query_keys({UserID(user): []})
        return sorted(response.device_keys.get(UserID(user), {}))
