"""From an interaction payload to a neutral message, and from replies to an interaction response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adapters.discord import render
from adapters.discord.slash import Parsed
from gateway import Channel, Identity, InboundMessage, Reply

PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
MESSAGE_COMPONENT = 3  # a click on a button of ours (see components.py)
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, AUTOCOMPLETE_RESULT = 1, 4, 5, 8

# The fields this adapter reads, with the JSON types each may have (None: absent or null). A signed
# payload is still only as well formed as the sender made it: checking the shape once, here, keeps
# every ``.get`` below from meeting a string where it expects an object.
_ID = (str, int)
_SHAPE: dict[str, tuple[type, ...]] = {
    "id": _ID,
    "application_id": _ID,
    "token": (str,),
    "channel_id": _ID,
    "guild_id": _ID,
    "channel": (dict,),
    "member": (dict,),
    "user": (dict,),
    "data": (dict,),
}
_USER: dict[str, tuple[type, ...]] = {"id": _ID, "global_name": (str,), "username": (str,)}
_OPTION_VALUE = (str, int, float, bool)
_MAX_OPTION_DEPTH = 3  # a subcommand group, its subcommand, that subcommand's options


def _fits(obj: Mapping[str, Any], shape: Mapping[str, tuple[type, ...]]) -> bool:
    return all(obj.get(key) is None or isinstance(obj[key], types) for key, types in shape.items())


def _options_fit(options: Any, depth: int = 0) -> bool:
    if options is None:
        return True
    if not isinstance(options, list) or depth >= _MAX_OPTION_DEPTH:
        return False
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name", ""), str):
            return False
        if "value" in option and not isinstance(option["value"], _OPTION_VALUE):
            return False
        if not isinstance(option.get("type", 0), int) or not _options_fit(option.get("options"), depth + 1):
            return False
    return True


def malformed(interaction: Any) -> str | None:
    """Why ``interaction`` is no interaction this adapter can read, or None when it is one."""
    if not isinstance(interaction, dict):
        return "an interaction is a JSON object"
    kind = interaction.get("type")
    if not isinstance(kind, int) or isinstance(kind, bool):
        return '"type" must be an integer'
    if not _fits(interaction, _SHAPE):
        return "an interaction field has the wrong type"
    member = interaction.get("member") or {}
    if not isinstance(member.get("nick") or "", str) or not isinstance(
        (interaction.get("channel") or {}).get("id") or "", _ID
    ):
        return "an interaction field has the wrong type"
    for user in (member.get("user"), interaction.get("user")):
        if user is not None and not (isinstance(user, dict) and _fits(user, _USER)):
            return '"user" is no Discord user'
    data = interaction.get("data") or {}
    if not isinstance(data.get("name", ""), str) or not _options_fit(data.get("options")):
        return '"data" is no application command'
    return None


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


def locale(interaction: Mapping[str, Any]) -> str | None:
    """The user's Discord client language as the gateway's locale (``cs``, ``ru``, ``en``), else None."""
    code = str(interaction.get("locale") or "").split("-")[0].casefold()
    return code if code in ("cs", "ru", "en") else None


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


def autocomplete_response(choices: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """AUTOCOMPLETE_RESULT (type 8): the only answer to an autocomplete, at most 25 choices."""
    return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": [dict(c) for c in choices[:25]]}}


def custom_id(interaction: Mapping[str, Any]) -> str | None:
    """The ``custom_id`` of the component a MESSAGE_COMPONENT interaction is about (a string, or None)."""
    value = (interaction.get("data") or {}).get("custom_id")
    return value if isinstance(value, str) else None
