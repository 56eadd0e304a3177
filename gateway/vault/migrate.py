"""Alembic migrations, run programmatically (``gateway db upgrade``; ``serve``/``console`` on SQLite).

The core's revisions carry the branch label ``core``; a plugin that owns tables returns its own
versions folder from ``gateway_migration_locations`` and labels its branch, and ``upgrade heads``
brings every branch up to date.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from gateway.vault.engine import Vault

HERE = Path(__file__).parent / "migrations"


def alembic_config(extra_locations: Iterable[str | Path] = ()) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    locations = [str(HERE / "versions"), *(str(p) for p in extra_locations)]
    cfg.set_main_option("version_locations", " ".join(locations))
    cfg.set_main_option("path_separator", "space")
    return cfg


async def upgrade(vault: Vault, extra_locations: Iterable[str | Path] = ()) -> None:
    cfg = alembic_config(extra_locations)

    def run(connection: Connection) -> None:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "heads")

    async with vault.engine.connect() as conn:
        await conn.run_sync(run)
        await conn.commit()
