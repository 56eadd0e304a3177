"""Where the docs are, for the tests that read them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TOOLS = DOCS / "_tools"


def pages() -> list[Path]:
    """Every page of the site."""
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
