"""Neutral message types shared by the router, the rule plugins and the adapters.

Adapters translate platform traffic into these and back; rule plugins never see a platform object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

# Lone surrogates (JSON's "\ud800", a platform's broken UTF-16) cannot be encoded as UTF-8, and
# PostgreSQL refuses NUL in text: either would fail deep inside a unit of work, after a half-run.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` with what no vault can store (NUL, lone surrogates) replaced by U+FFFD."""
    return _UNSTORABLE.sub("\ufffd", text)


@dataclass(frozen=True)
class Identity:
    """Who sent a message, as the platform knows them.

    ``key`` is the vault's name for the identity: ``platform:id`` such as ``discord:1234`` or
    ``irc:libera/alice``. An unverified identity (an IRC nick with no services account) may roll
    bare pools but may not own characters, spend pools, link or be a Storyteller.
    """

    platform: str
    id: str
    display_name: str
    verified: bool = True

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.id}"


@dataclass(frozen=True)
class Channel:
    """Where a message was said. ``key`` is ``platform:id``; ``direct`` marks a private conversation."""

    platform: str
    id: str
    direct: bool = False

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.id}"


@dataclass(frozen=True)
class InboundMessage:
    """One message from a platform, before parsing.

    ``prefixed`` says the platform is a chat room where only text starting with the command prefix is
    a command (IRC, Matrix); the console, HUDs and slash commands send bare commands.
    ``sync_reply`` says the adapter answers on the request itself (console, HTTP, a HUD, a Discord
    interaction); otherwise the router queues the replies in the outbox in the same transaction.
    ``replies_reach_channel`` is False where the replies go to the caller alone and the channel itself
    never sees them (a Second Life HUD's answer), so what is meant for the channel must be queued to it.
    ``roles`` are roles the adapter vouches for (the console's ``--st``: it is the operator's terminal).
    ``message_id`` is the platform's identity of the message: the router runs one id once per
    platform, and answers a repeat with the replies the first run gave (``refuse_repeat``: refuses it).
    ``page_bytes`` is how long one reply may be where long answers must be paged (an IRC line); None
    where a whole help topic fits. ``prefix`` is what the reader types before a command there (the
    network's own on IRC); "" with ``prefixed`` means the gateway's ``[gateway] prefix``.
    """

    sender: Identity
    channel: Channel
    text: str
    message_id: str | None = None
    prefixed: bool = False
    sync_reply: bool = True
    roles: frozenset[str] = frozenset()
    reply_to: str | None = None
    # A message id seen before: False answers with the first run's replies (an idempotent retry),
    # True raises ``gateway.core.errors.Repeated`` (a replayed signature is refused).
    refuse_repeat: bool = False
    replies_reach_channel: bool = True
    page_bytes: int | None = None
    prefix: str = ""

    def storable(self) -> InboundMessage:
        """This message with every string made storable (see ``storable``); itself when it already is."""
        fields = (self.text, self.message_id or "", self.reply_to or "", self.channel.id)
        sender = self.sender
        if not any(_UNSTORABLE.search(f) for f in (*fields, sender.id, sender.display_name)):
            return self
        return replace(
            self,
            sender=replace(sender, id=storable(sender.id), display_name=storable(sender.display_name)),
            channel=replace(self.channel, id=storable(self.channel.id)),
            text=storable(self.text),
            message_id=None if self.message_id is None else storable(self.message_id),
            reply_to=None if self.reply_to is None else storable(self.reply_to),
        )


@dataclass(frozen=True)
class Invocation:
    """A parsed command line: ``words`` are the tokens after the command name; ``comment`` is what
    followed a lone ``#`` (``roll 3 # sneaking past``), kept with the roll the command logs."""

    name: str
    words: tuple[str, ...]
    raw: str
    comment: str | None = None
    # The words bound to the command's typed parameters (``gateway.core.params.bind``), by name; empty
    # for a command that declares none.
    args: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Reply:
    """One answer to a command.

    ``text`` is plain text for any platform; ``result`` is the structured result (``kind`` first) that
    adapters may render richer (embeds, HTML, colour). ``error`` is set on refusals and mistakes.
    """

    text: str
    private: bool = False
    error: str | None = None
    result: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"text": self.text, "private": self.private, "error": self.error, "result": self.result}


@dataclass(frozen=True)
class Outbound:
    """A message the outbox delivers later: a row in the vault first, then platform traffic.

    ``platform`` picks the adapter; ``target`` is the address inside that platform (a webhook name,
    ``network/#channel``, ``!room:server``, ``st-huds``). ``payload`` holds at least ``text``.
    """

    id: int
    platform: str
    target: str
    payload: dict[str, Any]
    attempts: int = 0
    created_at: datetime | None = None

    @property
    def text(self) -> str:
        return str(self.payload.get("text", ""))
