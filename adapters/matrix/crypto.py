"""End-to-end encryption of one Matrix account: mautrix's ``OlmMachine`` on a crypto store kept in the
vault's own database (mautrix's ``PgCryptoStore`` and ``PgCryptoStateStore``, which run on SQLite and
PostgreSQL alike, in their own tables ``crypto_*`` and ``mx_*`` with their own version tables).

Everything here is imported lazily: the packages (``python-olm``, ``pycryptodome``, ``unpaddedbase64``,
``base58``: the ``matrix-e2ee`` extra) are optional, and without them the adapter refuses encrypted
rooms as before. The sync loop stays the account's own: it hands this module the to-device events,
device lists and one-time-key counts of a batch first, then the room state, then decrypts the
timeline's ``m.room.encrypted`` events in order; mautrix's own dispatcher is never run.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from mautrix.client import Client
    from mautrix.crypto import OlmMachine
    from mautrix.util.async_db import Database

log = structlog.get_logger(__name__)

EXTRA = "matrix-e2ee"
INSTALL_HINT = f"pip install 'nightcap-gateway[{EXTRA}]'"
# The modules mautrix's encryption needs (its own ``encryption`` extra), by import name.
REQUIRED = ("olm", "Crypto.Cipher.AES", "unpaddedbase64", "base58")
# Seconds an encrypted event whose key has not arrived yet is retried (after every sync) before it is
# given up as undecryptable.
PENDING_FOR = 300.0
# Attempts at creating mautrix's tables when another process creates them at the same moment.
UPGRADE_ATTEMPTS = 3


def missing() -> str | None:
    """Why encryption cannot run here (a module that does not import), or None when it can."""
    for name in REQUIRED:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            return f"{exc.name or name} is not installed ({INSTALL_HINT})"
    try:
        importlib.import_module("mautrix.crypto")
        importlib.import_module("mautrix.crypto.store.asyncpg")
    except ImportError as exc:
        return f"mautrix.crypto cannot be imported: {exc} ({INSTALL_HINT})"
    return None


def store_url(vault_url: str) -> str:
    """The vault's URL as mautrix's ``Database`` takes it: ``sqlite:///abs/path`` or ``postgresql://``."""
    url = make_url(vault_url)
    if url.get_backend_name() == "sqlite":
        return f"sqlite://{Path(url.database or 'vault.db').resolve()}"
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class CryptoDatabase:
    """mautrix's two stores on the vault's database, opened once per adapter (every account shares
    them: the crypto rows carry the account's user id, the room state is the rooms')."""

    def __init__(self, vault_url: str, busy_timeout_ms: int = 5000) -> None:
        self.url = store_url(vault_url)
        self.busy_timeout_ms = busy_timeout_ms
        self.crypto_db: Database | None = None
        self.state_db: Database | None = None
        self.state_store: Any = None
        self._lock = asyncio.Lock()
        self._users = 0

    def _create(self, upgrade_table: Any, name: str) -> Database:
        from mautrix.util.async_db import Database

        args: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            # As the vault's own connections: WAL, a busy wait instead of "database is locked".
            args["init_commands"] = [
                "PRAGMA journal_mode = WAL",
                f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}",
                "PRAGMA foreign_keys = ON",
            ]
        else:
            args["min_size"] = 1
            args["max_size"] = 4
        return Database.create(
            self.url, upgrade_table=upgrade_table, db_args=args, log=logging.getLogger(f"mau.db.{name}")
        )

    async def acquire(self) -> None:
        async with self._lock:
            if self._users == 0:
                from mautrix.crypto.store.asyncpg import PgCryptoStateStore, PgCryptoStore

                crypto_db = self._create(PgCryptoStore.upgrade_table, "crypto")
                state_db = self._create(PgCryptoStateStore.upgrade_table, "state")
                try:
                    await _start(crypto_db)
                    await _start(state_db)
                except BaseException:
                    await _stop(crypto_db)
                    await _stop(state_db)
                    raise
                self.crypto_db, self.state_db = crypto_db, state_db
                self.state_store = PgCryptoStateStore(state_db)
            self._users += 1

    async def release(self) -> None:
        async with self._lock:
            self._users -= 1
            if self._users == 0:
                for db in (self.crypto_db, self.state_db):
                    if db is not None:
                        await _stop(db)
                self.crypto_db = self.state_db = self.state_store = None


