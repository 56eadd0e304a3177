"""Token buckets every gateway process on the vault shares (a Second Life object's inbound limit).

A bucket is a row of ``rate_bucket`` (key, tokens, updated_at), refilled and spent by ONE upsert on the
database's clock, so a limit holds whichever process serves the request and whatever the processes'
clocks say::

    INSERT INTO rate_bucket VALUES (:key, :burst - 1, <now>)
    ON CONFLICT (key) DO UPDATE SET
        tokens = LEAST(:burst, <balance> + :rate * <seconds since updated_at>) - 1, updated_at = <now>
    RETURNING tokens

A result of 0 or more means a token was spent. Below 0 there was none: the stored ``tokens - 1`` then
records the refilled balance (``tokens + 1``, under one token) and nothing is spent, as with
``gateway.delivery.pacing.TokenBucket``; the wait is ``-tokens / rate``. So ``<balance>`` is ``tokens`` when
it
is 0 or more and ``tokens + 1`` otherwise, and the stored value never goes below -1. On PostgreSQL the
row lock serialises concurrent takes of one key; on SQLite the vault's write lock does.

A row untouched for ``burst / rate`` seconds is a full bucket, the same as no row: ``prune`` deletes
such rows.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import Float, text

from gateway.vault.columns import SQLITE_NOW, sqlite_now_shifted
from gateway.vault.engine import Vault
from gateway.vault.prepared import Prepared

__all__ = ["SharedBuckets"]

_BALANCE = "(CASE WHEN rate_bucket.tokens < 0 THEN rate_bucket.tokens + 1 ELSE rate_bucket.tokens END)"
# asyncpg types a parameter from its context: ``:burst - 1`` would make it an integer.
_PG_BURST, _PG_RATE = "CAST(:burst AS float8)", "CAST(:rate AS float8)"
_PG_ELAPSED = "GREATEST(0, EXTRACT(EPOCH FROM EXCLUDED.updated_at - rate_bucket.updated_at)::float8)"
_SQLITE_ELAPSED = "max(0, 86400.0 * (julianday(excluded.updated_at) - julianday(rate_bucket.updated_at)))"


def _take(now: str, least: str, burst: str, rate: str, elapsed: str) -> Prepared:
    return Prepared(
        text(
            f"""
            INSERT INTO rate_bucket (key, tokens, updated_at) VALUES (:key, {burst} - 1, {now})
            ON CONFLICT (key) DO UPDATE SET
                tokens = {least}({burst}, {_BALANCE} + {rate} * {elapsed}) - 1,
                updated_at = excluded.updated_at
            RETURNING tokens
            """
        ).columns(tokens=Float())
    )


TAKE = {
    "postgresql": _take("clock_timestamp()", "LEAST", _PG_BURST, _PG_RATE, _PG_ELAPSED),
    "sqlite": _take(SQLITE_NOW, "min", ":burst", ":rate", _SQLITE_ELAPSED),
}
# Keys compared as a prefix with substr, not LIKE: object keys may hold ``_``.
_PRUNE = "DELETE FROM rate_bucket WHERE substr(key, 1, length(:prefix)) = :prefix AND updated_at < "
PRUNE = {
    "postgresql": Prepared(text(_PRUNE + "clock_timestamp() - make_interval(secs => :keep)")),
    "sqlite": Prepared(text(_PRUNE + sqlite_now_shifted(":shift"))),
}


class SharedBuckets:
    """One shared token bucket per key under ``prefix`` (``"secondlife:"``): ``burst`` tokens, refilled
    at ``rate`` a second."""

    def __init__(self, vault: Vault, burst: float, rate: float, *, prefix: str = "") -> None:
        if burst < 1 or not 0 < rate < math.inf:
            raise ValueError("burst must be >= 1 and rate a finite number > 0")
        self.vault, self.burst, self.rate, self.prefix = vault, float(burst), float(rate), prefix

    async def take(self, key: str) -> float | None:
        """Spend a token of ``key``'s bucket and return None, or return the seconds until there is one
        (spending nothing)."""
        params = {"key": self.prefix + key, "burst": self.burst, "rate": self.rate}
        async with self.vault.unit() as unit:
            row = await unit.first(TAKE[unit.dialect], params)
        assert row is not None  # an upsert's RETURNING always has its row
        tokens = float(row[0])
        return None if tokens >= 0 else -tokens / self.rate

    def idle_seconds(self) -> float:
        """How long a bucket left alone takes to be full again (its row then says nothing)."""
        return self.burst / self.rate

    async def prune(self, idle_seconds: float | None = None) -> int:
        """Delete the rows of this prefix untouched for ``idle_seconds`` (at least the time to refill);
        how many went."""
        keep = max(idle_seconds or 0.0, self.idle_seconds())
        params: dict[str, Any] = {"prefix": self.prefix}
        async with self.vault.unit() as unit:
            if unit.dialect == "sqlite":
                params["shift"] = f"-{keep:.3f} seconds"
            else:
                params["keep"] = keep
            return await unit.execute(PRUNE[unit.dialect], params)
