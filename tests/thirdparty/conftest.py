"""Install the third-party package ``gw_coinflip`` with pip, the way an operator would, into a
directory of its own (``pip install --target``), so the running virtual environment is untouched."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "gw_coinflip"


@pytest.fixture(scope="session")
def coinflip_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site directory holding the installed ``gw-coinflip`` distribution (with its entry point)."""
    work = tmp_path_factory.mktemp("coinflip")
    source = work / "src"
    shutil.copytree(SOURCE, source)  # build in a copy: pip leaves build files beside the source
    site = work / "site"
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--disable-pip-version-check",
        "-q",
        "--target",
        str(site),
        str(source),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(p.name.startswith("gw_coinflip-1.0.0") for p in site.glob("*.dist-info"))
    return site
