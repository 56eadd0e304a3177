"""A portrait and biography moved with ``gateway export characters`` / ``gateway import characters``
are the web sheet's own on the new gateway: the same bytes served at ``/c/ID/portrait`` with their
type and tag, drawn by a real browser, and the same paragraphs; and an import reads a picture as the
web's upload does."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlmodel import select

from gateway.features import profiles
from gateway.testing import start_chat
from gateway.vault.models import Character
from tests.core.test_transfer import export, import_
from tests.core.test_transfer_profile import BIO, picture, with_profile
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def test_an_imported_portrait_is_served_byte_for_byte_and_drawn_on_the_sheet(
    site: SiteMaker, new_page: PageMaker, vault_url: str, tmp_path: Path
) -> None:
    data = picture("JPEG", (300, 400))
    source_url = f"sqlite+aiosqlite:///{tmp_path / 'source.db'}"
    source = await start_chat(source_url)
    try:
        await with_profile(source, data, "image/jpeg")
    finally:
        await source.stop()
    path = tmp_path / "mira.json"
    assert await asyncio.to_thread(export, source_url, path) == 0

    served = await site(extra_plugins=ACCOUNT)  # on the vault the file goes into (either engine)
    assert await asyncio.to_thread(import_, vault_url, path) == 0
    async with served.gateway.services.vault.transaction() as session:
        mira = (await session.exec(select(Character))).one()
    page = await new_page(phone=True)
    await browser_sign_in(served, page)  # console:mira, the identity that came with the file
    await page.goto(served.url(f"/me/c/{mira.id}"))
    assert await page.locator(".portrait-picture").evaluate("i => i.complete && i.naturalWidth") == 300
    shown = await page.locator(".sheet-bio .prose").all_text_contents()
    assert shown == profiles.paragraphs(BIO)  # the markup in it is text
    got = await page.request.get(served.url(f"/c/{mira.id}/portrait"))
    assert got.status == 200 and await got.body() == data
    assert got.headers["content-type"] == "image/jpeg"
    assert got.headers["etag"] == f'"{hashlib.sha256(data).hexdigest()}"'
