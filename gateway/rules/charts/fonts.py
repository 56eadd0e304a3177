"""Finding a font that has every letter a chart draws. Pillow's built-in font has neither Czech nor
Cyrillic letters (they come out as boxes), so a TrueType font is needed: ``[gateway] chart_font``,
else the first of the common system fonts below that is installed and has them."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

# Debian's fonts-dejavu-core first (.ci/apt-packages), then Noto and Liberation where distributions
# put them.
CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/google-noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
)
# What every chart may say: Czech and Russian letters beside English.
SAMPLE = "ščřžýáíéúůťďňěĚŠČŘŽÁÍÉÚŮЗзЖжЩщЫыЁёЯя0123456789%<>"
# A private-use code point no text font maps: its mask is the font's .notdef glyph.
_UNMAPPED = "\U0010fffd"


@lru_cache(maxsize=16)
def load(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _mask(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=256)
def missing(path: str, text: str) -> str:
    """The letters of ``text`` that ``path`` draws as its .notdef glyph ("" when it has them all)."""
    font = load(path, 16)
    notdef = _mask(font, _UNMAPPED)
    return "".join(sorted({c for c in text if not c.isspace() and _mask(font, c) == notdef}))


def find(configured: str | None, text: str = SAMPLE) -> tuple[str | None, str]:
    """(the font's path, "") or (None, why there is none: one line for the operator)."""
    paths = [configured] if configured else list(CANDIDATES)
    why = []
    for path in paths:
        if not Path(path).is_file():
            if configured:
                why.append(f"[gateway] chart_font {configured} is not a file")
            continue
        try:
            gaps = missing(path, text)
        except OSError as exc:
            why.append(f"{path} cannot be read as a font ({exc})")
            continue
        if not gaps:
            return path, ""
        why.append(f"{path} has no {gaps[:12]}")
    if not why:
        why.append("no DejaVu Sans, Noto Sans or Liberation Sans installed (Debian: fonts-dejavu-core)")
    return None, "; ".join(why) + ": set [gateway] chart_font to a TrueType font with those letters"
