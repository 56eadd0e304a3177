"""Account identity end to end on a real services network: InspIRCd 3 + Atheme 7 from Debian.

Accounts are registered with NickServ; the bot logs in with SASL PLAIN; identities come from the
account-tag InspIRCd puts on every message of a logged-in user.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import select

from adapters.irc import adapter as irc_adapter
from gateway.vault.models import RollLog
from tests.irc.conftest import Harness, connection
from tests.irc.ircd import InspircdAtheme, inspircd_atheme_binaries
from tests.irc.lineclient import LineClient

pytestmark = pytest.mark.skipif(
    inspircd_atheme_binaries() is None,
    reason="inspircd and atheme-services are not installed (.ci/apt-packages lists them)",
)


@pytest.fixture
async def network() -> AsyncIterator[InspircdAtheme]:
    workdir = Path(tempfile.mkdtemp(prefix="nightcap-irc-"))  # outside pytest's 0700 tmp: nobody reads it
    net = InspircdAtheme(workdir)
    try:
        await net.start()
        yield net
    finally:
        await net.stop()
        shutil.rmtree(workdir, ignore_errors=True)


async def register_account(client: LineClient, password: str) -> None:
    await client.say("NickServ", f"REGISTER {password} {client.nick}@test.local")
    await client.wait_for(lambda ln: ln.command == "900")  # RPL_LOGGEDIN: the new account is in use


async def test_account_identity_with_inspircd_and_atheme(irc: Harness, network: InspircdAtheme) -> None:
    # The bot's own account, registered the way a human operator would, then released.
    setup = await irc.client(network.port, "nightcap")
    await register_account(setup, "bot-password")
    await setup.close()
    irc.clients.remove(setup)

    carol = await irc.client(network.port, "carol")
    await register_account(carol, "carol-password")
    await carol.join("#game")
    dave = await irc.client(network.port, "dave", "#game")  # never identifies

    gateway = await irc.gateway(
        {
            "atheme": {
                "host": "127.0.0.1",
                "port": network.port,
                "channels": ["#game"],
                "sasl_username": "nightcap",
                "sasl_password": "bot-password",
            }
        }
    )
    conn = connection(gateway, "atheme")
    assert conn.logged_in_as == "nightcap"
    assert {
        "account-tag",
        "extended-join",
        "account-notify",
        "message-tags",
        "echo-message",
        "sasl",
    } <= conn.caps
    await carol.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")

    await carol.say("#game", "!whoami")
    line = await carol.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap")
    assert line.params == ["#game", "you are irc:atheme/carol verified=True"]

    def reply_to_dave(ln: object) -> bool:
        return ln.command == "PRIVMSG" and ln.nick == "nightcap" and "dave" in ln.text  # type: ignore[attr-defined]

    await dave.say("#game", "!whoami")
    line = await dave.wait_for(reply_to_dave)
    assert line.params == ["#game", "you are irc:atheme/~dave verified=False"]
    await dave.say("#game", "!char new Rook")
    line = await dave.wait_for(lambda ln: ln.command == "NOTICE" and ln.nick == "nightcap")
    assert line.params[0] == "dave"
    assert line.params[1].startswith("char new needs a verified account: identify to services")

    await carol.say("#game", "!char new Mira")
    line = await carol.wait_for(lambda ln: ln.nick == "nightcap" and ln.command in ("PRIVMSG", "NOTICE"))
    assert "needs a verified account" not in line.text

    # Dave identifies later: account-notify / the account tag make him verified from then on.
    await dave.say("NickServ", "REGISTER dave-password dave@test.local")
    await dave.wait_for(lambda ln: ln.command == "900")
    await dave.say("#game", "!whoami")
    line = await dave.wait_for(reply_to_dave)
    assert line.params == ["#game", "you are irc:atheme/dave verified=True"]


async def test_two_connections_to_one_network_still_run_each_command_once(
    vault_url: str, irc: Harness, network: InspircdAtheme, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the adapters do: with the lease bypassed, two processes both connect and both see
    every line, but InspIRCd gives each message one ``msgid`` for every recipient, and the router
    runs a platform message id once."""

    async def unowned(leases: object, name: str, work: Any) -> Any:
        return await work(None)

    monkeypatch.setattr(irc_adapter, "run_owned", unowned)
    alice = await irc.client(network.port, "alice", "#game")
    net = {"atheme": {"host": "127.0.0.1", "port": network.port, "channels": ["#game"]}}
    first = await irc.gateway(net, vault_url=vault_url)
    second = await irc.gateway(net, vault_url=vault_url)
    assert connection(first, "atheme").connected and connection(second, "atheme").connected
    assert "message-tags" in connection(second, "atheme").caps
    bots = {connection(first, "atheme").nick, connection(second, "atheme").nick}
    assert len(bots) == 2
    for _ in range(2):
        await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick in bots)

    irc.dice.extend([9, 5, 10] * 10)
    for _ in range(5):
        await alice.say("#game", "!roll 3")
    replies: list[Any] = []
    while len(replies) < 5:
        replies.append(await alice.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick in bots))
    await asyncio.sleep(1.0)
    assert alice.unread(lambda ln: ln.command == "PRIVMSG" and ln.nick in bots) == []
    async with first.services.vault.transaction() as session:
        assert int((await session.exec(select(func.count()).select_from(RollLog))).one()) == 5
