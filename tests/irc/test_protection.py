"""Storyteller-log channels on a real ngIRCd: the bot sets the key and modes when it is an operator,
warns (log and ``gateway status``) when it is not, and holds sheets and secret rolls until the channel
is protected (+k or +i), unless ``allow_unprotected_log`` says otherwise.

ngIRCd makes the first user to join a new channel its operator: the bot is one when it joins first."""

from __future__ import annotations

from typing import Any

from sqlmodel import select

from adapters.irc.modes import ChannelModes, apply_modes, sensitive, wanted_modes
from gateway.core.app import Gateway
from gateway.vault import repo
from gateway.vault.models import OutboxRow
from tests.irc.conftest import Harness, adapter, connection, eventually


async def _log(gateway: Gateway, text: str, **result: Any) -> None:
    settings = gateway.services.settings
    async with gateway.services.vault.transaction() as session:
        await repo.write_stlog(
            session,
            targets=settings.stlog.targets,
            person_id=None,
            character_id=None,
            channel_key="irc:test/#game",
            kind="st_roll" if result else "roll",
            text=text,
            result=result,
            now=gateway.services.clock(),
            who="test",
            where="irc:test/#game",
        )
    gateway.outbox.wake()


async def _true(value: bool) -> bool:
    return value


def _net(port: int, **extra: Any) -> dict[str, dict[str, Any]]:
    return {"test": {"host": "127.0.0.1", "port": port, **extra}}


async def test_opped_bot_sets_the_key_and_modes_and_strangers_cannot_join(irc: Harness) -> None:
    server = await irc.ngircd()
    gateway = await irc.gateway(
        _net(server.port, channels=["#game", "#st sekrit"], log_modes="s"), stlog=["irc:test/#st"]
    )
    conn = connection(gateway)
    await eventually(lambda: _true(conn.protected("#st")), timeout=15)
    state = conn.modes_of("#st")
    assert state is not None and state.op and {"k", "s"} <= state.modes and state.key == "sekrit"
    assert not conn.warnings()
    assert adapter(gateway).status()["networks"]["test"]["log_channels"] == {  # type: ignore[index]
        "#st": {"joined": True, "modes": state.shown(), "op": True, "protected": True}
    }

    stranger = await irc.client(server.port, "stranger")
    await stranger.send("JOIN #st")
    refused = await stranger.wait_for(lambda ln: ln.command in ("475", "JOIN"))
    assert refused.command == "475"  # ERR_BADCHANNELKEY
    st = await irc.client(server.port, "storyteller")
    await st.send("JOIN #st sekrit")
    await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "storyteller")
    await _log(gateway, "(secret) Storyteller rolls 3 #abc", secret=True)
    line = await st.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap")
    assert line.params == ["#st", "(secret) Storyteller rolls 3 #abc"]


async def test_unprotected_log_channel_warns_and_holds_secret_rolls_until_protected(irc: Harness) -> None:
    server = await irc.ngircd()
    owner = await irc.client(server.port, "owner", "#st")  # the channel's operator, not the bot
    gateway = await irc.gateway(_net(server.port, channels=["#game"]), stlog=["irc:test/#st"])
    conn = connection(gateway)
    await eventually(lambda: _true(bool(conn.warnings())), timeout=15)
    status = adapter(gateway).status()["networks"]["test"]
    assert "#st is NOT protected" in status["warning"]  # type: ignore[index]
    assert "not a channel operator" in status["warning"]  # type: ignore[index]
    assert status["log_channels"]["#st"]["protected"] is False  # type: ignore[index]

    await _log(gateway, "an ordinary roll line")
    await _log(gateway, "(secret) Storyteller rolls 5 #sec", secret=True)
    line = await owner.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap")
    assert line.text == "an ordinary roll line"

    async def held() -> bool:
        async with gateway.services.vault.transaction() as session:
            rows = (await session.exec(select(OutboxRow).where(OutboxRow.status == "pending"))).all()
        return [r.last_error for r in rows] == [
            "IRC channel #st is not protected (+k or +i); sheet or secret roll held"
        ]

    await eventually(held, timeout=10)
    assert owner.unread(lambda ln: ln.command == "PRIVMSG" and "secret" in ln.text) == []

    # The channel's operator sets a key: the held line goes, and the warning is gone.
    await owner.send("MODE #st +k letmein")
    line = await owner.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap", timeout=15)
    assert line.text == "(secret) Storyteller rolls 5 #sec"
    assert conn.protected("#st") and not conn.warnings()
    assert "warning" not in adapter(gateway).status()["networks"]["test"]  # type: ignore[operator]


async def test_allow_unprotected_log_sends_anyway(irc: Harness) -> None:
    server = await irc.ngircd()
    owner = await irc.client(server.port, "owner", "#st")
    gateway = await irc.gateway(
        _net(server.port, channels=["#game"], allow_unprotected_log=True), stlog=["irc:test/#st"]
    )
    await eventually(lambda: _true(bool(connection(gateway).warnings())), timeout=15)
    await _log(gateway, "(secret) Storyteller rolls 2 #s2", secret=True)
    line = await owner.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap", timeout=15)
    assert line.text == "(secret) Storyteller rolls 2 #s2"


def test_mode_bookkeeping_and_what_counts_as_sensitive() -> None:
    isupport = {"CHANMODES": "beI,k,l,imnpst", "PREFIX": "(qaohv)~&@%+"}
    state = ChannelModes(known=True)
    apply_modes(state, "+snk-t+o", ["key1", "nightcap"], isupport=isupport, is_me=lambda n: n == "nightcap")
    assert state.modes == {"s", "n", "k"} and state.key == "key1" and state.op and state.protected
    apply_modes(state, "-k+l-o", ["*", "10", "nightcap"], isupport=isupport, is_me=lambda n: n == "nightcap")
    assert state.modes == {"s", "n", "l"} and state.key is None and not state.op and not state.protected
    assert wanted_modes(state, "si", "sekrit") == ["+ik", "sekrit"]
    assert wanted_modes(ChannelModes(modes={"s", "k"}), "s", "x") is None
    assert sensitive({"kind": "sheet"}) and sensitive({"kind": "stlog", "stlog_kind": "approve"})
    assert sensitive({"kind": "stlog", "stlog_kind": "st_roll", "result": {"secret": True}})
    assert not sensitive({"kind": "stlog", "stlog_kind": "roll", "result": {}, "text": "x"})
    assert not sensitive({"kind": "reply", "text": "(secret) x"})
