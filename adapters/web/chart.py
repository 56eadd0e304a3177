"""Server-rendered SVG bar charts of exact odds: one labelled bar per row, its percentage written
beside it, and the same numbers as a table for screen readers (the SVG is one image to them).

No script and no style attribute (the CSP forbids inline style): colours come from site.css classes
and SVG presentation attributes."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from markupsafe import Markup, escape

from gateway.core.i18n import percent
from gateway.core.web_tool import OddsChart as Chart

# A narrow drawing (labels above their bars), so that it reads at phone width without shrinking the
# text; site.css caps its width on a desktop.
WIDTH = 400
NUMBER = 64  # room for the percentage, right of the longest bar
ROW = 44
BAR = 16


def share(locale: str, p: Fraction) -> str:
    """Exact 0 and 1 as such; tiny non-zero shares as <0.1% so they never read as impossible."""
    if p == 0:
        return percent(locale, 0).replace("0.0", "0").replace("0,0", "0")
    if p == 1:
        return percent(locale, 1).replace("100.0", "100").replace("100,0", "100")
    if p < Fraction(1, 1000):
        return "<" + percent(locale, Fraction(1, 1000))
    if p > Fraction(999, 1000):
        return ">" + percent(locale, Fraction(999, 1000))
    return percent(locale, p)


def svg(chart: Chart, locale: str, chart_id: str) -> Markup:
    """The chart as an inline ``<svg role="img">`` titled by ``chart.title``: per row its label, a
    bar as long as its share of the whole width, and the percentage after the bar."""
    height = ROW * len(chart.rows) + 4
    span = WIDTH - NUMBER
    parts = [
        f'<svg class="chart" id="{escape(chart_id)}" role="img" aria-labelledby="{escape(chart_id)}-t"'
        f' viewBox="0 0 {WIDTH} {height}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{escape(chart_id)}-t">{escape(chart.title)}</title>',
    ]
    for i, (label, p) in enumerate(chart.rows):
        y = i * ROW
        width = max(float(p) * span, 0.0 if p == 0 else 1.5)  # a possible row is never invisible
        parts.append(
            f'<g class="row"><text class="label" x="0" y="{y + 16}">{escape(label)}</text>'
            f'<rect class="track" x="0" y="{y + 22}" width="{span}" height="{BAR}" rx="3"></rect>'
            f'<rect class="bar" x="0" y="{y + 22}" width="{width:.2f}" height="{BAR}" rx="3"></rect>'
            f'<text class="value" x="{width + 6:.2f}" y="{y + 35}">{escape(share(locale, p))}</text></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def table(chart: Chart, locale: str, caption: str) -> Markup:
    """The chart's numbers as a table (what a screen reader reads instead of the picture)."""
    rows = "".join(
        f"<tr><th scope=row>{escape(label)}</th><td>{escape(share(locale, p))}</td></tr>"
        for label, p in chart.rows
    )
    # A table is never narrower than its cells: the hiding box is a div around it.
    return Markup(
        f'<div class="sr-only"><table class="odds"><caption>{escape(caption)}</caption>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def figure(charts: Sequence[Chart], locale: str, prefix: str = "chart") -> Markup:
    """Every chart as a ``<figure>``: its title, the SVG, and its table (read by screen readers,
    hidden from sight: the picture shows the same numbers)."""
    out = []
    for n, chart in enumerate(charts):
        chart_id = f"{prefix}-{n}"
        out.append(
            f'<figure class="odds"><figcaption aria-hidden="true">{escape(chart.title)}</figcaption>'
            f"{svg(chart, locale, chart_id)}{table(chart, locale, chart.title)}</figure>"
        )
    return Markup("".join(out))
