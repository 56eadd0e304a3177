"""A platform adapter from an installed package (``gw-echo-adapter``, entry point ``echo``): it runs
in the gateway and tests itself with ``gateway.testing`` alone, with no change to gateway/."""

from __future__ import annotations

import ast
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
    """Third-party packages (and their tests) import the gateway's public API (``gateway``) and
    its test doubles (``gateway.testing``) only: no core module, nothing of this repository."""
    allowed = {"gateway", "gateway.testing"}
    ours = {"gateway", "tests", "plugins", "adapters"}
    for package in PACKAGES:
        for path in (HERE / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    modules = [node.module or ""]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                for module in modules:
                    if module.split(".")[0] in ours:
                        assert module in allowed, f"{path}: {ast.unparse(node)}"
