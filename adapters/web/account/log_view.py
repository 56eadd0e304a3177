"""How the Storyteller log is looked at: its filters (a character, a kind, a platform), its grouping (by
hour in the viewer's time zone, or by table and scene) and that zone, all read from the URL, so a view
is a link that works without script. The live stream keeps to the same view: a row that does not
match is never sent, and each row sent names the group it belongs under.

A scene is what the vault knows of one: the lines of one channel up to its ``scene end`` (``* * *``,
written to the log as a ``scene_end`` line by the systems that mark scenes). A channel that never
marks one is a single group."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Generic, TypeVar
from urllib.parse import urlencode
from zoneinfo import ZoneInfo, available_timezones

from adapters.web.people import platform_label

KINDS = ("rolls", "lines")
GROUPINGS = ("hour", "scene")
SCENE_END = "scene_end"
T = TypeVar("T")


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def channel_label(channel_key: str, locale: str) -> str:
    """A channel as people read it: ``bench · Terminal``, ``#table · IRC``."""
    platform, _, target = channel_key.partition(":")
    return f"{target or channel_key} · {platform_label(platform, locale)}"


@dataclass(frozen=True)
class LogView:
    character_id: int | None = None
    kind: str = ""  # "", "rolls" or "lines"
    platform: str = ""
    grouping: str = "hour"
    zone: str = "UTC"

    @classmethod
    def of(cls, query: Mapping[str, str], default_zone: str) -> LogView:
        """The view a URL asks for; anything unknown is the default (a view is never an error)."""
        character = query.get("character", "")
        kind = query.get("kind", "")
        grouping = query.get("group", "")
        zone = query.get("tz", "")
        return cls(
            character_id=int(character) if character.isdigit() and len(character) < 19 else None,
            kind=kind if kind in KINDS else "",
            platform=query.get("platform", "")[:40],
            grouping=grouping if grouping in GROUPINGS else "hour",
            zone=zone if zone in _zones() else default_zone,
        )

    def admits(self, *, is_roll: bool, channel_key: str, character_id: int | None) -> bool:
        """Whether a row is in this view."""
        return (
            (not self.kind or (self.kind == "rolls") == is_roll)
            and (not self.platform or channel_key.partition(":")[0] == self.platform)
            and (self.character_id is None or character_id == self.character_id)
        )

    def stream_query(self) -> str:
        """The live stream's query for this view (``?kind=rolls&tz=Europe%2FPrague``)."""
        values = {
            "character": "" if self.character_id is None else str(self.character_id),
            "kind": self.kind,
            "platform": self.platform,
            "group": "" if self.grouping == "hour" else self.grouping,
            "tz": self.zone,
        }
        shown = {key: value for key, value in values.items() if value}
        return "?" + urlencode(shown) if shown else ""

    def hour(self, moment: datetime) -> tuple[str, str]:
        """The hour a moment falls in, in the view's zone: a key (its start with the offset, so the
        hour repeated when clocks go back is a group of its own) and its heading."""
        start = moment.astimezone(ZoneInfo(self.zone)).replace(minute=0, second=0, microsecond=0)
        end = (start + timedelta(hours=1)).strftime("%H:%M")
        return start.isoformat(), f"{start:%Y-%m-%d %H:%M}–{end} {start:%Z}"


@dataclass
class Group(Generic[T]):
    key: str
    heading: str
    channel: str  # the channel of a scene ("" for an hour)
    ended: bool  # a scene whose end is in the log
    rows: list[T]


def grouped(view: LogView, rows: Iterable[tuple[T, datetime, str, str]], locale: str) -> list[Group[T]]:
    """Rows given oldest first as (row, moment, channel key, kind) in their groups, newest group
    first and newest row first in each, as the live log adds them at the top."""
    groups: dict[str, Group[T]] = {}
    scenes: dict[str, int] = {}  # a channel's scenes ended so far
    for row, moment, channel, kind in rows:
        if view.grouping == "scene":
            key = f"{channel}#{scenes.get(channel, 0)}"
            group = groups.get(key) or Group(key, channel_label(channel, locale), channel, False, [])
            if kind == SCENE_END:
                scenes[channel] = scenes.get(channel, 0) + 1
                group.ended = True
        else:
            key, heading = view.hour(moment)
            group = groups.get(key) or Group(key, heading, "", False, [])
        group.rows.append(row)
        groups.pop(key, None)
        groups[key] = group  # the group with the newest row goes last
    ordered = list(reversed(groups.values()))
    for group in ordered:
        group.rows.reverse()
    return ordered
