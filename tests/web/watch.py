"""What the tool and verify page tests look behind: the browser's complaints (a CSP violation, a
script error, an alert a payload raised), every vault table's row count, and chat as a user."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlmodel import SQLModel

from gateway.core.app import Gateway
from gateway.core.types import Channel, Identity, InboundMessage, Reply

XSS = "<img src=x onerror=alert(1)>"


def complaints(page: Any) -> list[str]:
    """Console errors (Chromium reports every CSP violation there), page errors and dialogs, as they
    come, for the test to assert empty at the end."""
    found: list[str] = []

    def console(message: Any) -> None:
        if message.location.get("url", "").endswith("/favicon.ico"):
            return  # the frame's pages (home) have no icon; not a tool page's doing
        if message.type == "error" or "Content Security Policy" in message.text:
            found.append(f"console {message.type}: {message.text}")

    async def dialog(box: Any) -> None:
        found.append(f"dialog: {box.message}")
        await box.dismiss()

    page.on("console", console)
    page.on("pageerror", lambda error: found.append(f"page error: {error}"))
    page.on("dialog", dialog)
    return found


BOOKKEEPING = frozenset({"lease", "gateway_process"})


async def row_counts(gateway: Gateway) -> dict[str, int]:
    """Rows in every table the vault has but the process's own bookkeeping: a lease the background
    work takes for the first time (whenever its worker first wakes) and heartbeats are no one's data."""
    counts: dict[str, int] = {}
    async with gateway.services.vault.transaction() as session:
        for table in SQLModel.metadata.sorted_tables:
            if table.name in BOOKKEEPING:
                continue
            result = await session.exec(select(func.count()).select_from(table))  # type: ignore[call-overload]
            counts[table.name] = int(result.one()[0])
    return counts


async def say(
    gateway: Gateway, text: str, as_: str = "mira", name: str | None = None, st: bool = False
) -> list[Reply]:
    message = InboundMessage(
        roles=frozenset({"storyteller"}) if st else frozenset(),
        sender=Identity(platform="console", id=as_, display_name=name or as_.title(), verified=True),
        channel=Channel(platform="console", id="main"),
        text=text,
    )
    return await gateway.services.handle(message)
