"""``st sync`` reads every sheet's pools and owners for the whole batch: the rows it queues are the
per-sheet path's byte for byte, in the same order, and its statements do not grow with the sheets."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

from sqlmodel import col, delete, select

from gateway import CommandContext, hookimpl
from gateway.core.commands import Command
from gateway.core.payloads import sheet_payload
from gateway.core.types import Invocation, Reply
from gateway.features.characters import characters_in
from gateway.testing import Chat, start_chat
from gateway.vault.models import OutboxRow, Pool
from plugins.nightcap import export_commands as export
from plugins.nightcap.export_commands import render
from tests.conflict.helpers import make_character
from tests.nightcap.helpers import character, ok, statements

ST = {"as_": "ana", "st": True}
OUTBOX_INSERT = re.compile(r'^\s*INSERT INTO "?outbox"?', re.IGNORECASE)


class PerSheet:
    """``test per-sheet``: what ``st sync`` queued before the batched reads, one sheet at a time
    (``render`` and the core's ``load_summary``, each reading its own pools and owner)."""

    @hookimpl
    def gateway_register_commands(self, register: Callable[[Command], None]) -> None:
        async def per_sheet(ctx: CommandContext, inv: Invocation) -> Reply:
            payloads: list[dict[str, Any]] = []
            for one in await characters_in(ctx.session, "nightcap", statuses=("approved",)):
                text, sheet = await render(ctx, one)
                summary = await ctx.services.plugins.load_summary(ctx.session, one, ctx.locale)
                payload = sheet_payload(
                    text, sheet, summary=summary, owner=sheet["owner"], reason="sync", character_id=one.id
                )
                payloads.append(dict(payload))
            return Reply(text=f"{len(payloads)} sheets", result={"payloads": payloads})

        register(Command("test per-sheet", per_sheet, "per-sheet reference", system="nightcap"))


async def add_characters(chat: Chat, first: int, count: int) -> None:
    """Approved characters of a few owners, with varied traits and pools."""
    for i in range(first, first + count):
        await make_character(
            chat, f"owner{i % 7}", f"Sheet {i:03d}", physical=1 + i % 4, mental=1 + i % 3, damage=i % 5
        )


async def sync_rows(chat: Chat) -> tuple[list[OutboxRow], list[str]]:
    """``st sync``'s outbox rows and the statements it ran."""
    async with chat.services.vault.transaction() as session:
        await session.exec(delete(OutboxRow))  # type: ignore[call-overload]
    async with statements(chat) as seen:
        await ok(chat, "st sync", **ST)
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))
        rows = [r for r in found.all() if r.payload.get("kind") == "sheet"]
    return rows, list(seen)


async def test_sync_queues_the_per_sheet_payloads(vault_url: str) -> None:
    chat = await start_chat(
        vault_url, nightcap={"sheet_export": "discord:sheets"}, extra_plugins=[PerSheet()]
    )
    try:
        await add_characters(chat, 0, 30)
        await make_character(chat, "owner1", "Not Yet")
        # A pool the vault lacks (shown empty at its maximum), one Nightcap does not know, a draft.
        lacking, extra = (await character(chat, "Sheet 003")).id, (await character(chat, "Sheet 004")).id
        async with chat.services.vault.transaction() as session:
            essence = await session.get(Pool, (lacking, "essence"))
            assert essence is not None
            await session.delete(essence)
            session.add(Pool(character_id=extra, name="blood", current=2, maximum=7))
        await ok(chat, "st unapprove Not Yet", **ST)
        rows, _ = await sync_rows(chat)
        reference = (await ok(chat, "test per-sheet", **ST)).result
        assert reference is not None
        expected = [json.dumps(p) for p in reference["payloads"]]
        assert len(expected) == 30
        assert [(r.platform, r.target) for r in rows] == [("discord", "sheets")] * 30
        assert [json.dumps(r.payload) for r in rows] == expected
    finally:
        await chat.gateway.stop()


async def test_sync_statements_do_not_grow_with_the_sheets(vault_url: str) -> None:
    chat = await start_chat(vault_url, nightcap={"sheet_export": "discord:sheets"})
    try:
        await add_characters(chat, 0, 3)
        await sync_rows(chat)  # the Storyteller's first sight, and the first run of each statement
        few, few_seen = await sync_rows(chat)
        await add_characters(chat, 3, 37)
        many, many_seen = await sync_rows(chat)
        assert (len(few), len(many)) == (3, 40)

        def reads(seen: list[str]) -> list[str]:
            return [s for s in seen if not OUTBOX_INSERT.search(s)]

        assert len(reads(many_seen)) == len(reads(few_seen)), reads(many_seen)
        assert len(many_seen) - len(reads(many_seen)) == 40  # one outbox row per sheet
    finally:
        await chat.gateway.stop()


async def test_a_long_sync_gives_the_loop_back(vault_url: str) -> None:
    """Between slices of ``YIELD_EVERY`` sheets another task runs, even where no query yields."""
    chat = await start_chat(vault_url, nightcap={"sheet_export": "discord:sheets"})
    try:
        sheets = 3 * export.YIELD_EVERY + 1
        await add_characters(chat, 0, sheets)
        turns = 0
        syncing = True

        async def other() -> None:
            nonlocal turns
            while syncing:
                turns += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(other())
        await asyncio.sleep(0)
        before = turns
        await ok(chat, "st sync", **ST)
        syncing = False
        await task
        assert turns - before >= 3
    finally:
        await chat.gateway.stop()
