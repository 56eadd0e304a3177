"""The Nightcap characters work through Discord: build a sheet with slash commands, a Storyteller
approves it, the finished sheet lands on the sheets webhook; st export and st sync go the same way."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey
from sqlmodel import col, select

from gateway.vault.models import Character, IdentityLink, Pool
from tests.discord.conftest import USER, DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.both_modes

STORYTELLER = "600000000000000006"


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": name, "type": 1, "options": list(options)}]


@pytest.fixture
async def chars_env(
    tmp_path: Path, fake: FakeDiscord, key: SigningKey, mode: str
) -> AsyncIterator[DiscordEnv]:
    hooks = {"stlog": fake.add_webhook("200"), "sheets": fake.add_webhook("201")}
    sections = {
        "vault": {"owner": f"discord:{STORYTELLER}"},
        "nightcap": {"sheet_export": "discord:sheets"},
    }
    env = await start_env(
        f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, hooks, sections, mode=mode
    )
    yield env
    await env.client.close()


async def say(env: DiscordEnv, name: str, options: list[dict[str, Any]] | None = None, **kw: Any) -> str:
    answer = await env.command(name, options, **kw)
    assert answer["type"] == 4, answer
    return str(answer["data"].get("content", ""))


async def build_mira(env: DiscordEnv) -> None:
    await say(env, "char", sub("new", opt("name", "Mira Vance")))
    for trait, rating in (("physical", 3), ("mental", 3), ("social", 2), ("spirit", 2)):
        await say(env, "trait", [opt("trait", trait), opt("rating", rating, 4)])
    await say(
        env, "power", sub("add", opt("name", "Shadow Step"), opt("tier", "adept"), opt("trait", "physical"))
    )
    await say(env, "power", sub("add", opt("name", "Ward"), opt("tier", "basic"), opt("trait", "spirit")))
    await say(env, "char", sub("set", opt("field", "origin"), opt("text", "Mage @everyone")))
    submitted = await say(env, "char", sub("submit"))
    assert "submitted" in submitted.lower(), submitted


async def test_approval_posts_the_finished_sheet(chars_env: DiscordEnv) -> None:
    env = chars_env
    await build_mira(env)
    refused = await env.command("st", sub("approve", opt("name", "Mira Vance")))
    assert refused["data"]["flags"] == 64
    assert "Storyteller role" in refused["data"]["content"]
    approved = await say(
        env, "st", sub("approve", opt("name", "Mira Vance")), user=STORYTELLER, username="ana"
    )
    assert "Mira Vance" in approved
    rows = await env.settled()
    assert {r.target for r in rows if r.status != "delivered"} == set()
    [body] = env.fake.bodies(env.hooks["sheets"].id)
    assert body["allowed_mentions"] == {"parse": []}
    [embed] = body["embeds"]
    assert embed["title"] == "Mira Vance"
    assert embed["description"] == "Approved · played by Mira"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Origin"] == "Mage @\u200beveryone"
    assert (
        fields["Core traits"] == "Physical **3** · Mental **3** · Social **2** · Spirit **2**"
    )  # the book's heading
    assert fields["Willpower"] == "5/5"
    assert fields["Powers"] == "• **Shadow Step** — Adept, Physical\n• **Ward** — Basic, Spirit"
    assert embed["footer"]["text"].startswith("approved · character ")
    prove = await say(env, "prove")
    assert prove.startswith("Mira Vance: Physical 3")


async def test_st_export_and_st_sync_go_to_the_sheets_webhook(chars_env: DiscordEnv) -> None:
    env = chars_env
    await build_mira(env)
    await say(env, "st", sub("approve", opt("name", "Mira Vance")), user=STORYTELLER)
    # Three more approved characters, cloned in the vault (the sync does not care how they came to be).
    async with env.gateway.services.vault.transaction() as session:
        mira = (await session.exec(select(Character).where(col(Character.name) == "Mira Vance"))).one()
        pools = (await session.exec(select(Pool).where(col(Pool.character_id) == mira.id))).all()
        for i in range(3):
            clone = Character(
                owner_id=mira.owner_id,
                system=mira.system,
                name=f"Clone {i}",
                name_key=f"clone {i}",
                status=mira.status,
                sheet=dict(mira.sheet),
            )
            session.add(clone)
            await session.flush()
            for p in pools:
                session.add(Pool(character_id=clone.id, name=p.name, current=p.current, maximum=p.maximum))
    exported = await say(env, "st", sub("export", opt("name", "Mira Vance")), user=STORYTELLER)
    assert "queued" in exported
    synced = await say(env, "st", sub("sync"), user=STORYTELLER)
    assert synced.startswith("4 approved sheets queued for discord:sheets")
    await env.settled()
    titles = [b["embeds"][0]["title"] for b in env.fake.bodies(env.hooks["sheets"].id)]
    assert titles[:2] == ["Mira Vance", "Mira Vance"]
    assert sorted(titles[2:]) == ["Clone 0", "Clone 1", "Clone 2", "Mira Vance"]
    footers = [
        b["embeds"][0]["footer"]["text"].split(" · ")[0] for b in env.fake.bodies(env.hooks["sheets"].id)
    ]
    assert footers == ["approved", "exported by a Storyteller"] + ["Force Web Sync"] * 4
    assert env.fake.rate_limited == 0


async def test_sheet_is_private_and_identity_is_the_discord_user(chars_env: DiscordEnv) -> None:
    env = chars_env
    await build_mira(env)
    answer = await env.command("sheet")
    assert answer["data"]["flags"] == 64
    assert answer["data"]["content"].startswith("Mira Vance (Nightcap, submitted; player Mira)")
    async with env.gateway.services.vault.transaction() as session:
        mira = (await session.exec(select(Character).where(col(Character.name) == "Mira Vance"))).one()
        identity = await session.get(IdentityLink, f"discord:{USER}")
    assert identity is not None and identity.person_id == mira.owner_id
