"""Echo: a tiny platform adapter written as a third party would, against the public adapter API.

The echo platform's users are lines handed to ``EchoAdapter.hear``; what the gateway sends to the
platform (replies, Storyteller-log lines) is appended to a file, one JSON object a line. Configured by
``[echo] path = "echo.jsonl"``; without an ``[echo]`` table the adapter does not run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gateway import (
    Adapter,
    AdapterServices,
    AdapterSpec,
    Channel,
    Identity,
    InboundMessage,
    Outbound,
    Reply,
    RetryLater,
    hookimpl,
)

PLATFORM = "echo"


class EchoAdapter(Adapter):
    platform = PLATFORM

    def __init__(self, services: AdapterServices, path: Path) -> None:
        self.services = services
        self.path = path
        self.last_error: str | None = None  # why the last delivery failed, for an operator to read

    async def hear(self, user: str, text: str, *, room: str = "lobby") -> list[Reply]:
        """``user`` says ``text`` in ``room``, a chat room: only text after the prefix (``!roll 3``) is a
        command, and the replies go out through the outbox."""
        message = InboundMessage(
            sender=Identity(platform=PLATFORM, id=user, display_name=user.title()),
            channel=Channel(platform=PLATFORM, id=room),
            text=text,
            prefixed=True,
            sync_reply=False,
        )
        return await self.services.handle(message)

    async def deliver(self, message: Outbound) -> None:
        line = json.dumps({"room": message.target, "text": message.text, "kind": message.payload.get("kind")})
        try:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(line + "\n")
        except OSError as exc:  # a full disk or a missing folder may pass: the outbox tries again
            self.last_error = f"cannot write {self.path}: {exc}"
            raise RetryLater(self.last_error) from exc
        self.last_error = None


def build(services: AdapterServices, section: dict[str, Any]) -> EchoAdapter | None:
    if not section:
        return None
    return EchoAdapter(services, Path(section.get("path", "echo.jsonl")))


@hookimpl
def gateway_register_adapters(register: Callable[[AdapterSpec], None]) -> None:
    register(AdapterSpec(platform=PLATFORM, build=build))
