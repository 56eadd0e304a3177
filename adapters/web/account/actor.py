"""Every web action is a chat command line run through the router as the signed-in identity, in a
direct web channel of the chosen rule system: the same handler, authorisation, audit and replies as
in chat. Lines are built from form values with ``line``, which keeps each value one word or text."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from adapters.web.account.store import Signed
from gateway import AdapterServices, Channel, Identity, InboundMessage, Reply
from gateway.core.params import quoted
from gateway.features import channels, records


def word(value: str) -> str:
    """``value`` as a command word (its white space collapsed): quoted when it has spaces or starts
    with a quote."""
    return quoted(" ".join(value.split()))


def text(value: str) -> str:
    """Free text at the end of a line (a field's value): its words as typed, a word that starts with
    a quote kept literal."""
    return " ".join(word(part) if part[0] in "\"'" else part for part in value.split())


class Actor:
    def __init__(self, services: AdapterServices) -> None:
        self.services = services
        self._systems: set[str] = set()  # web channels whose rule system is set, in this process

    def channel(self, signed: Signed, system: str) -> Channel:
        return Channel("web", f"{signed.identity_key}/{system}", direct=True)

    async def run(self, signed: Signed, line: str, system: str = "nightcap") -> list[Reply]:
        channel = self.channel(signed, system)
        if channel.key not in self._systems:
            await channels.set_system(self.services.vault, channel, system)
            self._systems.add(channel.key)
        sender = Identity(signed.platform, signed.id, signed.display_name, verified=True)
        return await self.services.handle(InboundMessage(sender=sender, channel=channel, text=line))

    @contextlib.asynccontextmanager
    async def kept_active(self, signed: Signed) -> AsyncIterator[Kept]:
        """Commands run inside leave the person's active chat character as it was: the web never
        changes which character the next ``roll`` in chat rolls as, except through the sheet page's
        own "play it in chat" button (``char new`` makes the new character active; an edit of
        another character makes it active first, as chat needs). ``Kept.made`` is the character
        that would have become active (a new one's id), None when none did."""
        kept = Kept(await records.active_character_id(self.services.vault, signed.person_id))
        yield kept
        kept.made = await records.keep_active(self.services.vault, signed.person_id, kept.before)


@dataclass
class Kept:
    before: int | None
    made: int | None = None
