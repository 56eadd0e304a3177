"""This repository's own test set-up. The shared doubles and fixtures (``Chat``, ``start_chat``,
``Clock``, ``FakeAdapter``; ``chat``, ``any_chat``, ``vault_url``, ``sqlite_url``) live in
``gateway.testing``, a pytest plugin installed with the package: import them from there.
"""

from __future__ import annotations

import os
import time

import pytest

# The default chronicle zone is the machine's (``gateway.settings.machine_timezone`` reads TZ first):
# pin it, so that expected texts ("midnight America/Los_Angeles") do not depend on where tests run.
os.environ["TZ"] = "America/Los_Angeles"
time.tzset()

PLUGIN = "gateway.testing.plugin"


def pytest_configure(config: pytest.Config) -> None:
    # A virtual environment installed before the plugin existed, or autoloading turned off, would
    # otherwise fail much later with "fixture 'chat' not found" in hundreds of tests.
    if not config.pluginmanager.has_plugin(PLUGIN):
        raise pytest.UsageError(
            f"the pytest plugin {PLUGIN} is not loaded: reinstall the package (python3 -m gateway test, "
            f"or pip install -e '.[test]'), or pass -p {PLUGIN}"
        )
