"""The one reader of ``--since`` values (``st log``, ``st history``, ``stats``, the web's Storyteller
log): a time back from now, a day, or a moment, in the gateway's time zone."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from gateway.core.core_messages import say
from gateway.core.errors import UserError

RELATIVE = re.compile(r"^([0-9]{1,5})\s*(m|min|h|d|w)$")
UNITS = {"m": "minutes", "min": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, now: datetime, zone: str, locale: str = "en") -> datetime:
    """``--since`` values: ``30m``, ``2h``, ``3d``, ``1w`` back from now; ``today``, ``yesterday``;
    ``2026-11-30`` (local midnight) or ``2026-11-30T18:00`` (local time, or with its own UTC offset)."""
    folded = text.strip().casefold()
    tz = ZoneInfo(zone)
    relative = RELATIVE.match(folded)
    if relative:
        return now - timedelta(**{UNITS[relative.group(2)]: int(relative.group(1))})
    if folded in ("today", "yesterday"):
        day = now.astimezone(tz).date() - timedelta(days=1 if folded == "yesterday" else 0)
        return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)
    try:
        if len(folded) == 10:
            return datetime.combine(date.fromisoformat(folded), time(0), tzinfo=tz).astimezone(UTC)
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UserError(say(locale, "st.since", text=text[:40])) from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=tz)).astimezone(UTC)
