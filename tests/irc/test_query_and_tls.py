"""On a real ngIRCd: a private message to the bot is answered by PRIVMSG in the query (a private
reply to a command said in a channel stays a NOTICE), and a ``tls`` setting that does not match the
port is told in one clear line instead of a bare ``TimeoutError``."""

from __future__ import annotations

import pytest

from adapters.irc.tls_check import tls_record
from tests.irc.conftest import Harness, connection, eventually
from tests.irc.ircd import free_port, ngircd, ngircd_binary
from tests.irc.test_ngircd import make_cert


async def _true(value: bool) -> bool:
    return value


async def test_query_is_answered_by_privmsg_and_channel_private_replies_by_notice(irc: Harness) -> None:
    server = await irc.ngircd()
    alice = await irc.client(server.port, "alice", "#game")
    await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")

    await alice.say("nightcap", "secret")
    line = await alice.wait_for(lambda ln: ln.nick == "nightcap" and ln.command in ("PRIVMSG", "NOTICE"))
    assert (line.command, line.params) == ("PRIVMSG", ["alice", "only for alice"])
    await alice.say("nightcap", "nosuchcommand")
    line = await alice.wait_for(lambda ln: ln.nick == "nightcap" and ln.command in ("PRIVMSG", "NOTICE"))
    assert line.command == "PRIVMSG" and line.params[0] == "alice"

    await alice.say("#game", "!secret")
    line = await alice.wait_for(lambda ln: ln.nick == "nightcap" and ln.command in ("PRIVMSG", "NOTICE"))
    assert (line.command, line.params) == ("NOTICE", ["alice", "only for alice"])


@pytest.fixture
async def tls_server(irc: Harness, tmp_path: object) -> tuple[int, int]:
    if ngircd_binary() is None:
        pytest.skip("ngircd is not installed")
    cert = make_cert(tmp_path)  # type: ignore[arg-type]
    plain, tls = free_port(), free_port()
    server = ngircd(tmp_path, plain, tls_port=tls, cert=cert)  # type: ignore[arg-type]
    irc.servers.append(server)
    await server.start()
    return plain, tls


async def test_tls_against_a_plain_text_port_says_so(irc: Harness, tls_server: tuple[int, int]) -> None:
    plain, _ = tls_server
    gateway = await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": plain, "tls": True, "connect_timeout": 2}}, wait=False
    )
    conn = connection(gateway)
    await eventually(lambda: _true(conn.last_error is not None), timeout=20)
    assert conn.last_error == (
        "ConnectionLost: 127.0.0.1 port "
        f"{plain} speaks plain text, not TLS: set tls = false for this network, "
        "or set port to the server's TLS port (usually 6697)"
    )


async def test_plain_text_against_a_tls_port_says_so(irc: Harness, tls_server: tuple[int, int]) -> None:
    _, tls = tls_server
    gateway = await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": tls, "tls": False, "connect_timeout": 2}}, wait=False
    )
    conn = connection(gateway)
    await eventually(lambda: _true(conn.last_error is not None), timeout=20)
    assert conn.last_error == (
        f"ConnectionLost: 127.0.0.1 port {tls} speaks TLS, but this network has tls = false: "
        "set tls = true (or use the server's plain-text port, usually 6667)"
    )


def test_tls_records_are_told_from_irc_lines() -> None:
    assert tls_record("\x15\x03\x03\x00\x02\x02\x46") and tls_record("\x16\x03\x01")
    assert not tls_record(":irc.test.local NOTICE * :hello") and not tls_record("PING :x")
