"""An odds reply's chart as a PNG for an adapter: drawn in the offload pool (Pillow's drawing is
C, but a process keeps even its Python glue off the loop's GIL), kept in a small per-process cache
keyed by the chart's content and the font setting, so a repeated ``odds`` or a retried delivery
draws nothing again."""

from __future__ import annotations

import hashlib
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import structlog

from gateway.rules.charts.draw import Drawn, NoFont, render
from gateway.rules.charts.model import chart_from_result

if TYPE_CHECKING:
    from gateway.core.services import AdapterServices

log = structlog.get_logger(__name__)

CACHE = 64  # pictures kept per process (about 10-20 KB each)


@dataclass(frozen=True)
class Picture:
    """A PNG to send: its bytes, size in pixels, and a file name."""

    png: bytes
    width: int
    height: int
    filename: str = "odds.png"
    mimetype: str = "image/png"


class Pictures:
    def __init__(self) -> None:
        self.cache: OrderedDict[bytes, Picture] = OrderedDict()
        self.no_font: str | None = None  # why there is no picture, logged once

    def get(self, key: bytes) -> Picture | None:
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
        return found

    def put(self, key: bytes, value: Picture) -> None:
        self.cache[key] = value
        if len(self.cache) > CACHE:
            self.cache.popitem(last=False)


# Per running gateway (tests run several in one process), gone with it.
_BY_SERVICES: weakref.WeakKeyDictionary[object, Pictures] = weakref.WeakKeyDictionary()


def _pictures(services: AdapterServices) -> Pictures:
    found = _BY_SERVICES.get(services)
    if found is None:
        found = _BY_SERVICES[services] = Pictures()
    return found


def chart_font(services: AdapterServices) -> str | None:
    return services.settings.gateway.chart_font


async def picture(services: AdapterServices, result: Mapping[str, Any] | None) -> Picture | None:
    """The PNG of ``result["chart"]``, or None: no chart, no font with its letters (said once in the
    log and in ``gateway status``), or the drawing failed or ran past the offload bound (the reply
    is then sent without it)."""
    chart = chart_from_result(result)
    if chart is None:
        return None
    font = chart_font(services)
    pictures = _pictures(services)
    key = hashlib.sha256(orjson.dumps([font, result.get("chart") if result else None])).digest()
    found = pictures.get(key)
    if found is not None:
        return found
    try:
        drawn = await services.offload.run(render, chart, font)
    except Exception as exc:  # a missing picture must never lose the reply
        log.warning("odds picture not drawn", error=f"{type(exc).__name__}: {exc}"[:200])
        return None
    if isinstance(drawn, NoFont):
        if pictures.no_font != drawn.reason:
            pictures.no_font = drawn.reason
            log.warning("odds pictures are off: no font", reason=drawn.reason)
        return None
    assert isinstance(drawn, Drawn)
    made = Picture(drawn.png, drawn.width, drawn.height)
    pictures.put(key, made)
    return made
