"""Queue one outbox row straight into the vault and wait until the adapter has tried it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.vault import repo
from gateway.vault.models import OutboxRow
from tests.matrix.conftest import MatrixUser, Running


async def queue_and_try(
    running: Running,
    user: MatrixUser,
    target: str,
    text: str,
    until: Callable[[OutboxRow], bool] = lambda row: row.status != "pending",
) -> OutboxRow:
    """A Storyteller-log row for ``target``; syncs ``user`` (so the homeserver moves on) until ``until``
    holds for the row, then returns it."""
    payload: dict[str, Any] = {"text": text, "kind": "stlog"}
    async with running.gateway.services.vault.transaction() as session:
        await repo.enqueue(session, "matrix", target, payload)
    running.gateway.outbox.wake()
    while not until((await running.outbox())[-1]):
        await user.sync_once(200)
    return (await running.outbox())[-1]
