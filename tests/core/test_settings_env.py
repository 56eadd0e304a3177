"""Rule systems' settings tables from the environment (issue 19): the README's ``## Configuration``
says settings come "then the environment: any key as `GATEWAY_<SECTION>__<KEY>`", and
``GATEWAY_NIGHTCAP__ESSENCE_MAX`` was ignored, since pydantic's environment source reads only the
core's declared sections. Every system's table, and every adapter's, takes them now."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.core.app import Gateway
from gateway.core.settings import load_settings
from gateway.core.system_settings import SystemSettingsError
from gateway.testing import Chat, start_chat
from plugins.dramatic.config import DramaticSettings
from plugins.nightcap.config import NightcapSettings


def validated(sqlite_url: str, config: Path | None = None) -> dict[str, object]:
    settings = load_settings(config, vault={"url": sqlite_url})
    return dict(Gateway(settings, platforms=()).plugins.system_settings)


def test_nightcap_and_dramatic_keys_from_the_environment(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATEWAY_NIGHTCAP__ESSENCE_MAX", "7")
    monkeypatch.setenv("GATEWAY_NIGHTCAP__WOUND_PENALTIES", "true")
    monkeypatch.setenv("GATEWAY_NIGHTCAP__WOUND_THRESHOLDS", "[3, 6]")
    monkeypatch.setenv("gateway_dramatic__default_difficulty", "8")  # names are case-insensitive
    systems = validated(sqlite_url)
    nightcap, dramatic = systems["nightcap"], systems["dramatic"]
    assert isinstance(nightcap, NightcapSettings) and isinstance(dramatic, DramaticSettings)
    assert (nightcap.essence_max, nightcap.wound_penalties, nightcap.wound_thresholds) == (7, True, (3, 6))
    assert dramatic.default_difficulty == 8


def test_the_environment_wins_over_the_file_key_by_key(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "g.toml"
    config.write_text("[nightcap]\nessence_max = 12\npower_dots = 4\n[dramatic]\nwillpower = 3\n")
    monkeypatch.setenv("GATEWAY_NIGHTCAP__ESSENCE_MAX", "9")
    systems = validated(sqlite_url, config)
    nightcap, dramatic = systems["nightcap"], systems["dramatic"]
    assert isinstance(nightcap, NightcapSettings) and isinstance(dramatic, DramaticSettings)
    assert (nightcap.essence_max, nightcap.power_dots, dramatic.willpower) == (9, 4, 3)


def test_a_bad_value_or_key_from_the_environment_is_named(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATEWAY_NIGHTCAP__ESSENCE_MAX", "lots")
    with pytest.raises(SystemSettingsError, match="essence_max"):
        validated(sqlite_url)
    monkeypatch.delenv("GATEWAY_NIGHTCAP__ESSENCE_MAX")
    monkeypatch.setenv("GATEWAY_DRAMATIC__DEFAULT_DIFICULTY", "8")
    with pytest.raises(SystemSettingsError, match="default_dificulty"):
        validated(sqlite_url)


def test_adapter_tables_take_the_environment_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATEWAY_IRC__LIBERA__HOST", "irc.example")
    monkeypatch.setenv("GATEWAY_TEST_POSTGRES_URL", "postgresql://x")  # no "__": not a table key
    settings = load_settings()
    assert settings.section("irc") == {"libera": {"host": "irc.example"}}
    assert "test_postgres_url" not in (settings.model_extra or {})


async def test_a_nightcap_sheet_reads_the_essence_maximum_set_by_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The book: "Essence Supernatural fuel"; RULINGS: "Essence maximum: 10 (a setting ...)"."""
    monkeypatch.setenv("GATEWAY_NIGHTCAP__ESSENCE_MAX", "7")
    chat: Chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}")
    try:
        await chat.say("char new Mira", "mira")
        replies = await chat.say("sheet", "mira")
        assert "Essence max 7" in replies[0].text, replies[0].text
    finally:
        await chat.gateway.stop()
