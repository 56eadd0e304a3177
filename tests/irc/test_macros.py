"""Macros over IRC (issue 18), against the real miniircd server and real clients: saved with the
prefix, run as ``!NAME`` with the line's comment, refused as typed text would be (by NOTICE)."""

from __future__ import annotations

from tests.irc.conftest import Harness
from tests.irc.test_miniircd import said_by


async def test_a_macro_runs_over_irc_and_a_refusal_comes_by_notice(irc: Harness) -> None:
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    net = {"host": "127.0.0.1", "port": server.port, "channels": ["#game"], "trust_nicks": True}
    await irc.gateway({"test": net})
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")

    await alice.say("#game", "!macro add hit = roll {1} ; roll 1")
    saved = await alice.wait_for(said_by("nightcap", "NOTICE"))
    assert saved.text == "Your macro hit for Nightcap: roll {1} ; roll 1. Run it: !hit."

    irc.dice.extend([9, 9, 5])
    await alice.say("#game", "hit 2")  # no prefix: chat, never a macro
    await alice.say("#game", "!hit 2 # from the rafters")
    first = await alice.wait_for(said_by("nightcap"))
    second = await alice.wait_for(said_by("nightcap"))
    assert first.params[1].startswith("alice rolls 2 dice: 9 9 → 2 (Solid) #")
    assert first.params[1].endswith(" — from the rafters")
    assert second.params[1].startswith("alice rolls 1 die: 5 → 0 (Failure) #")

    await alice.say("#game", "!macro add peek = st log")
    await alice.wait_for(said_by("nightcap", "NOTICE"))
    await alice.say("#game", "!peek")
    refused = await alice.wait_for(said_by("nightcap", "NOTICE"))
    assert refused.text == "Macro peek: st log needs the Storyteller role, which you do not have."
    assert alice.unread(said_by("nightcap")) == []
