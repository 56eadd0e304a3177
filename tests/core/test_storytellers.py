"""Storyteller management: the vault owner, st add/remove/list, and the role across linked identities."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.errors import UserError
from gateway.core.settings import Settings
from gateway.features.storytellers import parse_identity, parse_since
from gateway.testing import Chat, Clock
from tests.nightcap.helpers import audit_rows, ok, refused

OWNER = "discord:1000"
DISCORD = {"platform": "discord", "channel": "table"}


@pytest.fixture
async def owned(tmp_path: Path) -> AsyncIterator[Chat]:
    """A chat whose vault has an owner (``start_chat`` sets only the vault URL)."""
    clock, dice = Clock(), ScriptedDice([])
    settings = Settings(vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", "owner": OWNER})
    gateway = Gateway(settings, dice=dice, clock=clock, platforms=())
    await gateway.upgrade_vault()
    await gateway.start()
    yield Chat(gateway=gateway, dice=dice, clock=clock)
    await gateway.stop()


async def test_the_owner_is_a_storyteller_and_manages_others(owned: Chat) -> None:
    chat = owned
    assert await refused(chat, "st list", "2000", **DISCORD) == (
        "st list needs the Storyteller role, which you do not have."
    )
    listing = await ok(chat, "st list", "1000", **DISCORD)
    assert listing.text == "Vault owner: discord:1000. No other Storytellers."
    # An identity never seen before: the role waits for them.
    added = await ok(chat, "st add sl:0f1e2d3c-aaaa-bbbb-cccc-123456789abc", "1000", **DISCORD)
    assert added.text == (
        "sl:0f1e2d3c-aaaa-bbbb-cccc-123456789abc (0f1e2d3c-aaaa-bbbb-cccc-123456789abc) is now a Storyteller,"
        " on every platform they link."
    )
    await ok(chat, "st add discord:2000", "1000", **DISCORD)
    await ok(chat, "help", "2000", **DISCORD)  # discord:2000 shows up under their own name
    assert (await ok(chat, "st roster", "2000", **DISCORD)).text == "Characters (0): none."
    assert (await ok(chat, "st roster", "0f1e2d3c-aaaa-bbbb-cccc-123456789abc", platform="sl")).error is None
    listing = await ok(chat, "st list", "2000", **DISCORD)
    assert listing.result is not None
    assert listing.result["storytellers"] == [
        {
            "name": "0f1e2d3c-aaaa-bbbb-cccc-123456789abc",
            "identities": ["sl:0f1e2d3c-aaaa-bbbb-cccc-123456789abc"],
        },
        {"name": "2000", "identities": ["discord:2000"]},
    ]
    assert (
        await refused(chat, "st add discord:2000", "1000", **DISCORD)
        == "discord:2000 is already a Storyteller."
    )
    assert (
        await refused(chat, "st add discord:1000", "1000", **DISCORD)
        == "discord:1000 is already a Storyteller."
    )
    assert await refused(chat, "st remove discord:1000", "2000", **DISCORD) == (
        "discord:1000 is the vault owner (discord:1000, setting [vault] owner):"
        " change that setting to remove them."
    )
    removed = await ok(chat, "st remove DISCORD:2000", "1000", **DISCORD)
    assert removed.text == "discord:2000 is no longer a Storyteller."
    assert await refused(chat, "st roster", "2000", **DISCORD) == (
        "st roster needs the Storyteller role, which you do not have."
    )
    assert (
        await refused(chat, "st remove discord:2000", "1000", **DISCORD)
        == "discord:2000 is not a Storyteller."
    )
    assert await refused(chat, "st add bob:", "1000", **DISCORD) == (
        "'bob:' is not an identity: write PLATFORM:ID, e.g. discord:80351110224678912, sl:<avatar uuid>,"
        " matrix:@ana:example.org, irc:libera/ana or console:ana."
    )
    assert await refused(chat, "st add bob", "1000", **DISCORD) == (
        "Nobody called bob has been seen here: write PLATFORM:ID, e.g. discord:80351110224678912."
    )
    actions = [(r.action, r.field_name, r.new_value) for r in await audit_rows(chat)]
    assert actions == [
        ("st.add", "sl:0f1e2d3c-aaaa-bbbb-cccc-123456789abc", "true"),
        ("st.add", "discord:2000", "true"),
        ("st.remove", "discord:2000", "false"),
    ]


async def test_the_owner_role_follows_a_link(owned: Chat) -> None:
    chat = owned
    assert await refused(chat, "st roster", "boss", platform="matrix", channel="!r:x") == (
        "st roster needs the Storyteller role, which you do not have."
    )
    code = (await ok(chat, "link", "1000", **DISCORD)).result["code"]  # type: ignore[index]
    await ok(chat, f"link {code}", "boss", platform="matrix", channel="!r:x")
    assert (
        await ok(chat, "st roster", "boss", platform="matrix", channel="!r:x")
    ).text == "Characters (0): none."
    assert await refused(chat, "st remove matrix:boss", "1000", **DISCORD) == (
        "matrix:boss is the vault owner (discord:1000, setting [vault] owner):"
        " change that setting to remove them."
    )


async def test_an_added_storyteller_keeps_the_role_on_a_linked_platform(owned: Chat) -> None:
    chat = owned
    await ok(chat, "st add discord:2000", "1000", **DISCORD)
    code = (await ok(chat, "link", "ana", platform="irc", channel="libera/#n")).result["code"]  # type: ignore[index]
    await ok(chat, f"link {code}", "2000", **DISCORD)
    assert (await ok(chat, "st list", "ana", platform="irc", channel="libera/#n")).error is None


async def test_unverified_identities_are_never_storytellers(owned: Chat) -> None:
    text = await refused(owned, "st roster", "1000", platform="discord", channel="t", verified=False)
    assert text == "st roster needs the Storyteller role, which you do not have."


def test_identity_words() -> None:
    assert parse_identity("Discord:123") == ("discord", "123")
    assert parse_identity("matrix:@ana:example.org") == ("matrix", "@ana:example.org")
    assert parse_identity("irc:libera/ana") == ("irc", "libera/ana")
    with pytest.raises(UserError):
        parse_identity("discord:")


def test_since_words() -> None:
    now = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
    zone = "America/Los_Angeles"
    assert parse_since("2h", now, zone) == datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    assert parse_since("30m", now, zone) == datetime(2026, 11, 30, 19, 30, tzinfo=UTC)
    assert parse_since("1w", now, zone) == datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
    assert parse_since("today", now, zone) == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    assert parse_since("yesterday", now, zone) == datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
    assert parse_since("2026-11-29", now, zone) == datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
    assert parse_since("2026-11-29T18:00", now, zone) == datetime(2026, 11, 30, 2, 0, tzinfo=UTC)
    assert parse_since("2026-11-29T18:00+00:00", now, zone) == datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
