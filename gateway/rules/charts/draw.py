"""A chart as a PNG (Pillow), in an offload worker: one labelled horizontal bar per row with its
percentage beside it, a panel per group of bars, under the chart's title. Pure: the same chart and
font give the same bytes."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from gateway.rules.charts import fonts
from gateway.rules.charts.model import Chart

WIDTH = 640
PAD = 16
ROW = 28
BAR = 18
TITLE_SIZE = 20
PANEL_SIZE = 16
TEXT_SIZE = 14
BACKGROUND = (255, 255, 255)
INK = (32, 34, 37)
TRACK = (235, 236, 240)
# One colour per panel (a contest's second side differs from the first).
COLOURS = ((88, 101, 242), (237, 66, 69), (59, 165, 93), (250, 166, 26), (155, 89, 182), (52, 152, 219))


@dataclass(frozen=True)
class Drawn:
    png: bytes
    width: int
    height: int


@dataclass(frozen=True)
class NoFont:
    reason: str


def percent(p: float) -> str:
    """As the web chart writes it: ``<0.1%`` for a share that rounds to nothing, never 0% or 100% for
    what is not."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def render(chart: Chart, configured_font: str | None) -> Drawn | NoFont:
    path, why = fonts.find(configured_font, chart.text())
    if path is None:
        return NoFont(why)
    title_font = fonts.load(path, TITLE_SIZE)
    panel_font = fonts.load(path, PANEL_SIZE)
    text_font = fonts.load(path, TEXT_SIZE)
    labels = [bar.label for panel in chart.panels for bar in panel.bars]
    label_width = min(220, math.ceil(max((text_font.getlength(label) for label in labels), default=0)) + 12)
    number_width = int(text_font.getlength(">99.9%")) + 8
    bar_left = PAD + label_width
    bar_width = WIDTH - bar_left - number_width - PAD
    height = PAD + (TITLE_SIZE + 12 if chart.title else 0)
    for panel in chart.panels:
        height += (PANEL_SIZE + 10 if panel.title else 0) + ROW * len(panel.bars) + 10
    height += PAD - 10
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = PAD
    if chart.title:
        draw.text((PAD, y), _fit(chart.title, title_font, WIDTH - 2 * PAD), font=title_font, fill=INK)
        y += TITLE_SIZE + 12
    for index, panel in enumerate(chart.panels):
        colour = COLOURS[index % len(COLOURS)]
        if panel.title:
            draw.text((PAD, y), _fit(panel.title, panel_font, WIDTH - 2 * PAD), font=panel_font, fill=INK)
            y += PANEL_SIZE + 10
        for bar in panel.bars:
            top = y + (ROW - BAR) // 2
            middle = y + ROW // 2
            draw.text(
                (PAD, middle),
                _fit(bar.label, text_font, label_width - 12),
                font=text_font,
                fill=INK,
                anchor="lm",
            )
            draw.rectangle((bar_left, top, bar_left + bar_width, top + BAR), fill=TRACK)
            filled = round(bar_width * bar.probability)
            if bar.probability > 0:
                filled = max(filled, 1)  # a non-zero share is never drawn as nothing
            if filled:
                draw.rectangle((bar_left, top, bar_left + filled - 1, top + BAR), fill=colour)
            draw.text(
                (bar_left + bar_width + 8, middle),
                percent(bar.probability),
                font=text_font,
                fill=INK,
                anchor="lm",
            )
            y += ROW
        y += 10
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False, compress_level=6)
    return Drawn(out.getvalue(), WIDTH, height)


def _fit(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels."""
    length = font.getlength
    if length(text) <= width:
        return text
    while text and length(text + "…") > width:
        text = text[:-1]
    return text + "…"
