"""The pytest plugin of ``gateway.testing``: fixtures for a gateway over fresh vaults.

Installed with the gateway (entry point ``pytest11``, named like this module), so it needs no
``conftest.py``; ``-p no:gateway.testing.plugin`` turns it off, and with plugin autoloading off
(``PYTEST_DISABLE_PLUGIN_AUTOLOAD``) ``-p gateway.testing.plugin`` turns it on. The gateway is
imported only when a fixture runs, so a pytest run that uses none of them pays nothing for it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from gateway.testing import Chat

async_fixture: Any
try:
    from pytest_asyncio import fixture as async_fixture
except ImportError:  # without pytest-asyncio, pytest itself says that async fixtures need a plugin
    async_fixture = pytest.fixture

POSTGRES_MARKER = (
    "postgres: runs on the PostgreSQL vault named by GATEWAY_TEST_POSTGRES_URL (skipped without it)"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", POSTGRES_MARKER)


def pytest_sessionfinish(session: pytest.Session) -> None:
    import sys

    testing = sys.modules.get("gateway.testing")  # imported only if a fixture ran
    if testing is not None:
        testing.drop_templates()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """The URL of a fresh SQLite vault file in the test's ``tmp_path`` (not yet migrated)."""
    return f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def vault_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh vault URL on SQLite, and on PostgreSQL (a database of its own, dropped afterwards)
    when ``GATEWAY_TEST_POSTGRES_URL`` is set: each test using it runs once per engine."""
    from gateway.testing import POSTGRES_URL_VARIABLE, postgres_database

    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
        return
    server = os.environ.get(POSTGRES_URL_VARIABLE)
    if not server:
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")
    with postgres_database(server) as url:
        yield url


@async_fixture
async def chat(sqlite_url: str) -> AsyncIterator[Chat]:
    """A started gateway over a fresh SQLite vault, scripted dice and a ``Clock``. No adapters run."""
    from gateway.testing import start_chat

    chat = await start_chat(sqlite_url)
    yield chat
    await chat.stop()


@async_fixture
async def any_chat(vault_url: str) -> AsyncIterator[Chat]:
    """Like ``chat``, on every configured vault engine (SQLite; PostgreSQL when available)."""
    from gateway.testing import start_chat

    chat = await start_chat(vault_url)
    yield chat
    await chat.stop()
