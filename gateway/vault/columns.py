"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes everywhere (SQLite would otherwise hand back naive ones)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    # On SQLite the two steps above plus SQLAlchemy's own string conversion, in one call each way:
    # every roll writes and reads several timestamps, and the general path costs several times more.
    def bind_processor(self, dialect: Any) -> Callable[[Any], Any] | None:
        return _to_sqlite if dialect.name == "sqlite" else super().bind_processor(dialect)

    def result_processor(self, dialect: Any, coltype: Any) -> Callable[[Any], Any] | None:
        return _from_sqlite if dialect.name == "sqlite" else super().result_processor(dialect, coltype)


def _to_sqlite(value: datetime | None) -> str | None:
    """The text SQLAlchemy's SQLite ``DATETIME`` stores: ``YYYY-MM-DD HH:MM:SS.ffffff``, in UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    return value.replace(tzinfo=None).isoformat(" ", "microseconds")


def _from_sqlite(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


# The database's own clock, for statements that must not trust the gateway processes' clocks (leases,
# heartbeats, shared rate limits). SQLite's text has milliseconds (``%f``); each column compared with
# it is written only by such statements, and ``UTCDateTime`` reads either form.
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
DB_NOW = {"postgresql": "clock_timestamp()", "sqlite": SQLITE_NOW}


def sqlite_now_shifted(modifier: str) -> str:
    """SQLite's clock moved by a date modifier, given as SQL (``:shift``, ``'-1 seconds'``)."""
    return f"strftime('%Y-%m-%d %H:%M:%f', 'now', {modifier})"
