"""The few lines the Matrix adapter says on its own (not replies to a command): a pointer to a private
reply, the refusal of an invite, and why it cannot stay in an encrypted room. Pure functions.

They are in English: they are said before (or without) any command, so no user's language is known."""

from __future__ import annotations

import html
from typing import Any

from adapters.matrix.render import HTML_FORMAT

ENCRYPTED = (
    "I can't read end-to-end encrypted rooms, so I don't answer in this one. To play with me, create a"
    ' room with encryption turned off (in Element: New room, then switch off "Enable end-to-end'
    ' encryption"; it cannot be turned off later) and invite me there.'
)
REFUSED = (
    "Sorry, I can't stay: I only join rooms on invites my operator allows. Ask them to add you to"
    " allowed_inviters, or invite me to a room they have set up."
)
REFUSE_REASON = "This bot only joins on invites it was told to accept."


def notice(text: str, mention: str | None = None, name: str | None = None) -> dict[str, Any]:
    """An ``m.notice``; with ``mention``, it starts with that user's name as a pill and mentions them."""
    body = text
    formatted = html.escape(text, quote=False)
    if mention:
        shown = name or mention
        body = f"{shown}: {text}"
        link = f'<a href="https://matrix.to/#/{html.escape(mention)}">{html.escape(shown, quote=False)}</a>'
        formatted = f"{link}: {formatted}"
    return {
        "msgtype": "m.notice",
        "body": body,
        "format": HTML_FORMAT,
        "formatted_body": formatted,
        "m.mentions": {"user_ids": [mention]} if mention else {},
    }


def pointer(user: str, name: str) -> dict[str, Any]:
    """Left in the room of a command the first time its private reply opened a direct room."""
    text = "I answered you privately, in a direct chat with me: accept its invite to read it."
    return notice(text, user, name)
