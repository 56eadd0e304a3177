"""Each running gateway's row in ``gateway_process``, for ``gateway status``.

Every ``[cluster] failover_seconds / 3`` the process writes its row (id = its lease owner name) with
``seen_at`` on the database's clock, and ``state``: the heartbeat interval, the leases it holds and
each adapter's ``status()``. A clean stop deletes the row; a process that died leaves it, and
``gateway status`` shows it as gone once it is older than two intervals. Rows not seen for an hour
are deleted by whichever process beats next.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy import JSON, bindparam, text

from gateway import __version__
from gateway.vault.columns import DB_NOW, sqlite_now_shifted
from gateway.vault.prepared import Prepared

if TYPE_CHECKING:
    from gateway.core.adapter import Adapter
    from gateway.core.services import Services

log = structlog.get_logger(__name__)

KEEP_GONE_SECONDS = 3600  # rows of processes not seen for this long are deleted

_PRUNE_BEFORE = {
    "postgresql": f"clock_timestamp() - make_interval(secs => {KEEP_GONE_SECONDS})",
    "sqlite": sqlite_now_shifted(f"'-{KEEP_GONE_SECONDS} seconds'"),
}
BEAT = {
    dialect: Prepared(
        text(
            f"""
            INSERT INTO gateway_process (id, host, pid, version, started_at, seen_at, state)
            VALUES (:id, :host, :pid, :version, {now}, {now}, :state)
            ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, state = excluded.state
            """
        ).bindparams(bindparam("state", type_=JSON()))
    )
    for dialect, now in DB_NOW.items()
}
PRUNE = {
    dialect: Prepared(text(f"DELETE FROM gateway_process WHERE seen_at < {before}"))
    for dialect, before in _PRUNE_BEFORE.items()
}
FORGET = Prepared(text("DELETE FROM gateway_process WHERE id = :id"))


def adapter_states(adapters: Mapping[str, Adapter]) -> dict[str, Any]:
    """Each adapter's ``status()``; one that fails says so instead of stopping the heartbeat."""
    states: dict[str, Any] = {}
    for platform, adapter in adapters.items():
        try:
            states[platform] = adapter.status()
        except Exception as exc:
            states[platform] = {"error": repr(exc)[:200]}
    return states


class Heartbeat:
    def __init__(self, services: Services, adapters: Mapping[str, Adapter]) -> None:
        self.services = services
        self.adapters = adapters
        self.id = services.leases.owner
        self.interval = services.settings.cluster.failover_seconds / 3
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    def state(self) -> dict[str, Any]:
        held = dict(self.services.leases.held)
        return {
            "heartbeat_seconds": self.interval,
            "leases": {name: {"epoch": lease.epoch} for name, lease in sorted(held.items())},
            "adapters": adapter_states(self.adapters),
        }

    async def beat(self) -> None:
        """Write this process's row now, and delete the rows of processes long gone."""
        params = {
            "id": self.id,
            "host": socket.gethostname()[:200],
            "pid": os.getpid(),
            "version": __version__,
            "state": self.state(),
        }
        async with self.services.vault.unit() as unit:
            await unit.execute(BEAT[unit.dialect], params)
            await unit.execute(PRUNE[unit.dialect], {})

    async def start(self) -> None:
        await self._beat_logged()
        self._task = asyncio.create_task(self._run(), name="gateway:heartbeat")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        try:
            async with asyncio.timeout(max(1.0, self.interval)):
                async with self.services.vault.unit() as unit:
                    await unit.execute(FORGET, {"id": self.id})
        except Exception as exc:  # it shows as gone, and is pruned in an hour
            log.warning("process row not deleted", error=repr(exc))

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self._beat_logged()

    async def _beat_logged(self) -> None:
        try:
            await self.beat()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self._failing:  # once per outage
                log.warning("process heartbeat failed", error=repr(exc))
            self._failing = True
        else:
            if self._failing:
                log.info("process heartbeat written again")
            self._failing = False
