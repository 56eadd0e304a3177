"""Odds as pictures for chat platforms that show them (a Discord embed's image, a Matrix ``m.image``).

A rule system's ``odds`` reply carries a platform-neutral chart in its result (``chart_result``:
a title and panels of labelled bars with their exact probabilities, in the reader's language); an
adapter asks ``picture(services, result)`` for its PNG and only sends it. Drawing (Pillow) runs in the
offload pool, with a small cache keyed by the chart's content; without a font that has the chart's
letters there is no picture, and the text (and its link) stay as they are."""

from gateway.charts.contest import contest_chart
from gateway.charts.model import Bar, Chart, Panel, chart_from_result, chart_result
from gateway.charts.pictures import Picture, picture

__all__ = [
    "Bar",
    "Chart",
    "Panel",
    "Picture",
    "chart_from_result",
    "chart_result",
    "contest_chart",
    "picture",
]
