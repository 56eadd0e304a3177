"""From an interaction payload to a neutral message, and from replies to an interaction response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adapters.discord import render
from adapters.discord.slash import Parsed
from gateway.types import Channel, Identity, InboundMessage, Reply

PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, AUTOCOMPLETE_RESULT = 1, 4, 5, 8


def sender(interaction: Mapping[str, Any]) -> Identity:
    """``discord:<user id>``; the display name is the server nickname, the global name or the username."""
    member = interaction.get("member") or {}
    user = member.get("user") or interaction.get("user") or {}
    user_id = str(user.get("id") or "0")
    name = member.get("nick") or user.get("global_name") or user.get("username") or user_id
    name = " ".join(render.clean(name).split())[:80] or user_id
    return Identity(platform="discord", id=user_id, display_name=name)


def channel(interaction: Mapping[str, Any]) -> Channel:
    """``discord:<guild id>/<channel id>``; a direct message is ``discord:@me/<channel id>``."""
    channel_id = str(interaction.get("channel_id") or (interaction.get("channel") or {}).get("id") or "0")
    guild = interaction.get("guild_id")
    if guild:
        return Channel(platform="discord", id=f"{guild}/{channel_id}")
    return Channel(platform="discord", id=f"@me/{channel_id}", direct=True)


def inbound(interaction: Mapping[str, Any], parsed: Parsed) -> InboundMessage:
    return InboundMessage(
        sender=sender(interaction),
        channel=channel(interaction),
        text=parsed.line,
        message_id=f"interaction:{interaction.get('id')}",
        prefixed=False,
        sync_reply=True,
    )


def is_private(reply: Reply) -> bool:
    """Private replies, and mistakes (nobody else needs to read those), are ephemeral."""
    return reply.private or reply.error is not None


def group(replies: Sequence[Reply]) -> list[tuple[str, bool]]:
    """Replies as messages: consecutive replies of the same privacy joined while they fit in one."""
    messages: list[tuple[str, bool]] = []
    for reply in replies:
        private = is_private(reply)
        if messages and messages[-1][1] == private:
            joined = f"{messages[-1][0]}\n{reply.text}"
            if len(render.escape(joined)) <= render.CONTENT:
                messages[-1] = (joined, private)
                continue
        messages.append((reply.text, private))
    return messages


def message_response(text: str, private: bool) -> dict[str, Any]:
    return {"type": CHANNEL_MESSAGE, "data": render.text_message(text, private=private)}


def deferral(private: bool) -> dict[str, Any]:
    return {"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": render.EPHEMERAL} if private else {}}
