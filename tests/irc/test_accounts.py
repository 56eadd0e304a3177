"""Account-based identity and SASL, against the wire-level fake server (``fakeserver.py``).

The tagged lines are the IRCv3 specifications' own examples: account-tag
(``@account=hax0r :user PRIVMSG #atheme :...``), extended-join (``JOIN #chan accountname :Real Name``),
account-notify (``ACCOUNT accountname`` / ``ACCOUNT *``), and WHOX ``354`` replies.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator

import pytest

from adapters.irc.client import WANTED_CAPS
from tests.irc.conftest import Harness, connection, eventually
from tests.irc.fakeserver import BOT_MASK, FakeConn, FakeServer

ALL_CAPS = (
    "account-tag extended-join account-notify message-tags echo-message server-time batch sasl=PLAIN,EXTERNAL"
)
REFUSAL = (
    "char new needs a verified account: identify to services (or ask the operator to trust this network)"
    " and try again."
)


@pytest.fixture
async def fake() -> AsyncIterator[FakeServer]:
    server = FakeServer()
    await server.start()
    yield server
    await server.stop()


def network(port: int, **kw: object) -> dict[str, dict[str, object]]:
    return {"test": {"host": "127.0.0.1", "port": port, "channels": ["#game"], **kw}}


async def test_account_tag_identity_the_spec_example(irc: Harness, fake: FakeServer) -> None:
    await irc.gateway(network(fake.port), wait=False)
    conn = await fake.accept()
    sent = await conn.register(ALL_CAPS)
    req = next(line for line in sent if line.startswith("CAP REQ"))
    # Everything we want that the server offers; no SASL without credentials, nothing it does not offer.
    assert req == "CAP REQ :account-tag extended-join account-notify message-tags echo-message server-time"
    await conn.accept_join(
        "#game", names="hax0r dave", whox=[("hax0r", "hax0r"), ("dave", "0")], extended=True
    )

    # IRCv3 account-tag spec: "@account=hax0r :user PRIVMSG #atheme :Now I'm logged in."
    await conn.send("@account=hax0r :user PRIVMSG #game :!whoami")
    assert await conn.next_line() == "PRIVMSG #game :you are irc:test/hax0r verified=True"
    # With account-tag on, a message without the tag is from someone not logged in.
    await conn.send("@time=2026-11-30T20:00:00.000Z :dave!d@dave.host PRIVMSG #game :!whoami")
    assert await conn.next_line() == "PRIVMSG #game :you are irc:test/~dave verified=False"
    await conn.send(":dave!d@dave.host PRIVMSG #game :!char new Mira")
    assert await conn.next_line() == f"NOTICE dave :{REFUSAL}"
    await conn.send("@account=Hax0r;msgid=m1 :user!u@h PRIVMSG #game :!char new Mira")
    line = await conn.next_line()  # the Nightcap char new answers privately, to the nick that asked
    assert line.startswith("NOTICE user :Mira is made and active"), line

    # Same msgid again (a replay): handled once. Our own echoed line, a NOTICE and a CTCP: never answered.
    await conn.send(
        "@account=Hax0r;msgid=m1 :user!u@h PRIVMSG #game :!char new Mira",
        f"@msgid=m2 :nightcap!{BOT_MASK} PRIVMSG #game :!whoami",
        "@account=hax0r :user!u@h NOTICE #game :!whoami",
        "@account=hax0r :user!u@h PRIVMSG #game :\x01VERSION\x01",
        "@account=hax0r :user!u@h PRIVMSG #game :!whoami",
    )
    assert await conn.next_line() == "PRIVMSG #game :you are irc:test/hax0r verified=True"
    assert conn.unread() == []


async def test_extended_join_account_notify_and_whox_without_account_tag(
    irc: Harness, fake: FakeServer
) -> None:
    gateway = await irc.gateway(network(fake.port), wait=False)
    conn = await fake.accept()
    await conn.register("extended-join account-notify")
    await conn.accept_join(
        "#game", names="carol dave", whox=[("carol", "Carol"), ("dave", "0")], extended=True
    )
    await eventually(lambda: _true(connection(gateway).ready.is_set()))

    async def whoami(nick: str) -> str:
        await conn.send(f":{nick}!x@{nick}.host PRIVMSG #game :!whoami")
        return await conn.next_line()

    assert await whoami("carol") == "PRIVMSG #game :you are irc:test/carol verified=True"  # from WHOX
    assert await whoami("dave") == "PRIVMSG #game :you are irc:test/~dave verified=False"
    # extended-join spec: ":nick!user@host JOIN #channelname accountname :Real Name"
    await conn.send(":erin!e@erin.host JOIN #game erin_acct :Erin Real")
    assert await whoami("erin") == "PRIVMSG #game :you are irc:test/erin_acct verified=True"
    await conn.send(":frank!f@frank.host JOIN #game * :Frank Real")
    assert await whoami("frank") == "PRIVMSG #game :you are irc:test/~frank verified=False"
    # account-notify: ACCOUNT accountname / ACCOUNT *
    await conn.send(":erin!e@erin.host ACCOUNT *", ":dave!d@dave.host ACCOUNT dave")
    assert await whoami("erin") == "PRIVMSG #game :you are irc:test/~erin verified=False"
    assert await whoami("dave") == "PRIVMSG #game :you are irc:test/dave verified=True"
    # A nick change keeps the account; leaving every shared channel forgets it.
    await conn.send(":carol!c@carol.host NICK carol2")
    assert await whoami("carol2") == "PRIVMSG #game :you are irc:test/carol verified=True"
    await conn.send(":carol2!c@carol.host PART #game :bye", ":carol2!c@carol.host PRIVMSG nightcap :whoami")
    # Said in the query: answered there by PRIVMSG (issue 14).
    assert await conn.next_line() == "PRIVMSG carol2 :you are irc:test/~carol2 verified=False"


async def test_private_reply_never_goes_to_a_nick_someone_else_now_holds(
    irc: Harness, fake: FakeServer
) -> None:
    gateway = await irc.gateway(network(fake.port), wait=False)
    conn = await fake.accept()
    await conn.register("extended-join account-notify")
    await conn.accept_join("#game", names="carol", whox=[("carol", "carol")])
    await eventually(lambda: _true(connection(gateway).ready.is_set()))
    adapter = gateway.adapters["irc"]
    irc_conn = connection(gateway)
    payload = {"text": "psst", "private": True, "recipient": "test/carol", "recipient_name": "carol"}
    assert adapter._route(irc_conn, "#game", payload) == ("NOTICE", "carol")
    # carol renames herself; the reply follows her account to the new nick
    await conn.send(":carol!c@h NICK carol_away", ":mallory!m@h JOIN #game mallory :M")
    await conn.send(":mallory!m@h NICK carol")
    await eventually(lambda: _true(irc_conn.account_of("carol") == "mallory"))
    assert adapter._route(irc_conn, "#game", payload) == ("NOTICE", "carol_away")
    await conn.send(":carol_away!c@h QUIT :gone")
    await eventually(lambda: _true(irc_conn.user_known("carol_away") is None))
    from gateway.core.errors import DeliveryFailed

    with pytest.raises(DeliveryFailed):
        adapter._route(irc_conn, "#game", payload)


async def test_sasl_plain_before_cap_end(irc: Harness, fake: FakeServer) -> None:
    await irc.gateway(network(fake.port, sasl_username="nightcap", sasl_password="s3cret"), wait=False)
    conn = await fake.accept()
    sent = await conn.register(ALL_CAPS, sasl=("nightcap", "s3cret"))
    blob = base64.b64encode(b"nightcap\0nightcap\0s3cret").decode()
    assert sent == [
        "CAP LS 302",
        "NICK nightcap",
        "USER nightcap 0 * :Nightcap gateway",
        "CAP REQ :account-tag extended-join account-notify message-tags echo-message server-time sasl",
        "AUTHENTICATE PLAIN",
        f"AUTHENTICATE {blob}",
        "CAP END",
    ]
    await conn.accept_join("#game", whox=[])


async def test_sasl_chunks_of_400_and_failure_still_registers(irc: Harness, fake: FakeServer) -> None:
    password = "p" * 282  # "nightcap\0nightcap\0" + 282 bytes = 300 bytes = exactly 400 base64 characters
    gateway = await irc.gateway(
        network(fake.port, sasl_username="nightcap", sasl_password=password), wait=False
    )
    conn = await fake.accept()
    sent = await conn.register("sasl", sasl=("nightcap", password), sasl_ok=False)
    blob = base64.b64encode(f"nightcap\0nightcap\0{password}".encode()).decode()
    assert len(blob) == 400
    assert sent[-4:] == ["AUTHENTICATE PLAIN", f"AUTHENTICATE {blob}", "AUTHENTICATE +", "CAP END"]
    await conn.accept_join("#game", whox=[])
    await eventually(lambda: _true(connection(gateway).ready.is_set()))


async def test_ping_both_ways_and_reconnect_when_the_server_goes_quiet(
    irc: Harness, fake: FakeServer
) -> None:
    gateway = await irc.gateway(network(fake.port, ping_interval=0.3, ping_timeout=0.3), wait=False)
    conn = await fake.accept()
    await conn.register("")
    await conn.accept_join("#game", whox=[])
    await conn.send("PING :tok-1")
    assert await conn.expect(lambda s: s.startswith("PONG")) in ("PONG tok-1", "PONG :tok-1")
    # Silence: the bot pings, gets no answer, drops the link and comes back.
    assert (await conn.expect(lambda s: s.startswith("PING"), timeout=5)).startswith("PING :nightcap-")
    second = await fake.accept(timeout=10)
    await second.register("")
    await second.accept_join("#game", whox=[])
    await eventually(lambda: _true(connection(gateway).registrations == 2))
    assert "no answer to PING" in (connection(gateway).last_error or "")


async def test_cap_list_is_what_the_issue_asks_for() -> None:
    for cap in (
        "account-tag",
        "extended-join",
        "account-notify",
        "message-tags",
        "echo-message",
        "server-time",
    ):
        assert cap in WANTED_CAPS


async def _true(value: bool) -> bool:
    return value


__all__ = ["FakeConn"]


async def test_unanswered_join_does_not_hold_the_outbox_for_ever(irc: Harness, fake: FakeServer) -> None:
    gateway = await irc.gateway(network(fake.port, connect_timeout=1.0), wait=False)
    conn = await fake.accept()
    await conn.register("")
    await conn.expect("JOIN #game")  # and never answered
    await eventually(lambda: _true(connection(gateway).ready.is_set()), timeout=5)
