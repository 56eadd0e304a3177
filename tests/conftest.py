"""This repository's own test set-up. The shared doubles and fixtures (``Chat``, ``start_chat``,
``Clock``, ``FakeAdapter``; ``chat``, ``any_chat``, ``vault_url``, ``sqlite_url``) live in
``gateway.testing``, a pytest plugin installed with the package: import them from there.
"""

from __future__ import annotations

import os
import time

import pytest

# The default chronicle zone is the machine's (``gateway.core.settings.machine_timezone`` reads TZ first):
# pin it, so that expected texts ("midnight America/Los_Angeles") do not depend on where tests run.
os.environ["TZ"] = "America/Los_Angeles"
time.tzset()
# The odds' time bound (10 s) is for a gateway people wait on; on a CI machine running two test workers
# and the forkserver's first imports, an exact odds computation can pass it and flake. Tests of the
# bound set their own (a setting given to the gateway wins over the environment).
os.environ.setdefault("GATEWAY_GATEWAY__OFFLOAD_TIMEOUT", "120")

PLUGIN = "gateway.testing.plugin"


def pytest_configure(config: pytest.Config) -> None:
    # A virtual environment installed before the plugin existed, or autoloading turned off, would
    # otherwise fail much later with "fixture 'chat' not found" in hundreds of tests.
    if not config.pluginmanager.has_plugin(PLUGIN):
        raise pytest.UsageError(
            f"the pytest plugin {PLUGIN} is not loaded: reinstall the package (python3 -m gateway test, "
            f"or pip install -e '.[test]'), or pass -p {PLUGIN}"
        )


# Under pytest-xdist (`gateway test` on several cores, --dist loadgroup): the tests that share one
# expensive session fixture run on one worker, so that it is started once (a Synapse for the
# Matrix tests, the installed third-party packages). Everything else takes free ports and its own
# temporary directories and databases, and is spread.
SHARED_SESSION = {"matrix": "synapse", "thirdparty": "thirdparty"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.parts
        for folder, group in SHARED_SESSION.items():
            if "tests" in parts and folder in parts[parts.index("tests") :]:
                item.add_marker(pytest.mark.xdist_group(group))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What was skipped and why, one line per reason with its count (`-ra` lists every test)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    if reasons:
        terminalreporter.section("skipped, by reason")
        for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"{count:5d}  {reason}")
