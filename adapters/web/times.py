"""Times on pages: in ``[gateway] timezone`` with the zone named ("2026-12-01 21:14 PST"), inside
a ``<time>`` element whose ``datetime`` is the same moment in ISO 8601 with its offset."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape


@cache
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def shown(moment: datetime, zone: str, seconds: bool = False) -> str:
    """The moment as the page shows it, in ``zone``, the zone's abbreviation after it."""
    local = moment.astimezone(_zone(zone))
    return local.strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z")


def machine(moment: datetime, zone: str) -> str:
    """The ``datetime`` attribute: ISO 8601 in ``zone``, with its offset."""
    return moment.astimezone(_zone(zone)).isoformat(timespec="seconds")


def time_element(moment: datetime, zone: str, seconds: bool = False) -> Markup:
    """The date and the time-and-zone each kept whole (a narrow table cell breaks between them)."""
    day, _, clock = shown(moment, zone, seconds).partition(" ")
    return Markup('<time datetime="{}"><span>{}</span> <span>{}</span></time>').format(
        escape(machine(moment, zone)), escape(day), escape(clock)
    )
