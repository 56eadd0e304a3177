"""``GuardedConnection``: an ``IrcConnection`` that knows its channels' modes and protects the
Storyteller-log channels, and that says plainly when TLS and plain text are mixed up.

Kept beside ``client.py`` (a subclass, not edits in it) so that the connection's sending and pacing
code stays one module with one job; the handlers here follow its ``_on_<command>`` dispatch.

Log channels: after each join the bot asks ``MODE #chan``; with operator status it sets what is
missing of ``log_modes`` and ``+k`` with the channel's configured key. Without it, and with the
channel open to anyone, it logs an error (and ``warnings()`` says so for ``gateway status``).
"""

from __future__ import annotations

from typing import Any

from adapters.irc.client import ConnectionLost, IrcConnection, NotConnected
from adapters.irc.modes import ChannelModes, apply_modes, op_symbols, wanted_modes
from adapters.irc.protocol import Message, build_line
from adapters.irc.tls_check import plain_text_answer, tls_answer_hint, tls_handshake_works, tls_record

PROBE_TIMEOUT = 3.0


class GuardedConnection(IrcConnection):
    def __init__(self, *args: Any, log_channels: list[str] | None = None, **kw: Any) -> None:
        self.channel_modes: dict[str, ChannelModes] = {}
        super().__init__(*args, **kw)
        self.log_channels = {self.fold(name) for name in log_channels or []}
        self.channel_keys = {self.fold(c.name): c.key for c in self.config.channels if c.key}
        self._warned: dict[str, str] = {}

    # ------------------------------------------------------------------ state

    def _reset(self) -> None:
        super()._reset()
        self.channel_modes = {}

    def _close(self) -> None:
        super()._close()
        self.channel_modes = {}

    def modes_of(self, channel: str) -> ChannelModes | None:
        return self.channel_modes.get(self.fold(channel))

    def protected(self, channel: str) -> bool:
        state = self.modes_of(channel)
        return state is not None and state.known and state.protected

    def log_report(self) -> dict[str, dict[str, object]]:
        """Per log channel: its modes, whether we are an operator there, whether it is protected."""
        report: dict[str, dict[str, object]] = {}
        for folded in sorted(self.log_channels):
            state = self.channel_modes.get(folded)
            report[folded] = {
                "joined": folded in self.joined,
                "modes": state.shown() if state else "?",
                "op": bool(state and state.op),
                "protected": bool(state and state.known and state.protected),
            }
        return report

    def warnings(self) -> list[str]:
        return [self._warned[c] for c in sorted(self._warned)]

    # ------------------------------------------------------------------ modes

    async def _on_join(self, m: Message) -> None:
        await super()._on_join(m)
        if m.nick and self.fold(m.nick) == self.fold(self.nick):
            folded = self.fold(m.param(0))
            self.channel_modes[folded] = ChannelModes()
            if folded in self.log_channels:
                self.ask_modes(m.param(0))

    def ask_modes(self, channel: str) -> None:
        """``MODE #chan``: the server answers with 324. Asked at join for log channels, and for any
        other joined channel the first time a sheet or secret roll is for it."""
        state = self.channel_modes.get(self.fold(channel))
        if state is not None and not state.asked:
            state.asked = True
            self._paced(build_line("MODE", channel))

    async def _on_353(self, m: Message) -> None:  # RPL_NAMREPLY: "@nightcap" means we are an operator
        await super()._on_353(m)
        state = self.channel_modes.get(self.fold(m.param(2)))
        if state is None:
            return
        symbols = op_symbols(self.isupport)
        for entry in m.params[-1].split():
            nick = entry.lstrip("~&@%+!").split("!", 1)[0]
            if self.fold(nick) == self.fold(self.nick):
                state.op = any(c in symbols for c in entry[: len(entry) - len(entry.lstrip("~&@%+!"))])

    async def _on_324(self, m: Message) -> None:  # RPL_CHANNELMODEIS: me #chan +modes args
        state = self.channel_modes.get(self.fold(m.param(1)))
        if state is None:
            return
        op = state.op
        state.modes.clear()
        state.key = None
        apply_modes(state, m.param(2), list(m.params[3:]), isupport=self.isupport, is_me=self._is_me)
        state.op, state.known = op, True
        self._review(m.param(1))

    async def _on_mode(self, m: Message) -> None:
        channel = m.param(0)
        state = self.channel_modes.get(self.fold(channel))
        if state is None:
            return
        apply_modes(state, m.param(1), list(m.params[2:]), isupport=self.isupport, is_me=self._is_me)
        self._review(channel)

    async def _on_482(self, m: Message) -> None:  # ERR_CHANOPRIVSNEEDED
        self.log.error(
            "irc not a channel operator", channel=m.param(1), reason=m.params[-1] if m.params else ""
        )

    def _left(self, nick: str, channel: str) -> None:
        super()._left(nick, channel)
        if self._is_me(nick):
            self.channel_modes.pop(self.fold(channel), None)

    def _is_me(self, nick: str) -> bool:
        return self.fold(nick) == self.fold(self.nick)

    def _review(self, channel: str) -> None:
        """After the modes of a channel changed: protect a log channel when we can, warn when we can't."""
        folded = self.fold(channel)
        state = self.channel_modes.get(folded)
        if folded not in self.log_channels or state is None or not state.known:
            return
        key = self.channel_keys.get(folded)
        if state.op:
            wanted = wanted_modes(state, self.config.log_modes, key)
            if wanted is not None:
                self._paced(build_line("MODE", channel, *wanted))
        if state.protected:
            if self._warned.pop(folded, None) is not None:
                self.log.info("irc Storyteller log channel protected", channel=channel, modes=state.shown())
            if self.on_ready is not None:
                self.on_ready(self)  # rows held for it may go now
            return
        if state.op and key:
            return  # +k is on its way
        why = "the bot is not a channel operator there" if not state.op else "no key is configured for it"
        text = (
            f"Storyteller log channel {channel} is NOT protected (modes {state.shown()}, no +k or +i): "
            f"anyone can join and read it; {why}. Sheets and secret rolls are held until it is protected "
            f"(see the README's ChanServ set-up) or allow_unprotected_log = true."
        )
        if self._warned.get(folded) != text:
            self._warned[folded] = text
            self.log.error("irc " + text, channel=channel)

    # ------------------------------------------------------------------ TLS and plain text mixed up

    async def _session(self) -> None:
        cfg = self.config
        made = self.connections_made
        try:
            await super()._session()
        except (TimeoutError, OSError, ConnectionLost, NotConnected) as exc:
            if cfg.tls and self.connections_made == made:
                # The TLS handshake failed or got no answer: a plain-text port answers our probe.
                if await plain_text_answer(cfg.host, cfg.effective_port, PROBE_TIMEOUT):
                    raise ConnectionLost(tls_answer_hint(cfg.host, cfg.effective_port)) from exc
            elif not cfg.tls and not self.registered and self.connections_made != made:
                await self._plain_on_tls(exc)
            raise
        if not cfg.tls and not self.registered:
            await self._plain_on_tls(None)  # closed before the welcome: perhaps a TLS port

    async def _plain_on_tls(self, exc: BaseException | None) -> None:
        if await tls_handshake_works(self.config.host, self.config.effective_port, PROBE_TIMEOUT):
            hint = tls_answer_hint(self.config.host, self.config.effective_port, plain=True)
            raise ConnectionLost(hint) from exc

    async def _dispatch(self, m: Message) -> None:
        if not self.registered and not self.config.tls and tls_record(m.command):
            raise ConnectionLost(tls_answer_hint(self.config.host, self.config.effective_port, plain=True))
        await super()._dispatch(m)
