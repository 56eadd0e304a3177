"""The IRC adapter: one ``IrcConnection`` per configured network, commands in, outbox rows out.

Identity: ``irc:<network>/<account>`` when the server tells us the sender's services account
(account-tag, extended-join, account-notify, WHOX); otherwise ``irc:<network>/~<nick>``, which is
*unverified* unless the network has ``trust_nicks = true``.

Outbox targets are ``<network>/<#channel>`` (replies in a channel, Storyteller-log channels) or
``<network>/<nick>`` (replies in a private conversation with the bot).

Several gateway processes on one vault: a network's connection runs only in the process holding the
lease ``irc:<network>`` (``gateway/delivery/leases.py``); the others stand by and take over when it dies. A
process that does not own a network hands that network's outbox rows back (``Elsewhere``: due at once,
and the owner's worker woken) and leaves that target alone for a second.
"""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial
from typing import Any

import structlog

from adapters.irc.client import Incoming, IrcConnection, NotConnected
from adapters.irc.compact import entry_name, merge_lines, summarise
from adapters.irc.config import NetworkConfig
from adapters.irc.guarded import GuardedConnection
from adapters.irc.modes import sensitive
from adapters.irc.protocol import build_line
from adapters.irc.text import LINE_LIMIT, clean_inbound, colour_degrees, fit_lines, overhead, split_bytes
from gateway import (
    Adapter,
    AdapterServices,
    Channel,
    DeliveryFailed,
    Elsewhere,
    Identity,
    InboundMessage,
    Outbound,
    TargetAbsent,
    Throttled,
)
from gateway.delivery.leases import Lease, run_owned

log = structlog.get_logger(__name__)
# One answer to `help` on IRC: a line of 512 bytes less the sender's mask, verb and target.
HELP_PAGE_BYTES = 350

# Rows that wait for the replies (``pacing.py``): the Storyteller log, sheet exports, broadcasts.
LOG_KINDS = frozenset({"stlog", "sheet", "announce", "emote"})
WAKE_MARGIN = 0.005  # seconds after a log row's wait before the outbox looks again


def stlog_channels(targets: list[str], network: str) -> list[str]:
    """Channels named by ``[stlog] targets`` entries ``irc:<network>/#channel``: the bot joins them."""
    found = []
    for target in targets:
        platform, _, address = target.partition(":")
        net, _, dest = address.partition("/")
        if platform == "irc" and net == network and dest[:1] in "#&+!" and dest:
            found.append(dest)
    return found


