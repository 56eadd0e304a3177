"""One IRC network connection on asyncio streams: registration, IRCv3, SASL, paced sending, reconnects.

Life of a connection (``IrcConnection.start`` runs it in a task until ``stop``):

1. TCP (TLS with certificate and host name checks unless turned off), then ``CAP LS 302``, ``PASS``,
   ``NICK`` and ``USER``. Capabilities we want and the server offers are requested; with ``sasl``
   acknowledged and credentials configured, SASL PLAIN runs before ``CAP END``.
2. ``433``/``432``/``436`` before welcome: the next fallback nick, then the first nick with digits.
3. After the MOTD (``376``/``422``), join every channel (with its key), ``WHO`` each one with WHOX when
   the server has it to learn who is logged in to which account, then the connection is *ready*.
4. Every ``PING`` gets its ``PONG`` at once; after ``ping_interval`` of silence we send our own
   ``PING`` and drop the link when nothing comes back within ``ping_timeout``.
5. A dropped link is retried with exponential backoff and jitter; ``stop`` sends ``QUIT`` and waits
   for the server to close.

Lines for people go through the connection's ``Pacer`` (``pacing.py``): replies by ``send_paced``
(they wait for the token bucket, first come first served), Storyteller-log lines by ``send_log``
(never waiting: they go when no reply waits and tokens are left over, else it says how long until).
Protocol replies (``PONG``, registration, ``QUIT``) go out at once.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import random
import re
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from adapters.irc.accounts import Accounts, User
from adapters.irc.config import NetworkConfig
from adapters.irc.pacing import LineBucket, LineCost, Pacer
from adapters.irc.protocol import Message, build_line, casefold, decode, parse_line
from gateway.delivery.pacing import Backoff

log = structlog.get_logger(__name__)

WANTED_CAPS = (
    "account-tag",
    "extended-join",
    "account-notify",
    "message-tags",
    "echo-message",
    "server-time",
    "multi-prefix",
)
SASL_CHUNK = 400
WHOX_TOKEN = "616"
MAX_LINE_BYTES = 16 * 1024  # tags may take 8191 bytes plus a 512-byte body


class NotConnected(Exception):
    """The network is not connected (or the link dropped while a line waited)."""


class ConnectionLost(Exception):
    pass


@dataclass(frozen=True)
class Incoming:
    """A PRIVMSG for the gateway, with the sender's account as known when the line arrived."""

    nick: str
    account: str | None
    target: str
    text: str
    is_channel: bool
    msgid: str | None


def reconnect_backoff(config: NetworkConfig, rng: random.Random) -> Backoff:
    """``reconnect_min`` doubling up to ``reconnect_max``, with "equal jitter": half the step fixed,
    half random, so a network that drops everyone is not hit by every client at once."""
    return Backoff(config.reconnect_min, config.reconnect_max, (0.5, 1.0), rng)


