"""The daily check-in (RULINGS, "Daily check-in"). Pure: the time comes in, nothing reads a clock.

A check-in day is a calendar day in the chronicle's time zone (default America/Los_Angeles, Second Life
time); the next one opens at the following local midnight. The Spirit roll's total is the Essence
regained (nothing below 1), plus 1 Willpower whatever the dice do; the caller caps both at the maximum.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def checkin_day(now: datetime, zone: str) -> date:
    """The local calendar day ``now`` (an aware datetime) falls on in ``zone``."""
    if now.tzinfo is None:
        raise ValueError("checkin_day needs an aware datetime")
    return now.astimezone(ZoneInfo(zone)).date()


def next_opening(now: datetime, zone: str) -> datetime:
    """The first instant (in UTC) of the local day after ``now``'s: when the next check-in opens.

    Local midnight is built with ``fold=0``: where a zone skips midnight (a spring-forward at 00:00) that
    is the transition instant itself, which is the new day's first moment.
    """
    tz = ZoneInfo(zone)
    tomorrow = checkin_day(now, zone) + timedelta(days=1)
    return datetime.combine(tomorrow, time(0), tzinfo=tz).astimezone(UTC)


def gains(total: int) -> tuple[int, int]:
    """(Essence, Willpower) a check-in regains before capping: Essence = successes, at least 0; 1 WP."""
    return max(0, total), 1


def wait_text(now: datetime, until: datetime) -> str:
    """``4 h 5 min`` (rounded up to the minute), for 'the next check-in opens in ...'."""
    minutes = max(0, -(-int((until - now).total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"
