"""Decanter's extended actions as pure rules: the summary a result carries and the reply built from it
(the handlers are ``extended_commands.py``)."""

from __future__ import annotations

from typing import Any

from gateway import Reply
from plugins.decanter.mechanics import SYSTEM


def summary(extended: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": extended["id"],
        "dc": extended["dc"],
        "multiplier": extended["multiplier"],
        "target": extended["target"],
        "roll": len(extended["rolls"]),
        "rolls": list(extended["rolls"]),
        "total": extended["total"],
        "done": bool(extended.get("done")),
        "outcome": extended.get("outcome"),
    }


def ext_reply(text: str, data: dict[str, Any] | None) -> Reply:
    contest = summary(data) if data is not None else None
    return Reply(text=text, result={"kind": "extended", "system": SYSTEM, "contest": contest})
