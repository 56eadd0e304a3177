"""Settings from TOML and the environment; the plugin manager's block list; migrations."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from gateway.core.app import Gateway
from gateway.core.settings import load_settings
from gateway.vault import Vault
from gateway.vault.migrate import alembic_config, upgrade


def test_toml_then_environment_then_short_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "g.toml"
    config.write_text(
        '[http]\nport = 81\nhost = "0.0.0.0"\n[gateway]\nmax_pool = 20\n'
        '[stlog]\ntargets = ["console", "irc:net/#st"]\n[irc.libera]\nhost = "irc.example"\n'
    )
    monkeypatch.setenv("GATEWAY_HTTP__PORT", "9001")
    monkeypatch.setenv("GATEWAY_VAULT_URL", "sqlite+aiosqlite:///elsewhere.db")
    monkeypatch.setenv("GATEWAY_DICE_SCRIPT", "1,2,3")
    settings = load_settings(config)
    assert (settings.http.host, settings.http.port) == ("0.0.0.0", 9001)
    assert settings.gateway.max_pool == 20
    assert settings.vault.url == "sqlite+aiosqlite:///elsewhere.db"
    assert settings.dice.script == "1,2,3"
    assert settings.stlog.targets == ["console", "irc:net/#st"]
    assert settings.section("irc") == {"libera": {"host": "irc.example"}}
    assert settings.section("matrix") == {}


def test_unknown_key_in_a_core_section_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "g.toml"
    config.write_text("[gateway]\nmax_pol = 20\n")
    with pytest.raises(ValueError, match="max_pol"):
        load_settings(config)


def test_missing_config_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_settings(tmp_path / "nope.toml")


def test_block_list_removes_a_plugin(sqlite_url: str) -> None:
    from gateway.core.settings import Settings

    loaded = Gateway(Settings(vault={"url": sqlite_url}), platforms=())
    assert "nightcap" in loaded.plugins.systems()
    blocked = Gateway(Settings(vault={"url": sqlite_url}, plugins={"block": ["nightcap"]}), platforms=())
    assert "nightcap" not in blocked.plugins.systems()
    assert "nightcap" not in blocked.plugins.names()


async def test_migrations_apply_once_and_are_idempotent(vault_url: str) -> None:
    vault = Vault(vault_url)
    await upgrade(vault)
    await upgrade(vault)
    async with vault.engine.connect() as conn:
        heads = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
        tables = await conn.run_sync(lambda sync: set(sync.dialect.get_table_names(sync)))
    await vault.dispose()
    newest = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert heads == newest and len(newest) == 1  # one line of revisions, all applied
    assert {"person", "identity", "channel", "roll_log", "outbox", "character", "pool", "audit"} <= tables


async def test_sqlite_vault_is_wal_and_durable(sqlite_url: str) -> None:
    vault = Vault(sqlite_url)
    async with vault.transaction() as session:
        mode = (await session.exec(text("PRAGMA journal_mode"))).one()[0]  # type: ignore[call-overload]
        sync = (await session.exec(text("PRAGMA synchronous"))).one()[0]  # type: ignore[call-overload]
    await vault.dispose()
    assert (mode, sync) == ("wal", 2)


async def test_transactions_do_not_nest(sqlite_url: str) -> None:
    vault = Vault(sqlite_url)
    async with vault.transaction():
        with pytest.raises(RuntimeError, match="do not nest"):
            async with vault.transaction():
                pass
    await vault.dispose()
