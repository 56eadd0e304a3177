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


@pytest.mark.parametrize("tls", [True, False], ids=["tls-on-plain-port", "plain-on-tls-port"])
async def test_a_tls_setting_that_does_not_match_the_port_says_so(
    irc: Harness, tls_server: tuple[int, int], tls: bool
) -> None:
    port = tls_server[0] if tls else tls_server[1]
    gateway = await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": port, "tls": tls, "connect_timeout": 2}}, wait=False
    )
    conn = connection(gateway)
    await eventually(lambda: _true(conn.last_error is not None), timeout=20)
    if tls:
        hint = (
            "speaks plain text, not TLS: set tls = false for this network,"
            " or set port to the server's TLS port (usually 6697)"
        )
    else:
        hint = (
            "speaks TLS, but this network has tls = false:"
            " set tls = true (or use the server's plain-text port, usually 6667)"
        )
    assert conn.last_error == f"ConnectionLost: 127.0.0.1 port {port} {hint}"


def test_tls_records_are_told_from_irc_lines() -> None:
    assert tls_record("\x15\x03\x03\x00\x02\x02\x46") and tls_record("\x16\x03\x01")
    assert not tls_record(":irc.test.local NOTICE * :hello") and not tls_record("PING :x")
