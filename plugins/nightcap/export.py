"""A character's finished sheet, as text and as a structured ``sheet`` dict, and the Discord sheet export.

When ``[nightcap] sheet_export = "discord:sheets"`` is set, approval, ``st export NAME`` and ``st sync``
queue one outbox row per sheet for that platform and target, payload ``{"kind": "sheet", "text": ...,
"sheet": {name, status, owner, fields, traits, powers, pools}, "summary": SheetSummary.as_json(),
"owner": ..., "reason": "approve"|"export"|"sync"}``.
The platform's adapter renders and paces them.
"""

from __future__ import annotations

from typing import Any

from gateway import CommandContext
from gateway.characters import owner_names
from gateway.payloads import ExportReason, sheet_payload
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import view
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.store import pool_values, sheet_of


async def render(
    ctx: CommandContext, character: Character, owner: str | None = None
) -> tuple[str, dict[str, Any]]:
    """(sheet text, structured sheet) as the character stands now."""
    sheet = sheet_of(character)
    pools = await pool_values(ctx, character)
    if owner is None:
        owner = (await owner_names(ctx.session, [character.owner_id])).get(character.owner_id, "?")
    budget = ctx.settings_for(NightcapSettings).budget
    text = view.sheet_text(character.name, character.status, sheet, pools, owner, budget)
    return text, view.sheet_dict(character.name, character.status, sheet, pools, owner)


def export_target(ctx: CommandContext) -> tuple[str, str] | None:
    target = ctx.settings_for(NightcapSettings).sheet_export
    return repo.split_target(target) if target else None


async def queue_export(ctx: CommandContext, character: Character, reason: ExportReason) -> str | None:
    """Queue the sheet for the configured export; returns the target, or None when none is configured."""
    target = export_target(ctx)
    if target is None:
        return None
    text, sheet = await render(ctx, character)
    summary = await ctx.services.plugins.load_summary(ctx.session, character, ctx.locale)
    payload = sheet_payload(
        text, sheet, summary=summary, owner=sheet["owner"], reason=reason, character_id=character.id
    )
    await ctx.enqueue(target[0], target[1], payload)
    return f"{target[0]}:{target[1]}"
