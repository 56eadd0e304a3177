"""Sphinx settings for the Nightcap Gateway docs: Markdown pages (MyST) in the Furo theme.

Build: ``.venv/bin/python -m sphinx -W -b html docs docs/_build/html`` (the suite does it too,
tests/docs/test_build.py). Generated parts (cog blocks) are refreshed with
``.venv/bin/cog -r docs/**/*.md`` and checked by tests/docs/test_cog.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pygments.lexers.special import TextLexer  # type: ignore[import-untyped]
from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # autodoc of gateway.core.hookspecs from this checkout

project = "Nightcap Gateway"
copyright = "the Nightcap Gateway authors, MIT licence"
extensions = ["myst_parser", "sphinx.ext.autodoc"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
html_theme = "furo"
html_title = "Nightcap Gateway"
html_static_path = ["_static"]
html_css_files = ["chat.css"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
autodoc_member_order = "bysource"
nitpicky = False
suppress_warnings: list[str] = []


def setup(app: Sphinx) -> None:
    # ``chat`` blocks are the examples tests/docs/test_examples.py runs: plain text on the page.
    app.add_lexer("chat", TextLexer)
