"""A character's portrait and biography on its web sheet (issue 34: "an optional portrait (an uploaded
image, size-limited, stored in the vault, served with the right content type) and biography"), in a
real browser: uploaded, checked by its bytes, served only to whoever may see the sheet with its type,
``nosniff`` and an ETag, refused in one line beside the field with a 4xx, removed; the biography
written in paragraphs from the sheet, escaped, the same one ``char bio`` shows in chat."""

from __future__ import annotations

import io
import random
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from PIL import Image
from sqlmodel import select

from gateway.features.profiles import picture_kind as sniff
from gateway.vault.models import Character, CharacterProfile
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, csrf_of, say
from tests.web.test_sheet_pages import made, st_page
from tests.web.watch import XSS

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


def picture(kind: str = "PNG", size: tuple[int, int] = (40, 60)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (120, 30, 40)).save(out, kind)
    return out.getvalue()


async def upload(page: Any, name: str, data: bytes, mime: str = "image/png") -> int:
    """Chooses the file and sends the portrait form; the status of the answer."""
    await page.set_input_files("#portrait-file", files=[{"name": name, "mimeType": mime, "buffer": data}])
    async with page.expect_response(
        lambda r: r.url.endswith("/portrait") and r.request.method == "POST"
    ) as sent:
        await page.click("#upload-portrait")
    await page.wait_for_load_state()
    return int((await sent.value).status)


async def kept(served: Site) -> list[tuple[str, str]]:
    async with served.gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(CharacterProfile))).all()
    return [(r.portrait_type, r.biography) for r in rows if r.portrait is not None or r.biography]


async def mira_s_sheet(site: SiteMaker, new_page: PageMaker, **settings: Any) -> tuple[Site, Character, Any]:
    """A site, Mira made in chat, and her player's browser (phone width) on her sheet."""
    served = await site(extra_plugins=ACCOUNT, **settings)
    mira = await made(served, "nightcap", "char new Mira")
    page = await new_page(phone=True)
    await browser_sign_in(served, page)
    await page.goto(served.url(f"/me/c/{mira.id}"))
    return served, mira, page