class IrcAdapter(Adapter):
    platform = "irc"

    def __init__(self, services: AdapterServices, networks: list[NetworkConfig]) -> None:
        self.services = services
        self.networks = {n.name: n for n in networks}
        self.connections: dict[str, GuardedConnection] = {}
        for net in networks:
            log_channels = stlog_channels(services.settings.stlog.targets, net.name)
            self.connections[net.name] = GuardedConnection(
                net,
                on_message=self._on_message,
                on_ready=self._on_ready,
                extra_channels=log_channels,
                log_channels=log_channels,
            )
        # Outbox row id -> (lines, how many were sent) for a reply cut off by a dropped link, so the
        # retry sends only the rest.
        self._progress: dict[int, tuple[str, str, list[str], int]] = {}
        self._owners: dict[str, asyncio.Task[None]] = {}
        self._owned: set[str] = set()
        self._leases: dict[str, Lease] = {}

    async def start(self) -> None:
        for name, connection in self.connections.items():
            self._owners[name] = asyncio.create_task(
                run_owned(self.services.leases, f"irc:{name}", partial(self._own, connection)),
                name=f"irc-lease:{name}",
            )

    async def stop(self) -> None:
        owners, self._owners = list(self._owners.values()), {}
        for task in owners:
            task.cancel()
        for task in owners:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def status(self) -> dict[str, object]:
        """Per network: whether this process runs its connection (else it stands by), and that
        connection's state."""
        networks: dict[str, object] = {}
        for name, connection in self.connections.items():
            up = connection.connected
            entry: dict[str, object] = {
                "owned": name in self._owned,
                "connected": up,
                "nick": connection.nick if up else None,
                "channels": sorted(connection.joined),
                "connections": connection.connections_made,
                "last_error": connection.last_error,
            }
            # Storyteller-log channels, and a loud line for each one anyone can join.
            if connection.log_channels:
                entry["log_channels"] = connection.log_report()
            warnings = connection.warnings()
            if warnings:
                entry["warning"] = " | ".join(warnings)
            networks[name] = entry
        return {"networks": networks}

    def owns(self, network: str) -> bool:
        """Whether this process runs the network's connection (holds the lease ``irc:<network>``)."""
        return network in self._owned

    async def _own(self, connection: IrcConnection, lease: Lease | None) -> None:
        """The connection runs while this process holds its lease: one connection, one nick, one
        reader of the channels per deployment. Cancelled (shutdown, or the lease lost), it quits,
        within what is left of the lease when the lease was lost."""
        self._owned.add(connection.name)
        if lease is not None:
            self._leases[connection.name] = lease
        try:
            await connection.start()
            await asyncio.Future()
        finally:
            self._owned.discard(connection.name)
            self._leases.pop(connection.name, None)
            grace = 3.0
            if lease is not None and lease.lost.is_set():
                grace = max(0.0, min(grace, lease.time_left() / 2))
            await connection.stop(grace=grace)

    def _on_ready(self, connection: IrcConnection) -> None:
        self.services.outbox.wake()

    # ------------------------------------------------------------------ inbound

    def inbound(self, connection: IrcConnection, item: Incoming) -> InboundMessage | None:
        """The gateway message for one PRIVMSG, or None when it is chat and not a command."""
        cfg = connection.config
        net = cfg.name
        text = clean_inbound(item.text).strip()
        if item.is_channel:
            if not text.startswith(cfg.prefix):
                return None
            body = text[len(cfg.prefix) :].strip()
            if not body:
                return None
            # The router strips the gateway-wide prefix; this network may use another one.
            text = f"{self.services.settings.gateway.prefix}{body}"
            channel = Channel("irc", f"{net}/{connection.fold(item.target)}")
        else:
            if text.startswith(cfg.prefix):
                text = text[len(cfg.prefix) :].strip()
            if not text:
                return None
            channel = Channel("irc", f"{net}/{connection.fold(item.nick)}", direct=True)
        if item.account:
            sender = Identity("irc", f"{net}/{connection.fold(item.account)}", item.nick, verified=True)
        else:
            sender = Identity(
                "irc", f"{net}/~{connection.fold(item.nick)}", item.nick, verified=cfg.trust_nicks
            )
        return InboundMessage(
            sender=sender,
            channel=channel,
            text=text,
            message_id=f"{net}/{item.msgid}" if item.msgid else None,
            prefixed=item.is_channel,
            sync_reply=False,
            page_bytes=HELP_PAGE_BYTES,
            prefix=cfg.prefix if item.is_channel else "",
        )

    async def _on_message(self, connection: IrcConnection, item: Incoming) -> None:
        lease = self._leases.get(connection.name)
        if lease is not None and (lease.lost.is_set() or lease.time_left() <= 0):
            # This process was paused past its lease (another may own the network by now and have
            # seen this line too, without a msgid to tell): the line is not ours to run.
            log.warning("irc line dropped: the network's lease ran out", network=connection.name)
            return
        message = self.inbound(connection, item)
        if message is not None:
            await self.services.handle(message)

    # ------------------------------------------------------------------ outbound

    def _recipient(self, connection: IrcConnection, payload: dict[str, Any], fallback: str) -> str:
        """The nick a private reply goes to: the nick the command came from, unless we know that nick
        is now logged in to another account (or logged out); then another nick of the same account,
        or nowhere. A nick taken over by someone else never receives another person's private reply."""
        nick = str(payload.get("recipient_name") or "")
        _, _, ident = str(payload.get("recipient") or "").partition("/")
        if not nick:
            return fallback
        if not ident or ident.startswith("~"):
            return nick  # a nick identity: the nick is all there is
        user = connection.user_known(nick)
        if user is None or not user.known:
            return nick
        if user.account is not None and connection.fold(user.account) == connection.fold(ident):
            return nick
        others = connection.nicks_for_account(ident)
        if others:
            return others[0]
        raise DeliveryFailed(f"{nick} is no longer logged in as {ident}; private reply dropped")

    def _route(self, connection: IrcConnection, dest: str, payload: dict[str, Any]) -> tuple[str, str]:
        """(verb, target) for one outbox row."""
        cfg = connection.config
        in_channel = connection.is_channel(dest)
        if payload.get("kind") == "stlog":
            return cfg.stlog_verb, dest
        if not in_channel:
            return cfg.query_verb, dest  # said in the bot's query: answered there, as a conversation
        if payload.get("private"):
            return cfg.private_verb, self._recipient(connection, payload, dest)
        if payload.get("error"):
            if in_channel and cfg.errors_to == "user":
                return cfg.error_verb, self._recipient(connection, payload, dest)
            return cfg.error_verb, dest
        return (cfg.reply_verb if in_channel else cfg.private_verb), dest

    def render(self, connection: IrcConnection, verb: str, target: str, payload: dict[str, Any]) -> list[str]:
        """The text of each line to send (without the command), each fitting the 512-byte limit. A
        Storyteller-log entry or a sheet comes in fewer lines (``log_merge``), and a log entry in at
        most ``log_max_lines``."""
        cfg = connection.config
        text = str(payload.get("text", ""))
        if cfg.colour:
            text = colour_degrees(text, payload.get("result"))
        lines = fit_lines(text, source=connection.source_mask(), command=verb, target=target)
        kind = payload.get("kind")
        if cfg.log_merge and kind in ("stlog", "sheet"):
            lines = merge_lines(lines, LINE_LIMIT - overhead(connection.source_mask(), verb, target))
        if kind == "stlog":
            name = entry_name(payload.get("result"))
            command = f"{cfg.prefix}st log" + (f" {name}" if name else "")
            lines = summarise(
                lines, cfg.log_max_lines, command=command, locale=self.services.settings.gateway.locale
            )
        return lines

    def _wake_later(self, delay: float) -> None:
        """Wake the outbox when a log row handed back for ``delay`` seconds may go, not at its next poll."""
        asyncio.get_running_loop().call_later(delay + WAKE_MARGIN, self.services.outbox.wake, [self.platform])

    async def deliver(self, message: Outbound) -> None:
        net, _, dest = message.target.partition("/")
        connection = self.connections.get(net)
        if connection is None:
            raise DeliveryFailed(f"no IRC network {net!r} is configured")
        if not dest or " " in dest or "," in dest:
            raise DeliveryFailed(f"IRC target {message.target!r} is not <network>/<#channel or nick>")
        retry = connection.config.retry_delay
        if not connection.connected:
            if net not in self._owned:
                # Another gateway process holds this network's connection (or none does yet). Not a
                # failed attempt: the owner's worker gets the row at once; ours looks again in a
                # second (by then it may own the network).
                raise Elsewhere(f"IRC network {net} is connected by another process", min(retry, 1.0))
            raise TargetAbsent(f"IRC network {net} is not connected", retry)
        if (
            connection.is_channel(dest)
            and not connection.config.allow_unprotected_log
            and sensitive(message.payload)
            and not connection.protected(dest)
        ):
            connection.ask_modes(dest)  # not known yet for a channel that is not a log channel
            # Held, not dropped: it goes as soon as the channel has +k or +i (the connection wakes
            # the outbox then).
            raise TargetAbsent(
                f"IRC channel {dest} is not protected (+k or +i); sheet or secret roll held", retry
            )
        saved = self._progress.get(message.id)
        if saved is not None:
            verb, target, lines, done = saved
        else:
            verb, target = self._route(connection, dest, message.payload)
            lines, done = self.render(connection, verb, target, message.payload), 0
        room = LINE_LIMIT - overhead(connection.source_mask(), verb, target)
        to_log = message.payload.get("kind") in LOG_KINDS
        lines, index = list(lines), done
        while index < len(lines):
            wait = 0.0
            try:
                lines[index : index + 1] = split_bytes(lines[index], room)  # the mask may have grown
                line, size = build_line(verb, target, lines[index]), len(lines[index].encode())
                if to_log:
                    wait = await connection.send_log(line, size)
                else:
                    await connection.send_paced(line, size)
            except NotConnected:
                self._progress[message.id] = (verb, target, lines, index)
                raise TargetAbsent(f"IRC network {net} disconnected while sending", retry) from None
            except ValueError as exc:
                self._progress.pop(message.id, None)
                raise DeliveryFailed(f"cannot send to {target!r}: {exc}") from exc
            if wait > 0:
                # Replies first: the row comes back when its next line may go, and the outbox round
                # it holds ends now, so the next reply is claimed at once (see ``pacing.py``).
                self._progress[message.id] = (verb, target, lines, index)
                self._wake_later(wait)
                raise Throttled("IRC log lines wait for replies and the send pacing", wait)
            index += 1
        self._progress.pop(message.id, None)
