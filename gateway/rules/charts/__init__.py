"""Odds as pictures for chat platforms that show them (a Discord embed's image, a Matrix ``m.image``).

A rule system's ``odds`` reply carries a platform-neutral chart in its result (``chart_result``:
a title and panels of labelled bars with their exact probabilities, in the reader's language); an
adapter asks ``picture(services, result)`` for its PNG and only sends it. Drawing (Pillow) runs in the
offload pool, with a small cache keyed by the chart's content; without a font that has the chart's
letters there is no picture, and the text (and its link) stay as they are."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# name -> its module. Loaded on first use (PEP 562): ``gateway status`` checks the font
# (``gateway.rules.charts.fonts``) without importing the drawing and its logging.
_EXPORTS = {
    "Bar": "gateway.rules.charts.model",
    "Chart": "gateway.rules.charts.model",
    "Panel": "gateway.rules.charts.model",
    "chart_from_result": "gateway.rules.charts.model",
    "chart_result": "gateway.rules.charts.model",
    "contest_chart": "gateway.rules.charts.contest",
    "Picture": "gateway.rules.charts.pictures",
    "picture": "gateway.rules.charts.pictures",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gateway.rules.charts' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from gateway.rules.charts.contest import contest_chart as contest_chart
    from gateway.rules.charts.model import Bar as Bar
    from gateway.rules.charts.model import Chart as Chart
    from gateway.rules.charts.model import Panel as Panel
    from gateway.rules.charts.model import chart_from_result as chart_from_result
    from gateway.rules.charts.model import chart_result as chart_result
    from gateway.rules.charts.pictures import Picture as Picture
    from gateway.rules.charts.pictures import picture as picture