def test_the_type_is_read_from_the_bytes_not_the_name() -> None:
    assert sniff(picture("PNG")) == ("image/png", 40, 60)
    assert sniff(picture("JPEG")) == ("image/jpeg", 40, 60)
    assert sniff(picture("WEBP")) == ("image/webp", 40, 60)
    assert sniff(picture("GIF")) == ("image/gif", 40, 60)
    assert sniff(picture("BMP")) is None  # an image, but not one every browser shows
    assert sniff(b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>") is None
    assert sniff(picture("PNG")[:20]) is None  # a header cut short
    assert sniff(b"\x89PNG\r\n\x1a\n" + b"<html>" * 20) is None  # the magic alone is not a picture


async def test_a_portrait_is_uploaded_served_to_who_may_see_the_sheet_and_removed(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served, mira, page = await mira_s_sheet(site, new_page)
    assert await page.locator(".portrait-picture").count() == 0
    data = picture("WEBP", (300, 400))
    assert await upload(page, "me.png", data) == 303  # kept, then the sheet; the name says PNG
    image = page.locator(".portrait-picture")
    assert await image.get_attribute("alt") == "Portrait of Mira"
    assert await image.evaluate("i => i.complete && i.naturalWidth") == 300  # the browser drew it
    path = f"/c/{mira.id}/portrait"

    # The owner's browser: the checked type, nosniff, an ETag that a reload revalidates.
    got = await page.request.get(served.url(path))
    assert got.status == 200 and await got.body() == data
    assert got.headers["content-type"] == "image/webp"
    assert got.headers["x-content-type-options"] == "nosniff"
    tag = got.headers["etag"]
    again = await page.request.get(served.url(path), headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["etag"] == tag

    # Nobody else's: signed out, another player (as if there were none); a Storyteller sees it.
    async with aiohttp.ClientSession() as anonymous, anonymous.get(served.url(path)) as response:
        assert response.status == 404
    await say(served, "char new Zed", "zed")
    await client_sign_in(served, "zed")
    assert (await served.client.get(path)).status == 404
    st = await st_page(served, new_page, mira)
    assert await st.locator(".portrait-picture").evaluate("i => i.naturalWidth") == 300
    assert await st.locator("#portrait-file").count() == 0  # the owner's to set
    await upload(page, "again.jpg", picture("JPEG"))
    await st.reload()
    await st.click("#remove-portrait")  # but a Storyteller takes one unfit for the table off
    await st.wait_for_selector("#remove-portrait", state="detached")
    assert await st.locator(".portrait-picture").count() == 0
    history = await st.locator("table.history tbody tr").all_text_contents()
    assert sum("portrait" in " ".join(row.split()) for row in history) == 3, history  # set, set, removed
    await page.reload()
    assert await page.locator(".portrait-picture").count() == 0
    assert await upload(page, "me.png", data) == 303

    await page.click("#remove-portrait")
    await page.wait_for_selector("#remove-portrait", state="detached")
    assert await page.locator(".portrait-picture").count() == 0
    assert (await page.request.get(served.url(path))).status == 404
    assert await kept(served) == []


async def test_what_is_not_a_portrait_is_refused_beside_the_field_in_the_sheet_s_language(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served, mira, page = await mira_s_sheet(site, new_page, web={"portrait_kib": 16})
    assert "at most 16 KiB" in ((await page.text_content("label[for=portrait-file]")) or "")
    assert await upload(page, "fine.png", b"<html><script>alert(1)</script></html>") == 415
    assert await page.text_content("#error-portrait") == "That file is not a PNG, JPEG, WebP or GIF picture."
    assert await page.get_attribute("#portrait-file", "aria-invalid") == "true"
    noisy = Image.frombytes("L", (200, 200), random.Random(1).randbytes(200 * 200))  # 40 KB, not compressible
    out = io.BytesIO()
    noisy.save(out, "PNG")
    assert await upload(page, "big.png", out.getvalue()) == 413
    assert (
        await page.text_content("#error-portrait")
        == "That picture is too large: a portrait is at most 16 KiB."
    )
    assert await upload(page, "wide.gif", picture("GIF", (5000, 2))) == 422
    assert await page.text_content("#error-portrait") == (
        "That picture is 5000 × 2 pixels: a portrait is at most 4096 × 4096."
    )
    async with page.expect_response(lambda r: r.request.method == "POST") as sent:
        await page.click("#upload-portrait")  # no file chosen
    assert (await sent.value).status == 400
    assert await page.text_content("#error-portrait") == "Choose a picture to upload first."
    assert await kept(served) == []
    # Czech on a Czech sheet.
    await page.goto(served.url(f"/me/c/{mira.id}?lang=cs"))
    assert await upload(page, "x.png", b"GIF89a nothing") == 415
    assert await page.text_content("#error-portrait") == "Tento soubor není obrázek PNG, JPEG, WebP ani GIF."


async def test_a_biography_is_written_on_the_sheet_in_paragraphs_escaped_and_read_in_chat(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served, _, page = await mira_s_sheet(site, new_page)
    assert await page.text_content(".sheet-bio .none") == "No biography yet."
    await page.fill("#f-bio", f"Born under the old bridge.\n\n'Tis said she {XSS}\nkeeps her word.")
    await page.click("#save-sheet")
    await page.wait_for_selector(".sheet-bio .prose")
    shown = await page.locator(".sheet-bio .prose").all_text_contents()
    assert shown == ["Born under the old bridge.", f"'Tis said she {XSS} keeps her word."]
    assert await page.locator(".sheet-bio img, .sheet-bio script").count() == 0  # text, not markup
    (reply,) = await say(served, "char bio")
    assert (
        reply.text == f"Mira's biography:\nBorn under the old bridge.\n\n'Tis said she {XSS} keeps her word."
    )
    # Too long: refused beside it, what was typed kept, nothing changed.
    long = "word " * 320
    await page.locator("#f-bio").evaluate("(area, text) => { area.value = text; }", long)  # past maxlength
    await page.click("#save-sheet")
    await page.wait_for_selector("#error-bio")
    assert (
        await page.text_content("#error-bio") == "A biography is at most 1500 characters; this one has 1599."
    )
    assert (await page.input_value("#f-bio")).strip() == long.strip()
    assert len(await page.locator(".sheet-bio .prose").all_text_contents()) == 2
    # Emptied: removed.
    await page.fill("#f-bio", "")
    await page.click("#save-sheet")
    await page.wait_for_selector(".sheet-bio .none")
    assert await kept(served) == []


async def test_an_upload_without_its_csrf_token_or_from_another_site_keeps_nothing(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    mira = await made(served, "nightcap", "char new Mira")
    await client_sign_in(served, "mira")
    csrf = await csrf_of(served, f"/me/c/{mira.id}")

    def form(token: str | None) -> aiohttp.FormData:
        data = aiohttp.FormData()
        if token is not None:
            data.add_field("csrf", token)
        data.add_field("action", "upload")
        data.add_field("portrait", picture(), filename="p.png", content_type="image/png")
        return data

    path = f"/me/c/{mira.id}/portrait"
    for token in (None, "0" * 64):
        assert (await served.client.post(path, data=form(token))).status == 403
    cross = await served.client.post(path, data=form(csrf), headers={"Origin": "https://evil.example"})
    assert cross.status == 403
    assert await kept(served) == []
    done = await served.client.post(path, data=form(csrf), allow_redirects=False)
    assert done.status == 303 and [t for t, _ in await kept(served)] == ["image/png"]


async def test_a_body_past_what_any_request_may_carry_is_refused_as_too_large_not_as_an_error(
    site: SiteMaker,
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    mira = await made(served, "nightcap", "char new Mira")
    await client_sign_in(served, "mira")
    data = aiohttp.FormData()
    data.add_field("csrf", await csrf_of(served, f"/me/c/{mira.id}"))
    data.add_field("portrait", b"\x89PNG\r\n\x1a\n" + bytes(2 * 1024 * 1024), filename="huge.png")
    response = await served.client.post(f"/me/c/{mira.id}/portrait", data=data)
    assert response.status == 413
    assert "That picture is too large: a portrait is at most 512 KiB." in await response.text()
    assert await kept(served) == []
