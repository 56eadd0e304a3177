"""The chart an ``odds`` reply carries in ``result["chart"]``: plain JSON, so it survives an outbox
row and a retried message's kept answer.

``{"title": str, "panels": [{"title": str, "bars": [[label, probability, exact], ...]}, ...]}``:
``probability`` is a float (what is drawn), ``exact`` the fraction as ``"n/d"`` (what the rule
system computed; None when its terms are too long to write out)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# Longer terms are left out of ``exact``: Python refuses to write ints of more than 4300 digits as
# text by default, and a picture needs no more than a float.
_EXACT_BITS = 4000


@dataclass(frozen=True)
class Bar:
    label: str
    probability: float
    exact: str | None = None


@dataclass(frozen=True)
class Panel:
    title: str
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class Chart:
    title: str
    panels: tuple[Panel, ...]

    def text(self) -> str:
        """Every letter the picture draws (to check a font has them all)."""
        words = [self.title]
        for panel in self.panels:
            words.append(panel.title)
            words.extend(bar.label for bar in panel.bars)
        return "".join(words) + "0123456789.%<>"


def _exact(p: Fraction) -> str | None:
    if max(p.numerator.bit_length(), p.denominator.bit_length()) > _EXACT_BITS:
        return None
    return f"{p.numerator}/{p.denominator}"


def chart_result(
    title: str, panels: Iterable[tuple[str, Iterable[tuple[str, Fraction | float]]]]
) -> dict[str, Any]:
    """``result["chart"]`` for an odds reply: ``title`` and (panel title, (label, probability) rows),
    every text already in the reader's language."""
    out = []
    for panel_title, rows in panels:
        bars = []
        for label, p in rows:
            exact = _exact(p) if isinstance(p, Fraction) else None
            bars.append([str(label), float(p), exact])
        out.append({"title": str(panel_title), "bars": bars})
    return {"title": str(title), "panels": out}


def _bar(raw: Any) -> Bar | None:
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) < 2:
        return None
    label, p = raw[0], raw[1]
    if not isinstance(label, str) or not isinstance(p, int | float) or not 0 <= float(p) <= 1:
        return None
    exact = raw[2] if len(raw) > 2 and isinstance(raw[2], str) else None
    return Bar(label[:80], float(p), exact)


def chart_from_result(result: Mapping[str, Any] | None) -> Chart | None:
    """The chart of a reply's result, or None (no chart, or not one of this shape: a row written by
    another version is shown without a picture rather than failing)."""
    raw = result.get("chart") if isinstance(result, Mapping) else None
    if not isinstance(raw, Mapping) or not isinstance(raw.get("panels"), list):
        return None
    panels = []
    for item in raw["panels"][:6]:
        if not isinstance(item, Mapping) or not isinstance(item.get("bars"), list):
            return None
        bars = [_bar(b) for b in item["bars"][:24]]
        if not bars or any(b is None for b in bars):
            return None
        panels.append(Panel(str(item.get("title") or "")[:120], tuple(b for b in bars if b is not None)))
    if not panels:
        return None
    return Chart(str(raw.get("title") or "")[:120], tuple(panels))
