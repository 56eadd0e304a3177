"""Small durable state of one Matrix account in the vault's ``kv`` table.

Keys in scope ``matrix:<account>``: ``session`` (user id, homeserver, access token, device id),
``sync`` (the ``next_batch`` token), ``dm:<user id>`` (the direct room with that user), ``left:<room id>``
(a room the bot was kicked or banned from). Scope ``matrix``, key ``txn_nonce``: a random tag of this
vault, part of every transaction id, so a fresh vault never reuses an old vault's ids on a device.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from gateway.vault import Vault, repo
from gateway.vault.models import KeyValue, utcnow


class VaultState:
    def __init__(self, vault: Vault, scope: str) -> None:
        self.vault = vault
        self.scope = scope

    async def get(self, key: str) -> dict[str, Any] | None:
        async with self.vault.transaction() as session:
            row = await session.get(KeyValue, (self.scope, key))
            return dict(row.value) if row is not None else None

    async def put(self, key: str, value: dict[str, Any]) -> None:
        # One upsert: get-then-insert lets two processes sharing a PostgreSQL vault both insert.
        values = {"scope": self.scope, "key": key, "value": dict(value), "updated_at": utcnow()}
        async with self.vault.transaction() as session:
            await repo.upsert(session, KeyValue, values)

    async def put_missing(self, key: str, value: dict[str, Any]) -> dict[str, Any]:
        """Store ``value`` unless the key has one; the stored value (another process's, if it won)."""
        values = {"scope": self.scope, "key": key, "value": dict(value), "updated_at": utcnow()}
        async with self.vault.transaction() as session:
            row, _ = await repo.locked_or_created(session, KeyValue, values)
            return dict(row.value)

    async def delete(self, key: str) -> None:
        async with self.vault.transaction() as session:
            row = await session.get(KeyValue, (self.scope, key))
            if row is not None:
                await session.delete(row)

    async def with_prefix(self, prefix: str) -> dict[str, dict[str, Any]]:
        """Every key starting with ``prefix`` (the prefix removed) and its value."""
        async with self.vault.transaction() as session:
            rows = await session.exec(
                select(KeyValue).where(
                    col(KeyValue.scope) == self.scope, col(KeyValue.key).startswith(prefix, autoescape=True)
                )
            )
            return {row.key[len(prefix) :]: dict(row.value) for row in rows.all()}
