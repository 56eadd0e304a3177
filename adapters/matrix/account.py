"""One bot account: log in once, the /sync loop, invites and kicks, inbound commands, sending.

The sync loop is the gateway's own, on mautrix's client API: a batch of events is handled first (each
command runs through the router and commits, its replies queued in the outbox) and only then is its
``next_batch`` written to the vault. A crash in between re-reads the batch after the restart, and the
router drops the commands it has already handled (their event ids are its message ids), so nothing is
missed and nothing runs twice. A timeline the homeserver cut short (``limited``) while the gateway was
away is filled in from ``/messages`` back to the stored token.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import hashlib
import json
import logging
import time
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any, cast

import aiohttp
import structlog
from mautrix.api import Method, Path
from mautrix.client import Client, ClientAPI
from mautrix.errors import (
    MatrixConnectionError,
    MatrixRequestError,
    MLimitExceeded,
    MNotFound,
    MUnknownToken,
)
from mautrix.types import (
    JSON,
    DeviceID,
    EventContent,
    EventType,
    FilterID,
    RoomAlias,
    RoomCreatePreset,
    RoomID,
    SyncToken,
    UserID,
)

from adapters.matrix import notices
from adapters.matrix.crypto import AccountCrypto, LostStore
from adapters.matrix.http import GatewayHTTPAPI
from adapters.matrix.render import strip_reply_fallback
from adapters.matrix.settings import AccountSettings
from adapters.matrix.state import VaultState
from gateway import Channel, Identity, InboundMessage
from gateway.delivery.leases import Lease, run_owned
from gateway.delivery.pacing import Backoff, Streak

if TYPE_CHECKING:
    from adapters.matrix.adapter import MatrixAdapter

log = structlog.get_logger(__name__)

NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    MatrixConnectionError,
    aiohttp.ClientError,
    TimeoutError,
    ConnectionError,
)
# For ``except``: mypy reads a tuple constant, not a starred one written in place.
LIMIT_OR_NETWORK: tuple[type[BaseException], ...] = (MLimitExceeded, *NETWORK_ERRORS)
REQUEST_OR_NETWORK: tuple[type[BaseException], ...] = (MatrixRequestError, *NETWORK_ERRORS)
# Events per room in one sync response; a longer gap is filled from /messages.
TIMELINE_LIMIT = 50
GAP_PAGE = 100
GAP_MAX_PAGES = 20
ENCRYPTION = "m.room.encryption"
ENCRYPTED_EVENT = "m.room.encrypted"
MESSAGE_TYPES = ["m.room.message", "m.room.member", ENCRYPTION, ENCRYPTED_EVENT]
# After refusing an inviter's invite with a notice, later invites of theirs within this many seconds
# are refused without one (no way to make the bot post into rooms again and again).
REFUSAL_NOTICE_EVERY = 3600.0


def sync_filter(timeline_limit: int | None = None) -> dict[str, Any]:
    """Only what the bot reads: room messages and memberships; no presence, receipts, typing or
    account data; members loaded lazily (just the senders of the events in the batch)."""
    return {
        "presence": {"not_types": ["*"]},
        "account_data": {"not_types": ["*"]},
        "room": {
            "account_data": {"not_types": ["*"]},
            "ephemeral": {"not_types": ["*"]},
            "state": {"types": ["m.room.member", ENCRYPTION], "lazy_load_members": True},
            "timeline": {
                "types": MESSAGE_TYPES,
                "limit": timeline_limit if timeline_limit is not None else TIMELINE_LIMIT,
            },
        },
    }


def _tag(room_id: str) -> str:
    """A room id as a short token for a transaction id (room ids hold ``!`` and ``:``)."""
    return hashlib.sha256(room_id.encode()).hexdigest()[:16]


class ConfigurationError(Exception):
    """The account cannot work as configured (wrong user id for the token, no password)."""


def retry_after(exc: BaseException) -> float | None:
    value = getattr(exc, "retry_after", None)
    return float(value) if isinstance(value, int | float) else None


class MatrixAccount:
    def __init__(self, adapter: MatrixAdapter, name: str, config: AccountSettings) -> None:
        self.adapter = adapter
        self.services = adapter.services
        self.name = name
        self.config = config
        self.user_id = config.user_id
        self.state = VaultState(self.services.vault, f"matrix:{name}")
        self.client: ClientAPI | None = None
        self._http: aiohttp.ClientSession | None = None
        self.joined: set[str] = set()
        self.left: set[str] = set()
        self.names: dict[str, dict[str, str]] = defaultdict(dict)
        self.dm_rooms: dict[str, str] = {}
        self.encrypted: set[str] = set()  # rooms with m.room.encryption (read only when e2ee runs)
        self.noticed: set[str] = set()  # encrypted rooms told that the bot cannot read them
        self.plain: set[str] = set()  # rooms looked up and found unencrypted (no lookup per send)
        self.e2ee: AccountCrypto | None = None  # the olm machine, while this process holds the lease
        self._refusal_noticed: dict[str, float] = {}
        self.ready = asyncio.Event()
        self.stats: Counter[str] = Counter()
        self.next_batch: str | None = None
        self._blocked_until = 0.0
        self._failing = False
        self._configured_joined = False
        self._room_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._dm_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.owned = False  # this process runs the sync loop (holds the lease matrix:<name>)
        self.synced_at: float | None = None  # time.time() of the last good sync (gateway status)

    # -- life cycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        self._http = aiohttp.ClientSession(
            headers={"User-Agent": f"nightcap-gateway {GatewayHTTPAPI.default_ua}"}
        )
        api = GatewayHTTPAPI(
            base_url=self.config.homeserver,
            client_session=self._http,
            request_timeout=self.config.request_timeout,
            log=logging.getLogger(f"mau.gateway.{self.name}"),
        )
        # mautrix's high-level client: with an olm machine set, it encrypts what it sends into an
        # encrypted room. Its own sync and dispatcher are never run (the sync loop is ours).
        self.client = Client(mxid=self.user_id, device_id=self.config.device_id or "", api=api)
        self.dm_rooms = {user: v["room_id"] for user, v in (await self.state.with_prefix("dm:")).items()}
        self.left = set(await self.state.with_prefix("left:"))
        self.noticed = set(await self.state.with_prefix("encrypted:"))
        self.encrypted = set(self.noticed)
        self._task = asyncio.create_task(
            run_owned(self.services.leases, f"matrix:{self.name}", self._run_owned),
            name=f"matrix:{self.name}",
        )

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._http is not None:
            await self._http.close()
            self._http = None
        self.ready.clear()

    @property
    def api(self) -> ClientAPI:
        assert self.client is not None, "the account is not started"
        return self.client

    async def _run_owned(self, lease: Lease | None) -> None:
        """The sync loop runs only in the process holding the lease ``matrix:<account>``: one sync
        loop per token. A standby has not synced, so it is not ``ready`` and knows no joined rooms,
        and its outbox worker hands this account's rows back (``RetryLater``) for the owner."""
        self.owned = True
        try:
            await self._run()
        finally:
            self.owned = False
            self.ready.clear()
            self.joined = set()
            await self._close_crypto()

    async def _run(self) -> None:
        # 1 s doubling up to retry_max_delay, jitter ±25 %, as the adapter's sends.
        backoff = Streak(Backoff(1.0, self.config.retry_max_delay, (0.75, 1.25)))
        while True:
            try:
                await self._login()
                await self._open_crypto()
                await self._prepare()
                await self._sync_forever(backoff)
            except asyncio.CancelledError:
                raise
            except ConfigurationError as exc:
                log.error("matrix account cannot start", account=self.name, error=str(exc))
                return
            except LostStore as exc:
                # The vault lost this device's encryption keys: only a new device can encrypt again.
                log.error("matrix: crypto store lost; new device", account=self.name, error=str(exc))
                self.stats["crypto_store_lost"] += 1
                await self._close_crypto()
                await self._new_device()
            except MUnknownToken:
                self.stats["token_rejected"] += 1
                self._failing = True
                if self.config.access_token:
                    log.error("matrix access token rejected; set a new one", account=self.name)
                    await asyncio.sleep(backoff.next())
                else:
                    log.warning("matrix access token rejected; logging in again", account=self.name)
                    await self._forget_token()
            except MLimitExceeded as exc:
                self._failing = True
                await asyncio.sleep(retry_after(exc) or backoff.next())
            except NETWORK_ERRORS as exc:
                self._failing = True
                self.stats["sync_errors"] += 1
                delay = backoff.next()
                log.info("matrix homeserver unreachable", account=self.name, error=repr(exc), retry_in=delay)
                await asyncio.sleep(delay)
            except MatrixRequestError as exc:
                self._failing = True
                self.stats["sync_errors"] += 1
                delay = backoff.next()
                log.warning("matrix request failed", account=self.name, error=repr(exc), retry_in=delay)
                await asyncio.sleep(delay)
            except Exception:
                self._failing = True
                delay = backoff.next()
                log.exception("matrix sync loop error", account=self.name, retry_in=delay)
                await asyncio.sleep(delay)

    # -- login -----------------------------------------------------------------------------------------

    async def _login(self) -> None:
        api = self.api
        if api.api.token:
            return
        if self.config.access_token:
            api.api.token = self.config.access_token
            who = await api.whoami()
            if who.user_id != self.user_id:
                raise ConfigurationError(f"the access token belongs to {who.user_id}, not {self.user_id}")
            api.device_id = who.device_id or api.device_id
            return
        stored = await self.state.get("session") or {}
        same = stored.get("user_id") == self.user_id and stored.get("homeserver") == self.config.homeserver
        if same and stored.get("access_token"):
            api.api.token = stored["access_token"]
            api.device_id = DeviceID(stored.get("device_id") or "")
            return
        if not self.config.password:
            raise ConfigurationError("no stored session and no password to log in with")
        device = self.config.device_id or (stored.get("device_id") if same else None)
        response = await api.login(
            identifier=UserID(self.user_id),
            password=self.config.password,
            device_id=device,
            device_name=self.config.device_name,
        )
        if response.user_id != self.user_id:
            raise ConfigurationError(f"logged in as {response.user_id}, not {self.user_id}")
        await self.state.put(
            "session",
            {
                "user_id": self.user_id,
                "homeserver": self.config.homeserver,
                "access_token": response.access_token,
                "device_id": response.device_id,
            },
        )
        self.stats["logins"] += 1
        log.info("matrix login", account=self.name, user=self.user_id, device=response.device_id)

    async def _forget_token(self) -> None:
        self.api.api.token = ""
        stored = await self.state.get("session")
        if stored:
            await self.state.put("session", {**stored, "access_token": None})

    async def _new_device(self) -> None:
        """Give up the current device (its keys are gone): log it out, forget it, log in anew."""
        if not self.config.password:
            raise ConfigurationError(
                "the crypto store lost this device's keys; set a password (or a new token) for a new device"
            )
        with contextlib.suppress(MatrixRequestError, *NETWORK_ERRORS):
            await self.api.logout()
        self.api.api.token = ""
        self.api.device_id = DeviceID("")
        await self.state.put("session", {"user_id": self.user_id, "homeserver": self.config.homeserver})

    # -- end-to-end encryption -------------------------------------------------------------------------

    async def _open_crypto(self) -> None:
        """The olm machine, opened under the lease (only one process ever uses the account's Olm
        account) once the device is known; closed when the lease goes (``_run_owned``)."""
        if self.e2ee is not None or not self.adapter.encryption_on:
            return
        assert isinstance(self.client, Client)
        if not self.api.device_id:
            self.api.device_id = DeviceID((await self.api.whoami()).device_id or "")
        e2ee = AccountCrypto(self.adapter.crypto_database(), self.client, await self.adapter.pickle_key())
        await e2ee.open()
        self.e2ee = e2ee

    async def _close_crypto(self) -> None:
        e2ee, self.e2ee = self.e2ee, None
        if e2ee is not None:
            await e2ee.close()

    async def is_encrypted(self, room_id: str) -> bool:
        """Whether ``room_id`` is encrypted, as far as this account knows; with e2ee running, a room
        never seen is looked up once (its ``m.room.encryption`` state), so that nothing goes plain
        into an encrypted room whose state came before a restart."""
        if room_id in self.encrypted:
            return True
        if self.e2ee is None or room_id in self.plain:
            return False
        known = await self.e2ee.database.state_store.is_encrypted(room_id)
        if known is None:
            try:
                await self.api.get_state_event(RoomID(room_id), EventType.ROOM_ENCRYPTION)
                known = True
            except MNotFound:
                known = False
        (self.encrypted if known else self.plain).add(room_id)
        return bool(known)

    def refuses(self, room_id: str) -> bool:
        """An encrypted room the bot cannot read or write (no olm machine running)."""
        return room_id in self.encrypted and self.e2ee is None

    async def _decrypted(self, room_id: str, event: dict[str, Any], commands: bool) -> None:
        assert self.e2ee is not None
        clear = await self.e2ee.decrypt(room_id, event, commands, time.time())
        if clear is None:
            return
        self.stats["decrypted"] += 1
        if clear.get("type") == "m.room.message" and commands:
            await self._on_message(room_id, clear)

    async def _retry_pending(self) -> None:
        """Encrypted events that came before their keys, tried again now the batch's keys are in."""
        assert self.e2ee is not None
        for item in self.e2ee.take_pending(time.time()):
            await self._decrypted(item.room_id, item.event, item.commands)

    # -- sync ------------------------------------------------------------------------------------------

    async def _prepare(self) -> None:
        self.joined = set(await self.api.get_joined_rooms())
        if not self._configured_joined:
            await self._join_configured()
            self._configured_joined = True

    async def _join_configured(self) -> None:
        """Join the configured rooms and this account's Storyteller-log rooms. A log room it cannot
        join is said loudly (log and ``gateway status``), and its rows wait for an invite."""
        stlog = self.adapter.stlog_targets(self.name)
        for ref in dict.fromkeys([*self.config.rooms, *stlog]):
            is_log = ref in stlog
            try:
                if ref.startswith("!"):
                    room_id = ref
                else:
                    room_id = str((await self.api.resolve_room_alias(RoomAlias(ref))).room_id)
                if is_log:
                    self.adapter.log_room(ref, room_id)
                if room_id in self.joined:
                    continue
                if room_id in self.left:
                    log.info("matrix: not rejoining a room the bot was removed from", room=room_id)
                    if is_log:
                        self._unreachable(ref, f"the bot was removed from it; invite {self.user_id} again")
                    continue
                target = RoomID(ref) if ref.startswith("!") else RoomAlias(ref)
                await self.api.join_room(target, max_retries=0)
                self.joined.add(room_id)
                log.info("matrix joined configured room", account=self.name, room=room_id)
            except LIMIT_OR_NETWORK:
                raise
            except MatrixRequestError as exc:
                if is_log:
                    self._unreachable(ref, f"cannot join ({exc.errcode}); invite {self.user_id} to it")
                else:
                    log.warning(
                        "matrix cannot join configured room", account=self.name, room=ref, error=repr(exc)
                    )

    def _unreachable(self, ref: str, reason: str) -> None:
        self.adapter.unreachable[ref] = reason
        log.error(
            "matrix: the Storyteller-log room cannot be reached; its rows wait until it can",
            account=self.name,
            room=ref,
            reason=reason,
        )

    async def _sync(self, since: str | None, timeout: float) -> dict[str, Any]:
        data = await self.api.sync(
            since=None if since is None else SyncToken(since),
            timeout=int(timeout * 1000),
            filter_id=FilterID(json.dumps(sync_filter(), separators=(",", ":"))),
        )
        return data if isinstance(data, dict) else {}

    async def _sync_forever(self, backoff: Streak) -> None:
        stored = await self.state.get("sync") or {}
        since = stored.get("next_batch") if stored.get("user_id") == self.user_id else None
        if since is None:
            # First start: old history is not replayed; pending invites are still answered.
            data = await self._sync(None, 0)
            await self._handle(data, since=None)
            since = await self._save(data, None)
            await self._synced()
        # The first sync of a run returns at once, so that a restarted gateway, or a standby that
        # just took the account over, is ready (and delivers) without waiting out a long poll.
        timeout = 0.0
        while True:
            data = await self._sync(since, timeout)
            timeout = self.config.sync_timeout
            backoff.reset()
            await self._handle(data, since=since)
            since = await self._save(data, since)
            await self._synced()

    async def _save(self, data: dict[str, Any], since: str | None) -> str | None:
        next_batch = data.get("next_batch")
        if isinstance(next_batch, str) and next_batch != since:
            await self.state.put("sync", {"user_id": self.user_id, "next_batch": next_batch})
            self.next_batch = next_batch
            return next_batch
        return since

    async def _synced(self) -> None:
        """After a good sync: ready; after a failure, retry now what waited on the network."""
        first = not self.ready.is_set()
        self.ready.set()
        self.synced_at = time.time()
        if first or self._failing:
            self._failing = False
            if not first:
                self.stats["recoveries"] += 1
                log.info("matrix sync recovered", account=self.name)
            await self.adapter.network_recovered()

    async def _handle(self, data: dict[str, Any], since: str | None) -> None:
        rooms = data.get("rooms") or {}
        if self.e2ee is not None:
            await self.e2ee.on_sync(data)
            await self._retry_pending()
        for room_id, room in (rooms.get("invite") or {}).items():
            await self._on_invite(room_id, room)
        for room_id, room in (rooms.get("join") or {}).items():
            if room_id not in self.joined:  # joined elsewhere (another client of the bot's account)
                self.joined.add(room_id)
                await self.adapter.room_reachable(room_id)
            self.left.discard(room_id)
            for event in (room.get("state") or {}).get("events") or []:
                self._note_member(room_id, event)
                if self.e2ee is not None:
                    await self.e2ee.on_state(room_id, event)
                if event.get("type") == ENCRYPTION:
                    await self._on_encrypted(room_id)
            timeline = room.get("timeline") or {}
            events = list(timeline.get("events") or [])
            joined_at = self._own_join(events)
            if joined_at is not None:
                # Newly joined: what was said before the bot came in is history, not commands for it.
                for event in events[:joined_at]:
                    self._note_member(room_id, event)
                    if self.e2ee is not None:
                        await self.e2ee.on_state(room_id, event)
                    if event.get("type") == ENCRYPTION:
                        await self._on_encrypted(room_id)
                events = events[joined_at:]
            elif since is not None and timeline.get("limited") and timeline.get("prev_batch"):
                events = await self._fill_gap(room_id, str(timeline["prev_batch"]), since) + events
            for event in events:
                await self._on_timeline_event(room_id, event, commands=since is not None)
        for room_id, room in (rooms.get("leave") or {}).items():
            for event in (room.get("timeline") or {}).get("events") or []:
                if event.get("type") == "m.room.member" and event.get("state_key") == self.user_id:
                    await self._on_own_membership(room_id, event)
            self.joined.discard(room_id)

    def _own_join(self, events: list[dict[str, Any]]) -> int | None:
        """The index of the bot's own (re)join in a timeline, if it is there; a profile change (join
        after join) is no join."""
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            before = ((event.get("unsigned") or {}).get("prev_content") or {}).get("membership")
            if (
                event.get("type") == "m.room.member"
                and event.get("state_key") == self.user_id
                and (event.get("content") or {}).get("membership") == "join"
                and before != "join"
            ):
                return index
        return None

    async def _fill_gap(self, room_id: str, prev_batch: str, since: str) -> list[dict[str, Any]]:
        """Events between the stored token and the start of a cut-short timeline, oldest first."""
        events: list[dict[str, Any]] = []
        token: str = prev_batch  # a page without an ``end`` is the last
        query_filter = json.dumps({"types": MESSAGE_TYPES, "lazy_load_members": True})
        for _ in range(GAP_MAX_PAGES):
            response = await self.api.api.request(
                Method.GET,
                Path.v3.rooms[room_id].messages,
                query_params={
                    "from": token,
                    "to": since,
                    "dir": "b",
                    "limit": str(GAP_PAGE),
                    "filter": query_filter,
                },
            )
            chunk = response.get("chunk") or []
            events.extend(chunk)
            for event in response.get("state") or []:
                self._note_member(room_id, event)
            token = response.get("end")
            if not chunk or not token:
                break
        self.stats["gaps_filled"] += 1
        log.info("matrix timeline gap filled", account=self.name, room=room_id, events=len(events))
        return list(reversed(events))

    def _note_member(self, room_id: str, event: dict[str, Any]) -> None:
        if event.get("type") != "m.room.member" or not isinstance(event.get("state_key"), str):
            return
        content = event.get("content") or {}
        name = content.get("displayname")
        if content.get("membership") == "join" and isinstance(name, str) and name.strip():
            self.names[room_id][event["state_key"]] = name.strip()[:100]

    async def _on_timeline_event(self, room_id: str, event: dict[str, Any], *, commands: bool) -> None:
        kind = event.get("type")
        if self.e2ee is not None and "state_key" in event:
            await self.e2ee.on_state(room_id, event)
        if kind == ENCRYPTED_EVENT and self.e2ee is not None:
            self.encrypted.add(room_id)
            if event.get("sender") not in self.adapter.own_user_ids:  # our own: nothing to read
                await self._decrypted(room_id, event, commands)
            return
        if kind in (ENCRYPTION, ENCRYPTED_EVENT):
            await self._on_encrypted(room_id)
            return
        if kind == "m.room.member":
            self._note_member(room_id, event)
            target = event.get("state_key")
            membership = (event.get("content") or {}).get("membership")
            if target == self.user_id:
                await self._on_own_membership(room_id, event)
            elif membership in ("leave", "ban") and self.dm_rooms.get(str(target)) == room_id:
                await self._drop_dm(str(target), room_id, leave=True)
            return
        if kind == "m.room.message" and commands and not self.refuses(room_id):
            await self._on_message(room_id, event)

    async def _on_encrypted(self, room_id: str) -> None:
        """An encrypted room. With the olm machine running it is read and answered encrypted. Without
        it the bot cannot read it, so it says so once (an unencrypted notice; the room is kept as
        ``encrypted:<room>`` in the vault) and answers nothing there; a direct room that became
        encrypted is then no longer used for private replies: the next opens a readable one."""
        self.encrypted.add(room_id)
        self.plain.discard(room_id)
        if self.e2ee is not None or room_id in self.noticed:
            return  # with e2ee running the room is read and answered encrypted: nothing to say
        log.warning(
            "matrix: encrypted room, not read",
            account=self.name,
            room=room_id,
            why=self.adapter.encryption_off_reason,
        )
        try:
            await self.send(room_id, notices.notice(notices.ENCRYPTED), f"encrypted-{_tag(room_id)}")
        except LIMIT_OR_NETWORK:
            raise  # the batch is read again after the back-off, and the notice sent then
        except MatrixRequestError as exc:
            log.warning("matrix: encrypted-room notice not sent", room=room_id, error=repr(exc))
        self.noticed.add(room_id)
        self.stats["encrypted_rooms"] += 1
        await self.state.put(f"encrypted:{room_id}", {"noticed": True})
        for user, dm in list(self.dm_rooms.items()):
            if dm == room_id:
                await self._drop_dm(user, room_id, leave=False)

    async def _on_message(self, room_id: str, event: dict[str, Any]) -> None:
        sender = event.get("sender")
        content = event.get("content") or {}
        if not isinstance(sender, str) or sender in self.adapter.own_user_ids:
            return  # never our own events (nor another account of this gateway)
        if content.get("msgtype") != "m.text" or not isinstance(content.get("body"), str):
            return  # m.notice is bot traffic (no loops); emotes, images and the rest are no commands
        relates = content.get("m.relates_to") or {}
        if relates.get("rel_type") == "m.replace":
            return  # an edit does not run a command again
        body = strip_reply_fallback(content["body"]) if "m.in_reply_to" in relates else content["body"]
        line = body.strip().split("\n", 1)[0].strip()
        prefix = self.config.prefix or self.services.settings.gateway.prefix
        if line.startswith(prefix):
            text = self.services.settings.gateway.prefix + line[len(prefix) :]
        elif self.services.bare_command(line) is not None:
            text = line  # a bare command (said alone, no prefix); the router knows it
        else:
            return  # chat
        event_id = str(event.get("event_id", ""))
        name = self.names[room_id].get(sender) or sender[1:].split(":", 1)[0]
        message = InboundMessage(
            sender=Identity(platform="matrix", id=sender, display_name=name),
            channel=Channel(platform="matrix", id=room_id, direct=self.is_direct(room_id)),
            text=text,
            message_id=event_id or None,
            prefixed=True,
            sync_reply=False,
            reply_to=event_id or None,
        )
        self.stats["commands"] += 1
        await self.services.handle(message)

    # -- invites and removals -------------------------------------------------------------------------

    def invite_allowed(self, inviter: str | None, room_id: str) -> bool:
        if room_id in self.config.allowed_rooms or room_id in self.config.rooms:
            return True
        if room_id in self.adapter.stlog_rooms:
            return True  # the Storyteller-log room: its rows are waiting for this invite
        if inviter is None:
            return False
        if self.services.settings.vault.owner == f"matrix:{inviter}":
            return True
        return any(fnmatch.fnmatchcase(inviter, pattern) for pattern in self.config.allowed_inviters)

    async def _on_invite(self, room_id: str, room: dict[str, Any]) -> None:
        inviter: str | None = None
        direct = False
        for event in (room.get("invite_state") or {}).get("events") or []:
            content = event.get("content") or {}
            if (
                event.get("type") == "m.room.member"
                and event.get("state_key") == self.user_id
                and content.get("membership") == "invite"
            ):
                inviter = event.get("sender")
                direct = content.get("is_direct") is True
        try:
            if self.invite_allowed(inviter, room_id):
                await self.api.join_room_by_id(RoomID(room_id))
                self.joined.add(room_id)
                if room_id in self.left:
                    self.left.discard(room_id)
                    await self.state.delete(f"left:{room_id}")
                self.stats["invites_accepted"] += 1
                await self.adapter.room_reachable(room_id)
                if direct and inviter and inviter not in self.dm_rooms:
                    # A direct chat the user opened: private replies to them go here.
                    self.dm_rooms[inviter] = room_id
                    await self.state.put(f"dm:{inviter}", {"room_id": room_id})
                log.info("matrix invite accepted", account=self.name, room=room_id, inviter=inviter)
            else:
                self.stats["invites_refused"] += 1  # before: the inviter may see the leave at once
                await self._refuse(room_id, inviter)
                log.info("matrix invite refused", account=self.name, room=room_id, inviter=inviter)
        except LIMIT_OR_NETWORK:
            raise  # the batch is read again after the back-off
        except MatrixRequestError as exc:
            log.warning("matrix invite not handled", account=self.name, room=room_id, error=repr(exc))

    async def _refuse(self, room_id: str, inviter: str | None) -> None:
        """Turn an invite down so that the inviter sees why: join, say so in a notice, leave. The same
        inviter again within ``REFUSAL_NOTICE_EVERY`` is only declined (with the reason)."""
        now = time.monotonic()
        last = self._refusal_noticed.get(inviter or "")
        if inviter and (last is None or now - last > REFUSAL_NOTICE_EVERY):
            self._refusal_noticed[inviter] = now
            try:
                await self.api.join_room_by_id(RoomID(room_id))
                name = self.names[room_id].get(inviter) or inviter[1:].split(":", 1)[0]
                refusal = notices.notice(notices.REFUSED, inviter, name)
                await self.send(room_id, refusal, f"refuse-{_tag(room_id)}-{int(time.time())}")
            except MatrixRequestError as exc:
                log.info("matrix: refusal notice not sent", room=room_id, error=repr(exc))
        await self.api.leave_room(RoomID(room_id), reason=notices.REFUSE_REASON)

    async def point_to_dm(self, room_id: str, user: str, txn_id: str) -> None:
        """Best effort: a private reply has just opened a direct room; say so where the command was."""
        name = self.names[room_id].get(user) or user[1:].split(":", 1)[0]
        try:
            await self.send(room_id, notices.pointer(user, name), txn_id)
        except REQUEST_OR_NETWORK as exc:
            log.info("matrix: direct-room pointer not sent", room=room_id, error=repr(exc))

    async def _on_own_membership(self, room_id: str, event: dict[str, Any]) -> None:
        content = event.get("content") or {}
        membership = content.get("membership")
        sender = event.get("sender")
        if membership not in ("leave", "ban") or room_id in self.left:
            return
        self.joined.discard(room_id)
        if sender == self.user_id:
            return  # we left ourselves (a refused invite, a dropped direct room)
        self.left.add(room_id)
        self.stats["removed"] += 1
        await self.state.put(
            f"left:{room_id}", {"by": sender, "membership": membership, "reason": content.get("reason")}
        )
        for user, dm in list(self.dm_rooms.items()):
            if dm == room_id:
                await self._drop_dm(user, room_id, leave=False)
        with contextlib.suppress(MatrixRequestError, *NETWORK_ERRORS):
            await self.api.forget_room(RoomID(room_id))
        log.info(
            "matrix: removed from room", account=self.name, room=room_id, by=sender, membership=membership
        )

    async def _drop_dm(self, user: str, room_id: str, *, leave: bool) -> None:
        self.dm_rooms.pop(user, None)
        await self.state.delete(f"dm:{user}")
        if leave:
            with contextlib.suppress(MatrixRequestError, *NETWORK_ERRORS):
                await self.api.leave_room(RoomID(room_id))
            self.joined.discard(room_id)

    # -- sending ---------------------------------------------------------------------------------------

    def is_direct(self, room_id: str, user: str | None = None) -> bool:
        """A direct room of the bot: one it created for private replies, or a direct chat (an
        ``is_direct`` invite) a user opened with it; with ``user``, that user's."""
        if user is not None:
            return self.dm_rooms.get(user) == room_id
        return room_id in self.dm_rooms.values()

    def blocked_for(self) -> float:
        return max(0.0, self._blocked_until - asyncio.get_running_loop().time())

    def block(self, seconds: float) -> None:
        self._blocked_until = max(self._blocked_until, asyncio.get_running_loop().time() + seconds)

    async def dm_room(self, user: str) -> tuple[str, bool]:
        """The direct room with ``user``, and whether it was opened just now: created once (with
        ``is_direct``), then remembered."""
        async with self._dm_lock:
            room = self.dm_rooms.get(user)
            if room and room not in self.left:
                return room, False
            room = str(
                await self.api.create_room(
                    preset=RoomCreatePreset.TRUSTED_PRIVATE,
                    is_direct=True,
                    invitees=[UserID(user)],
                )
            )
            await self.state.put(f"dm:{user}", {"room_id": room})
            self.dm_rooms[user] = room
            self.joined.add(room)
            self.stats["dm_rooms_created"] += 1
            await self._mark_direct(user, room)
            log.info("matrix direct room created", account=self.name, user=user, room=room)
            return room, True

    async def _mark_direct(self, user: str, room: str) -> None:
        """List the room under ``m.direct`` so clients show it as a direct chat (best effort)."""
        try:
            try:
                current = await self.api.get_account_data(EventType.DIRECT)
            except MatrixRequestError:
                current = JSON({})
            data = {k: list(v) for k, v in (current or {}).items() if isinstance(v, list)}
            if room not in data.get(user, []):
                data[user] = [*data.get(user, []), room]
            await self.api.set_account_data(EventType.DIRECT, data)
        except REQUEST_OR_NETWORK as exc:
            log.info("matrix m.direct not updated", account=self.name, error=repr(exc))

    async def send(self, room_id: str, content: dict[str, Any], txn_id: str) -> str:
        """PUT one message with a fixed transaction id: sending it again returns the same event. With
        the olm machine running, mautrix encrypts it when the room is encrypted."""
        async with self._room_locks[room_id]:
            encrypted = await self.is_encrypted(room_id)
            event_id = await self.api.send_message_event(  # type: ignore[call-arg]
                RoomID(room_id),
                EventType.ROOM_MESSAGE,
                cast(EventContent, content),  # mautrix sends a plain dict as it is
                txn_id=txn_id,
                disable_encryption=not encrypted,
            )
        self.stats["sent"] += 1
        return str(event_id)
