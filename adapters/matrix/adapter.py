"""The Matrix adapter: every ``[matrix.<name>]`` account, and delivery of outbox rows.

Which account sends a row: a target ``<account>/<room>`` names it; otherwise the first account (in
settings order) that has joined the room sends. A ``#alias:server`` target is resolved once. Private
replies go to the direct room of the account that serves the command's room.

Several gateway processes on one vault: an account's sync loop runs only in the process holding the
lease ``matrix:<account>`` (``gateway/delivery/leases.py``). Elsewhere the account is not ready and knows no
rooms, so rows for it are handed back (``Elsewhere``: not an attempt, due at once for the owner's worker).

A row for a room no account is in waits (``TargetAbsent``, not an attempt) until one joins it: the
Storyteller-log rooms are joined at start, and an invite to one is accepted from anyone. Into an
end-to-end encrypted room a row goes encrypted (``[matrix] encryption``, the ``matrix-e2ee`` extra),
or, without encryption, not at all (README "Encrypted rooms").
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import structlog
from mautrix.errors import EncryptionError, MatrixRequestError, MLimitExceeded, MUnknownToken
from mautrix.types import RoomAlias

from adapters.matrix import crypto
from adapters.matrix.account import NETWORK_ERRORS, MatrixAccount, retry_after
from adapters.matrix.render import render_content
from adapters.matrix.settings import MatrixSettings
from adapters.matrix.state import VaultState
from gateway import (
    Adapter,
    AdapterServices,
    DeliveryFailed,
    Elsewhere,
    Outbound,
    RetryLater,
    TargetAbsent,
    Throttled,
)
from gateway.delivery import queue
from gateway.delivery.pacing import Backoff
from gateway.rules.charts import picture

log = structlog.get_logger(__name__)

NETWORK = "network: "
# A row for a room no account of the gateway is in (a Storyteller-log room the bot was never invited
# to): not an attempt; it waits, looked at again every ABSENT_RECHECK seconds, and is due at once
# when an account joins a room.
ABSENT = "not in room: "
ABSENT_RECHECK = 60.0
DEFAULT_RATE_LIMIT_DELAY = 5.0
# Seconds a row waits when the account that must send it syncs in another process.
OWNER_ELSEWHERE = 1.0


class MatrixAdapter(Adapter):
    platform = "matrix"

    def __init__(self, services: AdapterServices, settings: MatrixSettings) -> None:
        self.services = services
        self.settings = settings
        self.accounts = {name: MatrixAccount(self, name, cfg) for name, cfg in settings.accounts.items()}
        self.own_user_ids = {cfg.user_id for cfg in settings.accounts.values()}
        self.nonce = ""
        self._aliases: dict[str, str] = {}
        self._rng = random.Random()
        # Storyteller-log targets no account could join, and why (``gateway status`` shows them).
        self.unreachable: dict[str, str] = {}
        # Room ids of the Storyteller-log targets: an invite to one is accepted from anyone.
        self.stlog_rooms: set[str] = set()
        # Why end-to-end encryption is off (None: it is on): the setting, or a package missing.
        self.encryption_off_reason: str | None = (
            crypto.missing() if settings.encryption else "turned off ([matrix] encryption = false)"
        )
        self._crypto_database: crypto.CryptoDatabase | None = None
        self._pickle_key: str | None = None

    @property
    def encryption_on(self) -> bool:
        return self.encryption_off_reason is None

    def crypto_database(self) -> crypto.CryptoDatabase:
        """mautrix's stores in the vault's database, shared by the accounts of this process."""
        if self._crypto_database is None:
            vault = self.services.settings.vault
            self._crypto_database = crypto.CryptoDatabase(vault.url, vault.busy_timeout_ms)
        return self._crypto_database

    async def pickle_key(self) -> str:
        """The key mautrix pickles Olm and Megolm sessions with: one per vault, made once."""
        if self._pickle_key is None:
            state = VaultState(self.services.vault, "matrix")
            stored = await state.get("pickle_key") or await state.put_missing(
                "pickle_key", {"value": crypto.random_pickle_key()}
            )
            self._pickle_key = str(stored["value"])
        return self._pickle_key

    async def start(self) -> None:
        state = VaultState(self.services.vault, "matrix")
        stored = await state.get("txn_nonce")
        if stored is None:  # two processes on a fresh vault: both keep the one that was stored first
            stored = await state.put_missing("txn_nonce", {"value": secrets.token_hex(4)})
        self.nonce = str(stored["value"])
        if self.settings.encryption and not self.encryption_on:
            log.warning(
                "matrix: end-to-end encryption is off, encrypted rooms are refused",
                reason=self.encryption_off_reason,
            )
        for account in self.accounts.values():
            await account.start()

    async def stop(self) -> None:
        for account in self.accounts.values():
            await account.stop()

    def status(self) -> dict[str, object]:
        """Per account: whether this process runs its sync loop (else it stands by), whether that loop
        is syncing, and when a sync last succeeded."""
        accounts: dict[str, object] = {}
        for name, account in self.accounts.items():
            synced = account.synced_at
            accounts[name] = {
                "owned": account.owned,
                "syncing": account.ready.is_set() and not account._failing,
                "last_sync_ok": None if synced is None else datetime.fromtimestamp(synced, UTC).isoformat(),
                "rooms": len(account.joined),
                "rate_limited": account.stats["rate_limited"],
                "sync_errors": account.stats["sync_errors"],
                "e2ee": account.e2ee is not None,
            }
        status: dict[str, object] = {
            "accounts": accounts,
            "encryption": "on" if self.encryption_on else f"off: {self.encryption_off_reason}",
        }
        if self.unreachable:
            status["unreachable_targets"] = dict(self.unreachable)
        return status

    def stlog_targets(self, account: str) -> list[str]:
        """The Storyteller-log rooms ``account`` joins at start: those named for it
        (``matrix:ACCOUNT/!room``), and, for the first account, those naming none."""
        first = next(iter(self.accounts), None)
        refs: list[str] = []
        for target in self.services.settings.stlog.targets:
            platform, sep, rest = target.partition(":")
            if platform != self.platform or not sep:
                continue
            name, slash, room = rest.partition("/")
            if slash and name in self.accounts:
                if name == account:
                    refs.append(room)
            elif account == first:
                refs.append(rest)
        return refs

    def log_room(self, ref: str, room_id: str) -> None:
        """``ref`` (a target's room id or alias) is a Storyteller-log room, ``room_id`` once resolved."""
        self.stlog_rooms.add(room_id)
        if ref != room_id:
            self._aliases[ref] = room_id

    async def room_reachable(self, room_id: str) -> None:
        """An account joined ``room_id``: rows that waited for some room are due now."""
        for ref in list(self.unreachable):
            if room_id in (ref, self._aliases.get(ref)):
                del self.unreachable[ref]
        await queue.expedite_failed(self.services.vault, self.platform, ABSENT, self.services.clock())

    def txn_id(self, row_id: int) -> str:
        """The transaction id of one outbox row: the same on every retry, so it posts once."""
        return f"matrix-{row_id}-{self.nonce}"

    async def network_recovered(self) -> None:
        """The homeserver answers again: rows that waited on the network are due now."""
        await queue.expedite_failed(self.services.vault, self.platform, NETWORK, self.services.clock())

    # -- routing ---------------------------------------------------------------------------------------

    async def route(self, target: str) -> tuple[MatrixAccount, str]:
        """The account that sends to ``target`` and the room id."""
        name, sep, rest = target.partition("/")
        if sep and name in self.accounts:
            account = self.accounts[name]
            if not account.ready.is_set():
                self._elsewhere([account])
                raise TargetAbsent(f"{NETWORK}account {name} is not connected yet", 2.0)
            return account, await self._room_id(account, rest)
        room = target
        if room.startswith("#"):
            ready = [a for a in self.accounts.values() if a.ready.is_set()]
            if not ready:
                self._elsewhere(self.accounts.values())
                raise TargetAbsent(f"{NETWORK}not connected yet", 2.0)
            room = await self._room_id(ready[0], room)
        for account in self.accounts.values():
            if room in account.joined:
                return account, room
        waiting = [a for a in self.accounts.values() if not a.ready.is_set()]
        if waiting:
            self._elsewhere(waiting)
            raise TargetAbsent(f"{NETWORK}not every account is connected yet", 2.0)
        if any(room in a.left for a in self.accounts.values()):
            raise DeliveryFailed(f"the bot was removed from {room}")
        # Kept until an account is in the room (an invite to a Storyteller-log room is accepted).
        who = ", ".join(sorted(self.own_user_ids))
        raise TargetAbsent(f"{ABSENT}no account of this gateway is in {room}; invite {who}", ABSENT_RECHECK)

    def _elsewhere(self, accounts: Iterable[MatrixAccount]) -> None:
        """Not-ready accounts whose sync loop runs in another gateway process (it holds their lease):
        the row is that process's to send: hand it back due at once, and look away for a moment."""
        others = [a.name for a in accounts if not a.owned]
        if others:
            raise Elsewhere(f"{NETWORK}account {others[0]} runs in another gateway process", OWNER_ELSEWHERE)

    async def _room_id(self, account: MatrixAccount, ref: str) -> str:
        if not ref.startswith("#"):
            return ref
        if ref not in self._aliases:
            try:
                info = await account.api.resolve_room_alias(RoomAlias(ref))
            except NETWORK_ERRORS as exc:
                raise TargetAbsent(f"{NETWORK}{exc!r}", account.config.retry_max_delay) from exc
            except MatrixRequestError as exc:
                if exc.errcode == "M_NOT_FOUND":  # not made yet: wait for it as for an absent room
                    raise TargetAbsent(f"{ABSENT}{ref} does not exist (yet)", ABSENT_RECHECK) from exc
                raise DeliveryFailed(f"cannot resolve {ref}: {exc.errcode}") from exc
            self._aliases[ref] = str(info.room_id)
        return self._aliases[ref]

    async def _send_picture(
        self, account: MatrixAccount, room: str, payload: dict[str, Any], txn_id: str
    ) -> None:
        """After an ``odds`` reply's text, its chart as an ``m.image`` (uploaded to the homeserver's
        media repository), where the reply carries one. In an encrypted room the file is encrypted
        (mautrix's ``encrypt_attachment``; the event carries ``file``, its key, instead of ``url``)
        and the event goes encrypted like the text. A picture that cannot be drawn or uploaded is
        left out: the text has gone, and it says everything the picture shows."""
        result = payload.get("result") if payload.get("kind") == "reply" else None
        if not isinstance(result, dict) or "chart" not in result:
            return
        drawn = await picture(self.services, result)
        if drawn is None:
            return
        chart = result["chart"] if isinstance(result["chart"], dict) else {}
        content: dict[str, Any] = {
            "msgtype": "m.image",
            "body": str(chart.get("title") or drawn.filename)[:200],
            "filename": drawn.filename,
            "info": {"mimetype": drawn.mimetype, "w": drawn.width, "h": drawn.height, "size": len(drawn.png)},
        }
        try:
            if await account.is_encrypted(room):
                ciphertext, file = crypto.encrypt_attachment(drawn.png)
                file.url = await account.api.upload_media(
                    ciphertext, mime_type="application/octet-stream", filename=drawn.filename
                )
                content["file"] = file.serialize()
            else:
                uri = await account.api.upload_media(
                    drawn.png, mime_type=drawn.mimetype, filename=drawn.filename
                )
                content["url"] = str(uri)
        except MatrixRequestError as exc:
            log.warning("matrix odds picture not uploaded", room=room, error=exc.errcode)
            return
        except NETWORK_ERRORS as exc:
            log.warning("matrix odds picture not uploaded", room=room, error=type(exc).__name__)
            return
        # Its own fixed transaction id: a retried row sends the text and the picture once each.
        await account.send(room, content, f"{txn_id}-chart")

    def _network_backoff(self, account: MatrixAccount) -> Backoff:
        """After a 5xx: 1 s doubling up to the account's ``retry_max_delay``."""
        return Backoff(1.0, account.config.retry_max_delay, (0.75, 1.25), self._rng)

    # -- delivery --------------------------------------------------------------------------------------

    async def deliver(self, message: Outbound) -> None:
        account, room = await self.route(message.target)
        waiting = account.blocked_for()
        if waiting > 0:
            raise Throttled("M_LIMIT_EXCEEDED: waiting as the homeserver asked", waiting)
        payload: dict[str, Any] = message.payload
        reply = payload.get("kind") == "reply"
        recipient = payload.get("recipient") if reply and isinstance(payload.get("recipient"), str) else None
        opened = False
        try:
            destination = room
            in_reply_to = payload.get("reply_to") if reply else None
            mentions = [recipient] if recipient and recipient not in self.own_user_ids else []
            if payload.get("private") and recipient:
                if not account.is_direct(room, recipient):
                    destination, opened = await account.dm_room(recipient)
                    in_reply_to = None  # the command is in another room
                mentions = []
            if account.refuses(destination):
                # Plain text into a room its members believe private: never (README "Encrypted rooms").
                raise DeliveryFailed(f"{destination} is end-to-end encrypted; the bot cannot post there")
            content = render_content(
                payload,
                in_reply_to=in_reply_to if isinstance(in_reply_to, str) else None,
                mentions=mentions,
            )
            await account.send(destination, content, self.txn_id(message.id))
            await self._send_picture(account, destination, payload, self.txn_id(message.id))
            if opened:
                await account.point_to_dm(room, str(recipient), f"{self.txn_id(message.id)}-dm")
        except MLimitExceeded as exc:
            delay = retry_after(exc)
            delay = DEFAULT_RATE_LIMIT_DELAY if delay is None else delay
            account.block(delay)
            account.stats["rate_limited"] += 1
            raise Throttled(f"M_LIMIT_EXCEEDED: retry in {delay:.3f} s", delay) from exc
        except EncryptionError as exc:
            # No session could be shared (a member's devices not reachable yet): an ordinary retry.
            raise RetryLater(f"cannot encrypt for {message.target}: {exc}") from exc
        except MUnknownToken as exc:
            raise TargetAbsent(f"{NETWORK}access token rejected; logging in again", 5.0) from exc
        except NETWORK_ERRORS as exc:
            # The homeserver cannot be reached: not an attempt (as an IRC network that is down), so an
            # outage kills no row; the sync loop makes these rows due the moment it gets through.
            account.stats["send_network_errors"] += 1
            raise TargetAbsent(f"{NETWORK}{exc!r}", account.config.retry_max_delay) from exc
        except MatrixRequestError as exc:
            if exc.http_status >= 500:
                backoff = self._network_backoff(account)
                raise RetryLater(f"{NETWORK}HTTP {exc.http_status} {exc.errcode}", backoff=backoff) from exc
            if exc.errcode == "M_RESOURCE_LIMIT_EXCEEDED":
                # A homeserver quota, not a rate limit: ordinary back-off, and the row dies in the end.
                raise RetryLater(f"{exc.errcode}: {exc.message}") from exc
            raise DeliveryFailed(f"{exc.errcode}: {exc.message}") from exc
