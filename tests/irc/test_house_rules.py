"""House rules over IRC against miniircd (a real server) with real clients: a Storyteller sets one in
the channel and everyone there sees it announced; a player's attempt, a wrong value and an unknown
switch are refused by NOTICE; the roll that follows obeys it and names it."""

from __future__ import annotations

from gateway.core.types import Channel, Identity, InboundMessage
from tests.irc.conftest import Harness
from tests.irc.test_miniircd import last_roll_id, said_by


async def test_house_rules_over_irc(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    gm = await irc.client(server.port, "gm", "#game")
    net = {"host": "127.0.0.1", "port": server.port, "channels": ["#game"], "trust_nicks": True}
    gateway = await irc.gateway({"test": net})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    # The vault's operator makes gm a Storyteller (as from the console).
    made = await gateway.services.router.handle(
        InboundMessage(
            sender=Identity("console", "operator", "Operator"),
            channel=Channel("console", "main"),
            text="st add irc:test/~gm",
            prefixed=False,
            roles=frozenset({"storyteller"}),
        )
    )
    assert made[0].error is None, made[0].text

    await alice.say("#game", "!house set tens_double off")
    line = await alice.wait_for(said_by("nightcap", "NOTICE"))
    assert line.params[0] == "alice" and "Storyteller" in line.params[1]

    await gm.say("#game", "!house set tens_double maybe")
    line = await gm.wait_for(said_by("nightcap", "NOTICE"))
    assert line.params == ["gm", "tens_double is on or off, not maybe."]
    await gm.say("#game", "!house set tens_dubble off")
    line = await gm.wait_for(said_by("nightcap", "NOTICE"))
    assert line.params == ["gm", "Nightcap has no house rule tens_dubble; did you mean tens_double?"]

    await gm.say("#game", "!house set tens_double off")
    announced = "House rule here: tens_double = off (was on; the book's: on), set by gm."
    assert (await alice.wait_for(said_by("nightcap"))).params == ["#game", announced]
    assert (await gm.wait_for(said_by("nightcap"))).params == ["#game", announced]

    irc.dice.extend([10, 7, 3])
    await alice.say("#game", "!roll 3")
    line = await alice.wait_for(said_by("nightcap"))
    rid = await last_roll_id(gateway)
    assert line.params == ["#game", f"alice rolls 3 dice: 10 7 3 → 2 (Solid) [house: tens_double=off] #{rid}"]
