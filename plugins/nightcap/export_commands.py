"""A character's finished sheet, as text and as a structured ``sheet`` dict (drawn by ``view``), and the
Discord sheet export: the command code that reads the sheets and queues them.

When ``[nightcap] sheet_export = "discord:sheets"`` is set, approval, ``st export NAME`` and ``st sync``
queue one outbox row per sheet for that platform and target, payload ``{"kind": "sheet", "text": ...,
"sheet": {name, status, owner, fields, traits, powers, pools}, "summary": SheetSummary.as_json(),
"owner": ..., "reason": "approve"|"export"|"sync"}``.
The platform's adapter renders and paces them.

``queue_exports`` reads what a batch of sheets needs (pools, owners) in a few queries for the whole
batch rather than per sheet, and gives the event loop back every ``YIELD_EVERY`` sheets: ``st sync``
of a chronicle's every sheet neither holds the loop nor its unit for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from gateway import CommandContext
from gateway.core.payloads import ExportReason, SheetPayload, sheet_payload
from gateway.features.characters import owner_names
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import view
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.store import pool_values, pools_shown, sheet_of

READ_CHUNK = 500  # characters per batched read: well inside either database's parameter limit
YIELD_EVERY = 10  # sheets rendered and queued between giving the loop back (about 2 ms of CPU)


def render_with(
    ctx: CommandContext,
    character: Character,
    sheet: dict[str, Any],
    pools: Mapping[str, tuple[int, int]],
    owner: str,
) -> tuple[str, dict[str, Any]]:
    """(sheet text, structured sheet) from values already read: ``sheet_of``'s sheet,
    ``pools_shown``'s pools, the owner."""
    budget = ctx.settings_for(NightcapSettings).budget
    text = view.sheet_text(character.name, character.status, sheet, pools, owner, budget)
    return text, view.sheet_dict(character.name, character.status, sheet, pools, owner)


async def render(
    ctx: CommandContext, character: Character, owner: str | None = None
) -> tuple[str, dict[str, Any]]:
    """(sheet text, structured sheet) as the character stands now."""
    pools = await pool_values(ctx, character)
    if owner is None:
        owner = (await owner_names(ctx.session, [character.owner_id])).get(character.owner_id, "?")
    return render_with(ctx, character, sheet_of(character), pools, owner)


def export_target(ctx: CommandContext) -> tuple[str, str] | None:
    target = ctx.settings_for(NightcapSettings).sheet_export
    return repo.split_target(target) if target else None


def export_payload(
    ctx: CommandContext,
    character: Character,
    rows: Mapping[str, tuple[int, int]],
    owner: str,
    reason: ExportReason,
) -> SheetPayload:
    """One sheet's export row from its pool ``rows`` as read (every pool, by name) and its owner."""
    sheet = sheet_of(character)  # normalised once: it copies the whole sheet
    text, shown = render_with(ctx, character, sheet, pools_shown(ctx, sheet, rows), owner)
    summary = ctx.services.plugins.sheet_summary(character, dict(rows), ctx.locale)
    return sheet_payload(
        text, shown, summary=summary, owner=shown["owner"], reason=reason, character_id=character.id
    )


async def queue_exports(
    ctx: CommandContext, characters: Sequence[Character], reason: ExportReason
) -> str | None:
    """Queue each sheet, in order, for the configured export; returns the target, or None when none
    is configured."""
    target = export_target(ctx)
    if target is None:
        return None
    done, many = 0, len(characters) > 1
    for start in range(0, len(characters), READ_CHUNK):
        chunk = characters[start : start + READ_CHUNK]
        if many:
            await asyncio.sleep(0)  # after the caller's read of the characters
        ids = [c.id for c in chunk if c.id is not None]
        pools = await repo.pools_of_many(ctx.session, ids)
        owners = await owner_names(ctx.session, [c.owner_id for c in chunk])
        for character in chunk:
            if many and done % YIELD_EVERY == 0:  # the first slice follows the reads
                await asyncio.sleep(0)  # let other requests run between slices of a long sync
            rows = pools.get(character.id, {}) if character.id is not None else {}
            owner = owners.get(character.owner_id, "?")
            await ctx.enqueue(*target, export_payload(ctx, character, rows, owner, reason))
            done += 1
    if many:
        await asyncio.sleep(0)  # and before the caller's audit and commit
    return f"{target[0]}:{target[1]}"


async def queue_export(ctx: CommandContext, character: Character, reason: ExportReason) -> str | None:
    """Queue one sheet for the configured export; returns the target, or None when none is configured."""
    return await queue_exports(ctx, [character], reason)
