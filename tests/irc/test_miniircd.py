"""The adapter against miniircd, a real (small) IRC server from PyPI, with real clients."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sqlmodel import col, select

from adapters.irc.adapter import HELP_PAGE_BYTES
from gateway.core.app import Gateway
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.vault import repo
from gateway.vault.models import OutboxRow, RollLog
from tests.irc import plugin
from tests.irc.conftest import Harness, connection, eventually
from tests.irc.lineclient import Line
from tests.irc.proxy import Proxy


def said_by(nick: str, command: str = "PRIVMSG") -> Callable[[Line], bool]:
    return lambda ln: ln.command == command and ln.nick == nick


async def last_roll_id(gateway: Gateway) -> str:
    async with gateway.services.vault.transaction() as session:
        row = (await session.exec(select(RollLog).order_by(col(RollLog.id).desc()))).first()
        assert row is not None
        return row.public_id


async def outbox_rows(gateway: Gateway) -> list[OutboxRow]:
    async with gateway.services.vault.transaction() as session:
        return list((await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))).all())


async def test_roll_in_channel_gets_the_exact_reply(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    gateway = await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")

    irc.dice.extend([9, 5, 10])
    await alice.say("#game", "!roll 3")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.params == ["#game", f"alice rolls 3 dice: 9 5 10 → 3 (Solid) #{await last_roll_id(gateway)}"]

    # Chat without the prefix is not a command; a botch comes back in red.
    irc.dice.extend([1])
    await alice.say("#game", "roll 3 is what I would type")
    await alice.say("#game", "!roll 1")
    line = await alice.wait_for(said_by("nightcap"))
    rid = await last_roll_id(gateway)
    assert line.params == ["#game", f"alice rolls 1 die: 1 → -1 \x0304(Botch)\x03 #{rid}"]
    assert alice.unread(said_by("nightcap")) == []


async def test_private_reply_and_errors_come_by_notice_to_the_user(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    bob = await irc.client(server.port, "bob", "#game")
    gateway = await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")

    await alice.say("#game", "!help")
    # The same command through the router directly gives the text the NOTICE lines must carry.
    direct = await gateway.services.router.handle(
        InboundMessage(
            sender=Identity("irc", "test/~alice", "alice", verified=False),
            channel=Channel("irc", "test/#game"),
            text="!help",
            prefixed=True,
            page_bytes=HELP_PAGE_BYTES,  # as the adapter says: one IRC line a page
            prefix="!",
        )
    )
    expected = direct[0].text
    assert direct[0].private and expected.startswith("Nightcap commands: ")
    texts: list[str] = []
    while " ".join(texts) != expected:
        line = await alice.wait_for(said_by("nightcap", "NOTICE"))
        assert line.params[0] == "alice" and len(line.raw) <= 512
        texts.append(line.text)
        assert len(" ".join(texts)) <= len(expected)

    await alice.say("#game", "!roll banana")
    line = await alice.wait_for(said_by("nightcap", "NOTICE"))
    assert line.params[0] == "alice"
    assert line.params[1].startswith("Unknown trait 'banana'.")

    # Bob, in the same channel, saw neither; a NOTICE to the bot is never answered.
    await bob.send("NOTICE nightcap :!roll 3")
    await bob.say("#game", "!secret")
    line = await bob.wait_for(lambda ln: ln.nick == "nightcap" and ln.command in ("PRIVMSG", "NOTICE"))
    assert (line.command, line.params) == ("NOTICE", ["bob", "only for bob"])
    assert alice.unread(said_by("nightcap")) == [] and alice.unread(said_by("nightcap", "NOTICE")) == []


async def test_private_conversation_with_the_bot(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice")
    await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    irc.dice.extend([8, 8])
    await alice.say("nightcap", "roll 2")  # no prefix needed in a private conversation
    line = await alice.wait_for(said_by("nightcap", "PRIVMSG"))  # answered in the query, as said
    assert line.params[0] == "alice"
    assert line.params[1].startswith("alice rolls 2 dice: 8 8 → 2 (Solid) #")


async def test_a_3000_byte_reply_is_split_into_valid_lines(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    assert 2900 < len(plugin.LONG_TEXT.encode()) < 3100

    await alice.say("#game", "!long")
    lines = []
    while True:
        line = await alice.wait_for(said_by("nightcap"))
        lines.append(line)
        if line.text.endswith(" end"):
            break
    for line in lines:
        assert len(line.raw) <= 512, len(line.raw)  # as relayed: ":nightcap!user@host PRIVMSG #game :..."
        assert line.raw.endswith(b"\r\n")
        line.raw.decode("utf-8", errors="strict")  # never cut inside a UTF-8 sequence
        assert line.params[0] == "#game"
        assert line.text == line.text.strip() and line.text
    assert max(len(line.raw) for line in lines) > 490  # the budget is used, not guessed low
    pieces = [line.text for line in lines]
    # Every short word arrives whole, in order; only the 700-byte word is cut, between characters.
    tokens = " ".join(pieces).split(" ")
    long_parts = [t for t in tokens if set(t) == {"ß"}]
    assert "".join(long_parts) == plugin.LONG_WORD and len(long_parts) >= 2
    assert [t for t in tokens if set(t) != {"ß"}] == [
        t for t in plugin.LONG_TEXT.split(" ") if set(t) != {"ß"}
    ]


async def test_unverified_user_is_refused_a_character_command(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    await alice.say("#game", "!char new Mira")
    line = await alice.wait_for(said_by("nightcap", "NOTICE"))
    assert line.params == [
        "alice",
        "char new needs a verified account: identify to services (or ask the operator to trust this"
        " network) and try again.",
    ]
    # Rolling bare pools stays open to everyone.
    irc.dice.extend([7])
    await alice.say("#game", "!roll 1")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.params[1].startswith("alice rolls 1 die: 7 → 1 (Marginal) #")


async def test_trusted_network_makes_nicks_identities(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "Alice", "#game")
    await irc.gateway(
        {"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"], "trust_nicks": True}}
    )
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    await alice.say("#game", "!whoami")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.params == ["#game", "you are irc:test/~alice verified=True"]
    await alice.say("#game", "!char new Mira")
    line = await alice.wait_for(lambda ln: ln.nick == "nightcap")
    assert "needs a verified account" not in line.text


async def test_nick_in_use_falls_back(irc: Harness) -> None:
    server = await irc.miniircd()
    squatter = await irc.client(server.port, "nightcap", "#game")
    gateway = await irc.gateway(
        {
            "test": {
                "host": "127.0.0.1",
                "port": server.port,
                "channels": ["#game"],
                "nick_fallbacks": ["nightcap_", "nightcap2"],
            }
        }
    )
    join = await squatter.wait_for(lambda ln: ln.command == "JOIN" and ln.nick.startswith("nightcap_"))
    assert join.nick == "nightcap_"
    assert connection(gateway).nick == "nightcap_"
    irc.dice.extend([10])
    await squatter.say("#game", "!roll 1")
    line = await squatter.wait_for(said_by("nightcap_"))
    assert line.params == ["#game", f"nightcap rolls 1 die: 10 → 2 (Solid) #{await last_roll_id(gateway)}"]


async def test_server_restart_reconnects_rejoins_and_delivers_the_queue(irc: Harness) -> None:
    server = await irc.miniircd()
    # The bot reaches the server through a proxy the test can hold shut, so the observer is back in
    # the channel before the bot returns (otherwise the delivery could beat the observer).
    proxy = Proxy(server.port)
    await proxy.start()
    try:
        alice = await irc.client(server.port, "alice", "#game")
        gateway = await irc.gateway(
            {"test": {"host": "127.0.0.1", "port": proxy.port, "channels": ["#game"]}}
        )
        conn = connection(gateway)
        await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
        assert conn.registrations == 1

        proxy.hold = True
        await server.stop()
        await eventually(lambda: _async(not conn.ready.is_set()))
        async with gateway.services.vault.transaction() as session:
            await repo.enqueue(session, "irc", "test/#game", {"text": "queued while the server was down"})
        gateway.outbox.wake()

        async def attempted() -> bool:
            rows = await outbox_rows(gateway)
            return rows[-1].last_error is not None and rows[-1].status == "pending"

        await eventually(attempted)
        row = (await outbox_rows(gateway))[-1]
        assert row.last_error == "IRC network test is not connected"
        assert row.attempts == 0  # waiting for the network is not a failed attempt: no outage kills it

        await server.start()
        await alice.close()
        alice = await irc.client(server.port, "alice", "#game")
        proxy.hold = False
        await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=15)
        line = await alice.wait_for(said_by("nightcap"), timeout=15)
        assert line.params == ["#game", "queued while the server was down"]
        assert conn.registrations == 2
        await eventually(lambda: _rows_delivered(gateway))
    finally:
        await proxy.stop()


async def _async(value: bool) -> bool:
    return value


async def _rows_delivered(gateway: Gateway) -> bool:
    return all(r.status == "delivered" for r in await outbox_rows(gateway))


async def test_stop_sends_quit(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    gateway = await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#game"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    await gateway.stop()
    irc.gateways.remove(gateway)
    line = await alice.wait_for(lambda ln: ln.command == "QUIT" and ln.nick == "nightcap")
    assert line.text.endswith("Nightcap gateway signing off")
    await asyncio.sleep(0)


async def test_channel_with_a_key(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#locked")
    await alice.send("MODE #locked +k sesame")
    await alice.wait_for(lambda ln: ln.command == "MODE")
    await irc.gateway({"test": {"host": "127.0.0.1", "port": server.port, "channels": ["#locked sesame"]}})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    irc.dice.extend([9])
    await alice.say("#locked", "!roll 1")
    line = await alice.wait_for(said_by("nightcap"))
    assert line.params[0] == "#locked" and line.text.startswith("alice rolls 1 die: 9 → 1 (Marginal) #")
