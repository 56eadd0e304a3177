"""The docs build with warnings as errors (broken internal links, missing pages, bad Markdown), as CI
builds them; ``python3 -m gateway test tests/docs`` runs it alone. The site itself:
``.venv/bin/python -m sphinx -W -b html docs docs/_build/html``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.docs.pages import DOCS, pages


def test_the_docs_build_without_a_warning(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-E", "-b", "html", str(DOCS), str(tmp_path / "html")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    built = {p.relative_to(tmp_path / "html").with_suffix("") for p in (tmp_path / "html").rglob("*.html")}
    for page in pages():
        assert page.relative_to(DOCS).with_suffix("") in built, page  # every page is in the site
