"""Every hint that names a command names it as the reader types it there (issue 37): ``!help`` and
``!roll`` in a chat room where commands take a prefix (an IRC network's own prefix when it has one),
bare in the console, on a HUD or in a slash command."""

from __future__ import annotations

from gateway.core.types import Channel, Identity, InboundMessage
from gateway.testing import Chat
from tests.helpers.chat import play
from tests.nightcap.helpers import refused


async def test_the_unknown_command_line_names_the_prefix(chat: Chat) -> None:
    await play(chat, "nightcap", as_="st")
    assert await refused(chat, "!rol 3", prefixed=True, channel="room") == (
        "Unknown command 'rol'. Did you mean !roll? Type !help for the list."
    )
    assert await refused(chat, "!frobnicate", prefixed=True, channel="room") == (
        "Unknown command 'frobnicate'. Type !help for the list."
    )
    # Where nothing is typed before a command, nothing is named before it.
    assert await refused(chat, "rol 3") == "Unknown command 'rol'. Did you mean roll? Type help for the list."


async def test_a_networks_own_prefix_and_the_readers_language(chat: Chat) -> None:
    async def irc(text: str) -> str:
        message = InboundMessage(
            sender=Identity(platform="irc", id="eva", display_name="Eva", verified=True),
            channel=Channel(platform="irc", id="#hra"),
            text=text,
            prefixed=True,
            prefix=".",  # this network's bots answer to "." (the adapter hands on "!" + the rest)
        )
        [reply] = await chat.gateway.services.handle(message)
        assert reply.error is not None, reply.text
        return reply.text

    await chat.say("system pravidla", "st", platform="irc", channel="#hra", st=True)
    assert await irc("!tgu") == "Neznámý příkaz „tgu“. Nemysleli jste .tug? Seznam příkazů vypíše .help."
