"""What an outbox row carries: one typed shape per ``kind`` the core and the rule systems queue.

An adapter's ``deliver`` reads ``outbound.payload``; these are the kinds every adapter should expect,
each with the fields it can rely on. ``text`` is always there and is what a platform with nothing
richer shows. An adapter may queue kinds of its own for itself (Discord's ``followup``, Second Life's
``refresh``); those are its business and are typed where it builds them.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from gateway.core.summary import SheetSummary
from gateway.core.types import Reply


class ReplyPayload(TypedDict):
    """An answer to a command, for a platform that answers asynchronously, or a note to another
    channel (``recipient`` None)."""

    kind: Literal["reply"]
    text: str
    private: bool
    error: str | None
    result: dict[str, Any] | None
    recipient: str | None  # the platform id of the person it answers
    recipient_name: NotRequired[str]
    reply_to: NotRequired[str | None]  # the platform message id it answers, to thread under


class StlogPayload(TypedDict):
    """A Storyteller-log line (already recorded in the vault), for one Storyteller target."""

    kind: Literal["stlog"]
    text: str
    stlog_kind: str  # "roll", "edit", "announce", ...
    who: str
    where: str  # the channel key it happened in
    result: dict[str, Any]


class BroadcastPayload(TypedDict):
    """A Storyteller's announcement or emote, for every channel of the chronicle."""

    kind: Literal["announce", "emote"]
    text: str
    who: str
    where: str


ExportReason = Literal["approve", "export", "sync"]


class SheetPayload(TypedDict):
    """A finished sheet for a sheet-export target (``[nightcap] sheet_export``): ``summary`` is the
    rule system's ``SheetSummary.as_json()``, what an adapter draws; ``sheet`` the system's own dict."""

    kind: Literal["sheet"]
    text: str
    sheet: dict[str, Any]
    summary: dict[str, Any]
    owner: str | None
    reason: ExportReason
    character_id: int | None


Payload = ReplyPayload | StlogPayload | BroadcastPayload | SheetPayload


def reply_payload(
    reply: Reply,
    *,
    recipient: str | None,
    recipient_name: str | None = None,
    reply_to: str | None = None,
) -> ReplyPayload:
    payload: ReplyPayload = {
        "kind": "reply",
        "text": reply.text,
        "private": reply.private,
        "error": reply.error,
        "result": reply.result,
        "recipient": recipient,
    }
    if recipient_name is not None:
        payload["recipient_name"] = recipient_name
        payload["reply_to"] = reply_to
    return payload


def stlog_payload(
    text: str, *, stlog_kind: str, who: str, where: str, result: dict[str, Any]
) -> StlogPayload:
    return {
        "kind": "stlog",
        "text": text,
        "stlog_kind": stlog_kind,
        "who": who,
        "where": where,
        "result": result,
    }


def broadcast_payload(
    kind: Literal["announce", "emote"], text: str, *, who: str, where: str
) -> BroadcastPayload:
    return {"kind": kind, "text": text, "who": who, "where": where}


def sheet_payload(
    text: str,
    sheet: dict[str, Any],
    *,
    summary: SheetSummary,
    owner: str | None,
    reason: Literal["approve", "export", "sync"],
    character_id: int | None,
) -> SheetPayload:
    return {
        "kind": "sheet",
        "text": text,
        "sheet": sheet,
        "summary": summary.as_json(),
        "owner": owner,
        "reason": reason,
        "character_id": character_id,
    }
