"""Who a person is on each platform: the identity keys linked to a person."""

from __future__ import annotations

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import IdentityLink


async def identity_keys(session: AsyncSession, person_id: int, platform: str) -> list[str]:
    """The person's identity keys (``sl:<uuid>``) on ``platform``, in a stable order."""
    found = await session.exec(
        select(IdentityLink.key)
        .where(col(IdentityLink.person_id) == person_id, col(IdentityLink.platform) == platform)
        .order_by(col(IdentityLink.key))
    )
    return list(found.all())
