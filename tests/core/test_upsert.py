"""Get-or-create and write-whole for small state rows, from two processes at once (D12)."""

from __future__ import annotations

import asyncio

import pytest

from adapters.matrix.state import VaultState
from gateway.core.adapter_state import AdapterState
from gateway.testing import start_chat
from gateway.vault import Vault


async def test_two_processes_create_and_write_one_row_at_once(vault_url: str) -> None:
    if vault_url.startswith("sqlite"):
        # Two vaults on one SQLite file in one event loop would block it on the file lock; SQLite
        # gateways share a vault only one process at a time.
        pytest.skip("two processes on one vault: PostgreSQL")
    first = await start_chat(vault_url)
    second = await start_chat(vault_url)
    try:
        vaults = (first.services.vault, second.services.vault)

        async def create(vault: Vault, n: int) -> tuple[dict[str, object], bool]:
            async with vault.unit() as unit:
                value, created = await AdapterState(vault, "test").locked("k", {"n": n}, db=unit)
                await asyncio.sleep(0.05)  # hold the lock: the other waits, then sees this row
                return value, created

        results = await asyncio.gather(*(create(v, n) for n, v in enumerate(vaults)))
        assert sorted(created for _, created in results) == [False, True]
        assert results[0][0] == results[1][0]

        # Matrix state: a put from each process on a fresh key, and one stored nonce for both.
        states = [VaultState(v, "matrix:test") for v in vaults]
        await asyncio.gather(*(s.put("sync", {"n": n}) for n, s in enumerate(states)))
        assert (await states[0].get("sync")) in ({"n": 0}, {"n": 1})
        nonces = await asyncio.gather(
            *(s.put_missing("txn_nonce", {"value": n}) for n, s in enumerate(states))
        )
        assert nonces[0] == nonces[1]
    finally:
        await second.gateway.stop()
        await first.gateway.stop()
