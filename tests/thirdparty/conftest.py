"""Third-party packages installed with pip, the way an operator would, each into a directory of its
own (``pip install --target``), so the running virtual environment is untouched; and their own tests
run in a process of their own, against ``gateway.testing`` alone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
PACKAGES = ("gw_coinflip", "gw_echo_adapter", "gw_lanterns")
# Their tests are theirs: this suite runs them in a subprocess (run_own_tests), never collects them.
collect_ignore = list(PACKAGES)

# Run in the subprocess: this repository's tests/ must not be importable there (-P keeps the working
# directory off sys.path), then pytest runs as the package's author would run it.
_OWN_TESTS = (
    "import importlib.util, sys\n"
    "assert importlib.util.find_spec('tests') is None, 'the gateway repository tests/ is importable'\n"
    "import pytest\n"
    "sys.exit(pytest.main(sys.argv[1:]))\n"
)


def install(package: str, work: Path) -> Path:
    """A site directory holding the installed distribution of ``package`` (with its entry points)."""
    source = work / "src"
    shutil.copytree(HERE / package, source)  # build in a copy: pip leaves build files beside the source
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
    return site


@pytest.fixture(scope="session")
def coinflip_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site directory holding the installed ``gw-coinflip`` distribution."""
    site = install("gw_coinflip", tmp_path_factory.mktemp("coinflip"))
    assert any(p.name.startswith("gw_coinflip-1.0.0") for p in site.glob("*.dist-info"))
    return site


@pytest.fixture(scope="session")
def echo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site directory holding the installed ``gw-echo-adapter`` distribution."""
    site = install("gw_echo_adapter", tmp_path_factory.mktemp("echo"))
    assert any(p.name.startswith("gw_echo_adapter-1.0.0") for p in site.glob("*.dist-info"))
    return site


@pytest.fixture(scope="session")
def lanterns_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site directory holding the installed ``gw-lanterns`` distribution."""
    site = install("gw_lanterns", tmp_path_factory.mktemp("lanterns"))
    assert any(p.name.startswith("gw_lanterns-1.0.0") for p in site.glob("*.dist-info"))
    return site


def run_own_tests(package: str, site: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """The package's own tests (its ``tests/`` and ``pyproject.toml``, without its source, so the
    installed copy is the one imported), run by pytest in a fresh process that finds only the
    installed package and the gateway."""
    run = work / "run"
    run.mkdir()
    shutil.copytree(HERE / package / "tests", run / "tests")
    shutil.copy(HERE / package / "pyproject.toml", run)
    env = {**os.environ, "PYTHONPATH": str(site)}
    for name in ("GATEWAY_CONFIG", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        env.pop(name, None)
    command = [sys.executable, "-P", "-c", _OWN_TESTS, "-q", "-p", "no:cacheprovider"]
    # An unregistered marker (the plugin registers "postgres") is an error, not a warning.
    command += ["-W", "error::pytest.PytestUnknownMarkWarning"]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=run, timeout=600)
