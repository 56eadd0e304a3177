"""gateway.rules.charts: the chart a reply carries, the font check and the PNG (issue 17)."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from gateway.core.settings import Settings
from gateway.ops.status import _charts
from gateway.ops.status import render as render_status
from gateway.rules.charts import chart_from_result, chart_result, fonts
from gateway.rules.charts.draw import COLOURS, Drawn, NoFont, percent, render

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
needs_dejavu = pytest.mark.skipif(not Path(DEJAVU).is_file(), reason="fonts-dejavu-core not installed")


def test_a_chart_survives_json_and_keeps_exact_and_float() -> None:
    result = {"chart": chart_result("T", [("P", [("a", Fraction(1, 3)), ("b", 0.25)])])}
    assert result["chart"]["panels"][0]["bars"] == [["a", 1 / 3, "1/3"], ["b", 0.25, None]]
    chart = chart_from_result(result)
    assert chart is not None and chart.panels[0].bars[0].exact == "1/3"
    huge = Fraction(1, 3**20000)
    assert chart_result("T", [("P", [("x", huge)])])["panels"][0]["bars"][0][2] is None
    for broken in (None, {}, {"chart": {"panels": []}}, {"chart": {"panels": [{"bars": [["a", 2]]}]}}):
        assert chart_from_result(broken) is None  # type: ignore[arg-type]


def test_percent_never_says_nothing_for_something() -> None:
    assert [percent(p) for p in (0, 0.0004, 0.5, 0.9996, 1)] == ["0%", "<0.1%", "50.0%", ">99.9%", "100%"]


def test_the_builtin_font_has_no_czech_or_cyrillic() -> None:
    """Why a TrueType font is needed at all: Pillow's own font draws č and З as its missing glyph."""
    builtin = ImageFont.load_default(size=16)
    assert isinstance(builtin, ImageFont.FreeTypeFont)  # Pillow's bundled Aileron subset
    notdef = builtin.getmask("\U0010fffd")
    for letter in "čЗ":
        mask = builtin.getmask(letter)
        assert (mask.size, bytes(mask)) == (notdef.size, bytes(notdef))


@needs_dejavu
def test_a_font_without_the_letters_is_refused(tmp_path: Path) -> None:
    assert fonts.find(DEJAVU) == (DEJAVU, "")
    assert fonts.find(None)[0] is not None  # a common system font, found without a setting
    assert fonts.missing(DEJAVU, "ščřЗжЩ") == ""
    # A letter the font draws as its .notdef glyph is named (a private-use one: no font has it).
    path, why = fonts.find(DEJAVU, "aб\U000f0001")
    assert path is None and "has no \U000f0001" in why
    bogus = tmp_path / "bogus.ttf"
    bogus.write_bytes(b"not a font")
    path, why = fonts.find(str(bogus))
    assert path is None and "cannot be read as a font" in why
    path, why = fonts.find(str(tmp_path / "missing.ttf"))
    assert path is None and "is not a file" in why and "[gateway] chart_font" in why


@needs_dejavu
def test_the_png_is_the_chart() -> None:
    chart = chart_from_result(
        {
            "chart": chart_result(
                "Šance",
                [("Ваши", [("Fiasko", Fraction(1, 10)), ("Úspěch", Fraction(9, 10))]), ("Два", [("x", 0.5)])],
            )
        }
    )
    assert chart is not None
    drawn = render(chart, None)
    assert isinstance(drawn, Drawn)
    image = Image.open(io.BytesIO(drawn.png))
    assert image.format == "PNG" and image.size == (drawn.width, drawn.height) == (640, image.height)
    found = {c for _, c in image.convert("RGB").getcolors(maxcolors=1 << 20) or []}
    assert COLOURS[0] in found and COLOURS[1] in found
    assert render(chart, None) == drawn  # the same chart, the same bytes


def test_no_font_means_no_picture_and_status_says_why(tmp_path: Path) -> None:
    chart = chart_from_result({"chart": chart_result("a", [("b", [("c", 0.5)])])})
    assert chart is not None
    drawn = render(chart, str(tmp_path / "none.ttf"))
    assert isinstance(drawn, NoFont) and "[gateway] chart_font" in drawn.reason
    report = {"charts": _charts(Settings(gateway={"chart_font": str(tmp_path / "none.ttf")}))}
    assert report["charts"]["font"] is None
    lines = _status_tail(report)
    assert lines[-1].startswith("charts  no odds pictures (text only): [gateway] chart_font ")


def _status_tail(charts: dict[str, object]) -> list[str]:
    report = {
        "vault": {"url": "sqlite://", "migrations": "ok"},
        "processes": [],
        "leases": [],
        "outbox": {},
        **charts,
    }
    return render_status(report)
