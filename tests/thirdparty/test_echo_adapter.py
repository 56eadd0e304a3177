"""A platform adapter from an installed package (``gw-echo-adapter``, entry point ``echo``): it runs
in the gateway and tests itself with ``gateway.testing`` alone, with no change to gateway/."""

from __future__ import annotations

import re
from pathlib import Path

from gateway.testing import Chat
from tests.thirdparty.conftest import PACKAGES, run_own_tests

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def test_its_own_tests_pass_with_gateway_testing_alone(echo_site: Path, tmp_path: Path) -> None:
    done = run_own_tests("gw_echo_adapter", echo_site, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout, done.stdout


async def test_without_the_package_there_is_no_echo_platform(chat: Chat) -> None:
    assert "echo" not in [spec.platform for spec in chat.gateway.plugins.adapter_specs]


def test_the_core_never_mentions_it() -> None:
    for path in (ROOT / "gateway").rglob("*.py"):
        assert "gw_echo_adapter" not in path.read_text(encoding="utf-8"), path


def test_third_parties_import_the_public_api_only() -> None:
    """No third-party package (nor its tests) imports this repository's tests/, or the vault's
    internals: what they need is in gateway.testing and the plugin API."""
    forbidden = re.compile(r"^\s*(from|import)\s+(tests|gateway\.vault|plugins|adapters)\b", re.MULTILINE)
    for package in PACKAGES:
        for path in (HERE / package).rglob("*.py"):
            found = forbidden.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path}: {found and found.group(0)}"