def send_bucket(
    config: NetworkConfig,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Pacer:
    """``send_burst`` lines at once, then one per ``send_interval`` (0: unpaced), long lines dearer:
    Sopel's defaults (4, 1 s, 50 bytes, 1.4, 2 lines), which the large networks allow. A server with
    RFC 1459 §8.10's strict rule (2 s a line, 10 s ahead at most) wants ``send_interval = 2``."""
    cost = LineCost(config.send_penalty_bytes, config.send_penalty_ratio, config.send_max_cost)
    return Pacer(LineBucket(config.send_burst, config.send_interval, clock), cost, sleep=sleep)


class IrcConnection:
    def __init__(
        self,
        config: NetworkConfig,
        *,
        on_message: Callable[[IrcConnection, Incoming], Awaitable[None]],
        on_ready: Callable[[IrcConnection], None] | None = None,
        extra_channels: list[str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.name = config.name
        self.on_message = on_message
        self.on_ready = on_ready
        self.rng = rng or random.Random()
        self.bucket = send_bucket(config)
        self.backoff = reconnect_backoff(config, self.rng)
        self.log = log.bind(network=config.name)
        keyed = {casefold(c.name): (c.name, c.key) for c in config.channels}
        for name in extra_channels or []:
            keyed.setdefault(casefold(name), (name, None))
        self.channel_list: list[tuple[str, str | None]] = list(keyed.values())
        self.connections_made = 0  # TCP (and TLS) connections opened
        self.registrations = 0  # of which reached the server's welcome
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._inbox: asyncio.Queue[Incoming] = asyncio.Queue(maxsize=1000)
        self._inbox_task: asyncio.Task[None] | None = None
        self._side_tasks: set[asyncio.Task[None]] = set()
        self.ready = asyncio.Event()
        self.closed = asyncio.Event()
        self.last_error: str | None = None
        self._reset()

    # ------------------------------------------------------------------ state

    def _reset(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.nick = self.config.nick
        self._nick_index = 0
        self.registered = False
        self.ready.clear()
        self.closed.clear()
        self.caps: set[str] = set()
        self._offered: dict[str, str] = {}
        self._cap_pending = False
        self._sasl_pending = False
        self.logged_in_as: str | None = None
        self.isupport: dict[str, str] = {}
        self.userhost: str | None = None
        self.accounts = Accounts(self.fold)
        self.joined: set[str] = set()
        self._joins_pending: set[str] = set()

    @property
    def connected(self) -> bool:
        return self.ready.is_set() and self.writer is not None and not self.writer.is_closing()

    @property
    def casemapping(self) -> str:
        return self.isupport.get("CASEMAPPING", "rfc1459").lower()

    @property
    def chantypes(self) -> str:
        return self.isupport.get("CHANTYPES", "#&")

    def fold(self, name: str) -> str:
        return casefold(name, self.casemapping)

    def is_channel(self, target: str) -> bool:
        return bool(target) and target[0] in (self.chantypes or "#&")

    def source_mask(self) -> str:
        """Our ``nick!user@host`` as the server prefixes our lines; the longest allowed parts when unknown."""
        if self.userhost:
            return f"{self.nick}!{self.userhost}"
        userlen = int(self.isupport.get("USERLEN", "10") or 10) + 1  # "~" when there is no ident
        hostlen = int(self.isupport.get("HOSTLEN", "63") or 63)
        return f"{self.nick}!{'u' * userlen}@{'h' * hostlen}"

    def account_of(self, nick: str) -> str | None:
        return self.accounts.account_of(nick)

    def nicks_for_account(self, account: str) -> list[str]:
        return self.accounts.nicks_for_account(account)

    def user_known(self, nick: str) -> User | None:
        return self.accounts.get(nick)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        self._stopping = False
        self._inbox_task = asyncio.create_task(self._inbox_worker(), name=f"irc-inbox:{self.name}")
        self._task = asyncio.create_task(self._supervise(), name=f"irc:{self.name}")

    async def stop(self, grace: float = 3.0) -> None:
        """QUIT, wait up to ``grace`` seconds for the server to close, then close ourselves."""
        self._stopping = True
        if self.writer is not None and not self.writer.is_closing():
            with contextlib.suppress(Exception):
                async with asyncio.timeout(grace):
                    await self._write(build_line("QUIT", self.config.quit_message))
                    # The server answers QUIT with ERROR and closes; give it a moment to do so.
                    await self.closed.wait()
        for task in (self._task, self._inbox_task, *self._side_tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._close()

    async def _supervise(self) -> None:
        attempt = 0
        while not self._stopping:
            started = time.monotonic()
            try:
                await self._session()
                reason = "closed by the server"
            except asyncio.CancelledError:
                raise
            except (OSError, ConnectionLost, NotConnected, TimeoutError) as exc:
                reason = f"{type(exc).__name__}: {exc}"
            except Exception as exc:  # a bug must not end the reconnect loop
                self.log.exception("irc session failed")
                reason = f"{type(exc).__name__}: {exc}"
            finally:
                was_ready = self.ready.is_set()
                self._close()
            self.last_error = reason
            if self._stopping:
                return
            if was_ready and time.monotonic() - started > 60:
                attempt = 0
            delay = self.backoff.delay(attempt + 1)
            attempt += 1
            self.log.warning("irc disconnected", reason=reason, retry_in=round(delay, 2))
            await asyncio.sleep(delay)

    def _close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
        self.ready.clear()
        self.closed.set()
        self.accounts.clear()
        self.joined.clear()
        self.writer = None

    async def _session(self) -> None:
        self._reset()
        cfg = self.config
        context: ssl.SSLContext | None = None
        if cfg.tls:
            context = ssl.create_default_context(cafile=cfg.tls_ca_file)
            if not cfg.tls_verify:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
        self.log.info("irc connecting", host=cfg.host, port=cfg.effective_port, tls=cfg.tls)
        # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation (gh-86296).
        async with asyncio.timeout(cfg.connect_timeout):
            self.reader, self.writer = await asyncio.open_connection(
                cfg.host,
                cfg.effective_port,
                ssl=context,
                server_hostname=cfg.host if context else None,
                limit=MAX_LINE_BYTES,
            )
        self.connections_made += 1
        self.bucket.reset()
        await self._write("CAP LS 302")
        if cfg.password:
            await self._write(build_line("PASS", cfg.password))
        await self._write(build_line("NICK", self.nick))
        await self._write(build_line("USER", cfg.username or cfg.nick, "0", "*", cfg.realname))
        await self._read_loop()

    async def _read_loop(self) -> None:
        assert self.reader is not None
        cfg = self.config
        deadline = time.monotonic() + cfg.connect_timeout
        pinged = False
        while not self._stopping:
            if self.registered:
                wait = cfg.ping_timeout if pinged else cfg.ping_interval
            else:
                wait = max(0.0, deadline - time.monotonic())
            try:
                async with asyncio.timeout(wait):
                    raw = await self.reader.readline()
            except TimeoutError:
                if not self.registered:
                    raise ConnectionLost("registration timed out") from None
                if pinged:
                    raise ConnectionLost(f"no answer to PING within {cfg.ping_timeout:g} s") from None
                pinged = True
                await self._write(f"PING :nightcap-{int(time.time())}")
                continue
            except (asyncio.LimitOverrunError, ValueError) as exc:
                raise ConnectionLost(f"line too long: {exc}") from None
            if not raw:
                return
            pinged = False
            message = parse_line(decode(raw))
            if message is not None:
                await self._dispatch(message)

    # ------------------------------------------------------------------ sending

    async def _write(self, line: str) -> None:
        writer = self.writer
        if writer is None or writer.is_closing():
            raise NotConnected(self.name)
        data = line.encode("utf-8")
        if len(data) > 510:
            raise ValueError(f"line of {len(data)} bytes is over the IRC limit")
        try:
            writer.write(data + b"\r\n")
            await writer.drain()
        except (ConnectionError, OSError) as exc:
            raise NotConnected(f"{self.name}: {exc}") from exc

    async def send_paced(self, line: str, size: int | None = None) -> None:
        """Send one reply line when the token bucket allows (``size``: bytes of its text, for the
        long-line penalty; the whole line when not given); NotConnected if the link is (or goes) down."""
        if not self.connected:
            raise NotConnected(self.name)
        await self.bucket.wait(len(line.encode()) if size is None else size)
        if not self.connected:
            raise NotConnected(self.name)
        await self._write(line)

    async def send_log(self, line: str, size: int | None = None) -> float:
        """Send one Storyteller-log line now if the bucket has room to spare after the replies, and
        return 0.0; else send nothing and return the seconds until it may go."""
        if not self.connected:
            raise NotConnected(self.name)
        wait = self.bucket.try_log(len(line.encode()) if size is None else size)
        if wait == 0:
            await self._write(line)
        return wait

    # ------------------------------------------------------------------ inbound

    async def _inbox_worker(self) -> None:
        """Commands run one after another, in the order they were said, off the reading loop."""
        while True:
            item = await self._inbox.get()
            try:
                await self.on_message(self, item)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.log.exception("irc message handling failed", nick=item.nick)

    async def _dispatch(self, m: Message) -> None:
        handler = getattr(self, f"_on_{m.command.lower()}", None)
        if m.nick and self.fold(m.nick) == self.fold(self.nick) and m.userhost:
            self.userhost = m.userhost
        if handler is not None:
            await handler(m)

    async def _on_ping(self, m: Message) -> None:
        await self._write(build_line("PONG", m.param(0) or "nightcap"))

    async def _on_error(self, m: Message) -> None:
        if self._stopping:
            self.log.info("irc closing", text=m.param(0))
        else:
            self.log.warning("irc server error", text=m.param(0))

    async def _on_cap(self, m: Message) -> None:
        sub = m.param(1).upper()
        if sub in ("LS", "NEW"):
            more = m.param(2) == "*"
            for item in (m.param(3) if more else m.param(2)).split():
                name, _, value = item.partition("=")
                self._offered[name.lower()] = value
            if more:
                return
            wanted = [c for c in WANTED_CAPS if c in self._offered and c not in self.caps]
            if "sasl" in self._offered and self.config.sasl_username and not self.logged_in_as:
                mechs = self._offered["sasl"]
                if not mechs or "PLAIN" in mechs.upper().split(","):
                    wanted.append("sasl")
                else:
                    self.log.warning("irc server offers no SASL PLAIN", mechanisms=mechs)
            if wanted:
                self._cap_pending = True
                await self._write(f"CAP REQ :{' '.join(wanted)}")  # always trailing: some servers need it
            elif not self.registered:
                await self._write("CAP END")
        elif sub == "ACK":
            acked = {c.lstrip("-~=").lower() for c in m.param(2).split() if not c.startswith("-")}
            self.caps |= acked
            self._cap_pending = False
            if "sasl" in acked and not self.registered:
                self._sasl_pending = True
                await self._write("AUTHENTICATE PLAIN")
            else:
                await self._cap_end()
        elif sub == "NAK":
            self._cap_pending = False
            self.log.info("irc capabilities refused", caps=m.param(2))
            await self._cap_end()
        elif sub == "DEL":
            for item in m.param(2).split():
                self.caps.discard(item.lower())

    async def _cap_end(self) -> None:
        if not self.registered and not self._sasl_pending and not self._cap_pending:
            await self._write("CAP END")

    async def _on_authenticate(self, m: Message) -> None:
        if m.param(0) != "+" or not self._sasl_pending:
            return
        user = self.config.sasl_username or ""
        secret = self.config.sasl_secret or ""
        blob = base64.b64encode(f"{user}\0{user}\0{secret}".encode()).decode()
        chunks = [blob[i : i + SASL_CHUNK] for i in range(0, len(blob), SASL_CHUNK)]
        for chunk in chunks:
            await self._write(build_line("AUTHENTICATE", chunk))
        if not chunks or len(chunks[-1]) == SASL_CHUNK:
            await self._write("AUTHENTICATE +")

    async def _sasl_done(self, ok: bool, text: str) -> None:
        if not self._sasl_pending:
            return
        self._sasl_pending = False
        if ok:
            self.log.info("irc SASL login succeeded", account=self.logged_in_as)
        else:
            self.log.error("irc SASL login failed; continuing without an account", reason=text)
        await self._cap_end()

    async def _on_900(self, m: Message) -> None:  # RPL_LOGGEDIN
        self.logged_in_as = m.param(2) or None

    async def _on_903(self, m: Message) -> None:  # RPL_SASLSUCCESS
        await self._sasl_done(True, m.params[-1] if m.params else "")

    async def _on_904(self, m: Message) -> None:  # ERR_SASLFAIL
        await self._sasl_done(False, m.params[-1] if m.params else "")

    _on_902 = _on_905 = _on_906 = _on_908 = _on_904

    async def _on_421(self, m: Message) -> None:  # unknown command: a server without CAP
        if m.param(1).upper() == "CAP":
            self._cap_pending = False

    async def _on_433(self, m: Message) -> None:
        if self.registered:
            return
        nicks = self.config.nicks
        self._nick_index += 1
        if self._nick_index < len(nicks):
            self.nick = nicks[self._nick_index]
        elif self._nick_index - len(nicks) < 3:
            self.nick = f"{nicks[0]}{self.rng.randint(100, 999)}"
        else:  # maybe too long for this server (NICKLEN is only announced after the welcome)
            self.nick = f"{nicks[0][:6]}{self.rng.randint(100, 999)}"
        self.log.info("irc nick in use, trying another", nick=self.nick, refused=m.param(1))
        await self._write(build_line("NICK", self.nick))

    _on_432 = _on_436 = _on_433

    async def _on_001(self, m: Message) -> None:
        self.registered = True
        self.registrations += 1
        self.nick = m.param(0) or self.nick
        found = re.search(r"(\S+)!(\S+@\S+)\s*$", m.params[-1] if m.params else "")
        if found and self.fold(found.group(1)) == self.fold(self.nick):
            self.userhost = found.group(2)
        self.log.info("irc registered", nick=self.nick, caps=sorted(self.caps))

    async def _on_005(self, m: Message) -> None:
        for token in m.params[1:-1]:
            key, _, value = token.partition("=")
            if key.startswith("-"):
                self.isupport.pop(key[1:], None)
            else:
                self.isupport[key.upper()] = value

    async def _on_376(self, m: Message) -> None:  # end of MOTD (or 422: no MOTD): join and be ready
        if self._joins_pending or self.ready.is_set() or self.joined:
            return
        if not self.channel_list:
            self._set_ready()
            return
        for name, key in self.channel_list:
            self._joins_pending.add(self.fold(name))
            self._paced(build_line("JOIN", name, key) if key else build_line("JOIN", name))
        # A server that never answers a JOIN must not keep the outbox waiting for ever.
        session = self.connections_made
        asyncio.get_running_loop().call_later(self.config.connect_timeout, self._join_deadline, session)

    _on_422 = _on_376

    def _join_deadline(self, session: int) -> None:
        if session == self.connections_made and self.writer is not None and self._joins_pending:
            self.log.warning("irc joins unanswered", channels=sorted(self._joins_pending))
            self._joins_pending.clear()
            self._set_ready()

    def _paced(self, line: str) -> None:
        """Send a protocol line (JOIN, WHO) through the token bucket without holding up the reader."""

        async def send() -> None:
            await self.bucket.wait()
            with contextlib.suppress(NotConnected, ValueError):
                await self._write(line)

        task = asyncio.create_task(send())
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    def _set_ready(self) -> None:
        if not self.ready.is_set():
            self.ready.set()
            self.log.info("irc ready", nick=self.nick, channels=sorted(self.joined))
            if self.on_ready is not None:
                self.on_ready(self)

    def _join_settled(self, channel: str) -> None:
        self._joins_pending.discard(self.fold(channel))
        if not self._joins_pending:
            self._set_ready()

    async def _on_join(self, m: Message) -> None:
        channel = m.param(0)
        if not m.nick:
            return
        folded = self.fold(channel)
        if self.fold(m.nick) == self.fold(self.nick):
            self.joined.add(folded)
            if "WHOX" in self.isupport:
                self._paced(build_line("WHO", channel, f"%tcuhnfa,{WHOX_TOKEN}"))
            else:
                self._join_settled(channel)
            return
        extended = m.param(1) if "extended-join" in self.caps and len(m.params) >= 2 else None
        self.accounts.joined(m.nick, folded, m.tags, "account-tag" in self.caps, extended)

    async def _on_353(self, m: Message) -> None:  # RPL_NAMREPLY
        folded = self.fold(m.param(2))
        for entry in m.params[-1].split():
            nick = entry.lstrip("~&@%+!").split("!", 1)[0]
            if nick and self.fold(nick) != self.fold(self.nick):
                self.accounts.named(nick, folded)

    async def _on_354(self, m: Message) -> None:  # WHOX: token channel user host nick flags account
        if m.param(1) != WHOX_TOKEN or len(m.params) < 8:
            return
        nick, account = m.param(5), m.param(7)
        if self.fold(nick) == self.fold(self.nick):
            return
        self.accounts.whox(nick, self.fold(m.param(2)), account)

    async def _on_315(self, m: Message) -> None:  # end of WHO
        if self.fold(m.param(1)) in self._joins_pending:
            self._join_settled(m.param(1))

    async def _join_failed(self, m: Message) -> None:
        self.log.error("irc could not join", channel=m.param(1), reason=m.params[-1] if m.params else "")
        self._join_settled(m.param(1))

    _on_403 = _on_405 = _on_471 = _on_473 = _on_474 = _on_475 = _on_477 = _on_join_failed = _join_failed

    async def _on_account(self, m: Message) -> None:
        if m.nick:
            self.accounts.account_changed(m.nick, m.param(0))

    async def _on_nick(self, m: Message) -> None:
        if not m.nick:
            return
        new = m.param(0)
        if self.fold(m.nick) == self.fold(self.nick):
            self.nick = new
            return
        self.accounts.renamed(m.nick, new)

    def _left(self, nick: str, channel: str) -> None:
        folded = self.fold(channel)
        if self.fold(nick) == self.fold(self.nick):
            self.joined.discard(folded)
            self.accounts.we_left(folded)
            return
        self.accounts.left(nick, folded)

    async def _on_part(self, m: Message) -> None:
        if m.nick:
            self._left(m.nick, m.param(0))

    async def _on_kick(self, m: Message) -> None:
        self._left(m.param(1), m.param(0))
        if self.fold(m.param(1)) == self.fold(self.nick):
            self.log.warning("irc kicked", channel=m.param(0), by=m.nick, reason=m.param(2))

    async def _on_quit(self, m: Message) -> None:
        if m.nick:
            self.accounts.quit(m.nick)

    async def _on_privmsg(self, m: Message) -> None:
        nick = m.nick
        if not nick or "." in nick or self.fold(nick) == self.fold(self.nick):
            return  # server messages (a server name has a dot), and our own lines echoed back
        text = m.param(1)
        if text.startswith("\x01"):
            return  # CTCP (ACTION, VERSION, ...): not commands
        target = m.param(0)
        account = self.accounts.message(nick, m.tags, "account-tag" in self.caps)
        item = Incoming(
            nick=nick,
            account=account,
            target=target,
            text=text,
            is_channel=self.is_channel(target),
            msgid=m.tags.get("msgid"),
        )
        try:
            self._inbox.put_nowait(item)
        except asyncio.QueueFull:
            self.log.warning("irc inbox full; dropping a line", nick=nick)

    # NOTICE is never answered (RFC 2812 §3.3.2), so there is no _on_notice handler.