async def _start(db: Database) -> None:
    """Open ``db`` and bring its tables up to date; two processes doing so at once (PostgreSQL) race
    on ``CREATE TABLE``, so the loser tries again and finds the tables made."""
    for attempt in range(UPGRADE_ATTEMPTS):
        try:
            await db.start()
            return
        except Exception:
            if attempt == UPGRADE_ATTEMPTS - 1:
                raise
            await _stop(db)
            await asyncio.sleep(0.2 * (attempt + 1))


async def _stop(db: Database) -> None:
    with contextlib.suppress(Exception):
        await db.stop()


@dataclass
class Pending:
    """An encrypted event whose Megolm key has not arrived yet."""

    room_id: str
    event: dict[str, Any]
    commands: bool
    until: float


class LostStore(Exception):
    """The device's keys are on the homeserver but the store has no account for it (a vault restored
    without mautrix's tables): this device cannot be used for encryption again."""


class AccountCrypto:
    """The olm machine of one account, open only while this process holds the account's lease."""

    def __init__(self, database: CryptoDatabase, client: Client, pickle_key: str) -> None:
        self.database = database
        self.client = client
        self.pickle_key = pickle_key
        self.machine: OlmMachine | None = None
        self.store: Any = None
        self.pending: list[Pending] = []
        self.undecryptable = 0

    @property
    def device_id(self) -> str:
        return str(self.client.device_id)

    async def open(self) -> None:
        from mautrix.crypto import OlmMachine
        from mautrix.crypto.store.asyncpg import PgCryptoStore

        await self.database.acquire()
        try:
            assert self.database.crypto_db is not None
            store = PgCryptoStore(str(self.client.mxid), self.pickle_key, self.database.crypto_db)
            await store.open()
            stored_device = await store.get_device_id()
            if stored_device and stored_device != self.client.device_id:
                log.warning(
                    "matrix: the crypto store belongs to another device; starting it afresh",
                    user=self.client.mxid,
                    stored=stored_device,
                    device=self.client.device_id,
                )
                await store.delete()
                stored_device = None
            fresh = await store.get_account() is None
            if fresh and await self._device_has_keys():
                raise LostStore(
                    f"device {self.client.device_id} has keys on the homeserver that the vault does not hold"
                )
            self.client.state_store = self.database.state_store
            machine = OlmMachine(self.client, store, self.database.state_store)
            await machine.load()
            if not stored_device:
                await store.put_device_id(self.client.device_id)
            self.client.crypto = machine
            self.machine, self.store = machine, store
            await machine.share_keys()
            assert machine.account is not None
            log.info(
                "matrix end-to-end encryption on",
                user=self.client.mxid,
                device=self.client.device_id,
                fingerprint=machine.account.fingerprint,
            )
        except BaseException:
            await self.close()
            raise

    async def _device_has_keys(self) -> bool:
        from mautrix.types import DeviceID, UserID

        mxid, device = UserID(str(self.client.mxid)), DeviceID(self.device_id)
        response = await self.client.query_keys({mxid: [device]})
        return device in (response.device_keys.get(mxid) or {})

    async def close(self) -> None:
        machine, self.machine = self.machine, None
        if machine is not None:
            self._remove_handlers(machine)
            self.client.crypto = None
        self.client.state_store = None
        self.store = None
        self.pending = []
        if machine is not None or self.database._users:
            await self.database.release()

    def _remove_handlers(self, machine: OlmMachine) -> None:
        """The machine hooked itself into the client's dispatcher; a later machine must not share it."""
        from mautrix.client import InternalEventType
        from mautrix.types import EventType

        for kind, handler in (
            (InternalEventType.DEVICE_OTK_COUNT, machine.handle_otk_count),
            (InternalEventType.DEVICE_LISTS, machine.handle_device_lists),
            (EventType.TO_DEVICE_ENCRYPTED, machine.handle_to_device_event),
            (EventType.ROOM_KEY_REQUEST, machine.handle_room_key_request),
            (EventType.BEEPER_ROOM_KEY_ACK, machine.handle_beep_room_key_ack),
            (EventType.ROOM_MEMBER, machine.handle_member_event),
        ):
            with contextlib.suppress(KeyError, ValueError):
                self.client.remove_event_handler(kind, handler)  # type: ignore[arg-type]

    # -- one sync batch --------------------------------------------------------------------------------

    async def on_sync(self, data: dict[str, Any]) -> None:
        """Before the rooms: new one-time keys when the server runs low, changed device lists, and the
        to-device events (Olm-encrypted room keys first of all), each awaited in order."""
        from mautrix.types import DeviceLists, DeviceOTKCount, EventType, ToDeviceEvent

        machine = self.machine
        assert machine is not None
        counts = data.get("device_one_time_keys_count")
        if isinstance(counts, dict):
            await machine.handle_otk_count(
                DeviceOTKCount(
                    signed_curve25519=int(counts.get("signed_curve25519", 0)),
                    curve25519=int(counts.get("curve25519", 0)),
                )
            )
        lists = data.get("device_lists") or {}
        if lists.get("changed") or lists.get("left"):
            await machine.handle_device_lists(
                DeviceLists(changed=list(lists.get("changed") or []), left=list(lists.get("left") or []))
            )
        for raw in (data.get("to_device") or {}).get("events") or []:
            try:
                event = ToDeviceEvent.deserialize(raw)
                if event.type == EventType.TO_DEVICE_ENCRYPTED:
                    await machine.handle_to_device_event(event)
                elif event.type == EventType.ROOM_KEY_REQUEST:
                    await machine.handle_room_key_request(event)
            except Exception as exc:  # one bad to-device event must not stop the account
                log.warning("matrix: to-device event not handled", type=raw.get("type"), error=repr(exc))

    async def on_state(self, room_id: str, raw: dict[str, Any]) -> None:
        """A state event (from ``state`` or the timeline): the room state store learns encryption and
        memberships, and a membership change in an encrypted room retires the outbound session."""
        from mautrix.types import JSON, EventType, StateEvent

        if self.machine is None or raw.get("state_key") is None:
            return
        try:
            event = StateEvent.deserialize(JSON({**raw, "room_id": room_id}))
            await self.database.state_store.update_state(event)
            if event.type == EventType.ROOM_MEMBER:
                await self.machine.handle_member_event(event)
        except Exception as exc:
            log.warning("matrix: state event not stored", room=room_id, error=repr(exc))

    async def decrypt(
        self, room_id: str, raw: dict[str, Any], commands: bool, now: float
    ) -> dict[str, Any] | None:
        """The decrypted event (as a sync event: type, content, sender, event_id), or None: kept for
        later when its key has not arrived yet, dropped (and counted) when it can never be read."""
        from mautrix.errors import DecryptionError, SessionNotFound
        from mautrix.types import JSON, EncryptedEvent

        assert self.machine is not None
        try:
            event = EncryptedEvent.deserialize(JSON({**raw, "room_id": room_id}))
            decrypted = await self.machine.decrypt_megolm_event(event)
        except SessionNotFound:
            if not any(p.event.get("event_id") == raw.get("event_id") for p in self.pending):
                self.pending.append(Pending(room_id, raw, commands, now + PENDING_FOR))
            return None
        except (DecryptionError, ValueError, KeyError, TypeError) as exc:
            self.undecryptable += 1
            log.warning("matrix: cannot decrypt", room=room_id, event_id=raw.get("event_id"), error=repr(exc))
            return None
        out = decrypted.serialize()
        out["event_id"] = raw.get("event_id")
        out["sender"] = raw.get("sender")
        return out

    def take_pending(self, now: float) -> list[Pending]:
        """The waiting events to try again, oldest first; those waited for too long are given up."""
        waiting, self.pending = self.pending, []
        keep = []
        for item in waiting:
            if item.until < now:
                self.undecryptable += 1
                log.warning(
                    "matrix: the key of an encrypted event never came",
                    room=item.room_id,
                    event_id=item.event.get("event_id"),
                )
            else:
                keep.append(item)
        return keep


def random_pickle_key() -> str:
    return os.urandom(24).hex()


def encrypt_attachment(data: bytes) -> tuple[bytes, Any]:
    """``(ciphertext, EncryptedFile)`` for a file sent into an encrypted room (AES-CTR, its key and
    hash in the event's ``file``); imported here, lazily, as everything of the crypto extra is. Only
    called with the olm machine running, so the packages are there."""
    from mautrix.crypto.attachments import encrypt_attachment as encrypt

    return encrypt(data)
