"""An ``odds`` reply's chart as a picture in its embed (issue 17): the PNG uploaded with the message
(multipart/form-data, ``payload_json`` and ``files[0]``) and referenced as ``attachment://odds.png``,
for the interaction's own answer (the callback endpoint), follow-ups and webhook messages. The fake
Discord parses the upload and refuses what Discord documents it refuses."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from nacl.signing import SigningKey
from PIL import Image

from adapters.discord import render
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.rules.charts.draw import COLOURS
from gateway.vault import repo
from tests.discord.conftest import CHANNEL, USER, DiscordEnv, start_env
from tests.discord.fake_discord import FILE_LIMIT, FakeDiscord

pytestmark = pytest.mark.both_modes


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in image.getcolors(maxcolors=1 << 20) or []}


def chart_embed(body: dict[str, Any]) -> dict[str, Any]:
    [embed] = [e for e in body.get("embeds", []) if "image" in e]
    return embed


@pytest.fixture
async def inline(sqlite_url: str, fake: FakeDiscord, key: SigningKey, mode: str) -> AsyncIterator[DiscordEnv]:
    """Odds worked out on the loop (``offload_workers = 0``), so the answer always comes within the
    interaction's 3 seconds and this test is about the callback, not the pool's start."""
    hooks = {"stlog": fake.add_webhook("200"), "table": fake.add_webhook("202")}
    env = await start_env(sqlite_url, fake, key, hooks, {"gateway": {"offload_workers": 0}}, mode=mode)
    yield env
    await env.client.close()


async def test_odds_answer_carries_its_chart_as_an_uploaded_png(inline: DiscordEnv) -> None:
    payload = inline.interaction("odds", [{"name": "pool", "type": 3, "value": "5 vs 3"}])
    body = json.dumps(payload).encode()
    response = await inline.post(body, inline.sign(body))
    assert response.status == 202, await response.text()
    assert await response.read() == b""
    answer = inline.fake.callbacks[payload["id"]]
    assert answer.body["type"] == 4
    data = answer.body["data"]
    assert "5 dice vs 3 dice" in data["content"]  # the text stays the whole answer
    assert chart_embed(data)["image"] == {"url": "attachment://odds.png"}
    assert data["attachments"] == [{"id": 0, "filename": "odds.png", "description": "Nightcap odds"}]
    assert render.CHART not in data
    image = decoded(answer.files["odds.png"])
    assert image.width == 640 and image.height > 300  # three panels: degrees, contest, theirs
    found = colours(image)
    assert COLOURS[0] in found and COLOURS[1] in found and COLOURS[2] in found


async def test_the_chart_is_in_the_readers_language(inline: DiscordEnv) -> None:
    await inline.gateway.services.handle(
        InboundMessage(Identity("discord", USER, "mira"), Channel("discord", CHANNEL), "lang cs")
    )
    payload = inline.interaction("odds", [{"name": "pool", "type": 3, "value": "4"}])
    body = json.dumps(payload).encode()
    response = await inline.post(body, inline.sign(body))
    assert response.status == 202
    answer = inline.fake.callbacks[payload["id"]]
    assert answer.body["data"]["attachments"][0]["description"] == "Šance v Nightcapu"
    assert chart_embed(answer.body["data"])["title"] == "Šance v Nightcapu"
    assert decoded(answer.files["odds.png"]).width == 640


async def test_without_a_font_the_answer_is_text_as_before(
    sqlite_url: str, fake: FakeDiscord, key: SigningKey, mode: str
) -> None:
    sections = {"gateway": {"offload_workers": 0, "chart_font": "/nonexistent/font.ttf"}}
    env = await start_env(sqlite_url, fake, key, {"stlog": fake.add_webhook()}, sections, mode=mode)
    try:
        answer = await env.command("odds", [{"name": "pool", "type": 3, "value": "5"}])
    finally:
        await env.client.close()
    assert answer["type"] == 4
    assert answer["data"]["content"].startswith("Odds for 5 dice")
    assert "attachments" not in answer["data"] and render.CHART not in answer["data"]
    assert not any("image" in e for e in answer["data"].get("embeds", []))
    # No file went anywhere: the endpoint answered on the response, the Gateway mode by a plain callback.
    assert all(not c.files for c in fake.callbacks.values())
    assert len(fake.callbacks) == (1 if mode == "gateway" else 0)


async def test_webhook_message_with_a_chart_is_multipart(inline: DiscordEnv) -> None:
    """A reply queued for a channel (an outbox row with the reply's result) gets its picture too,
    drawn when the row is delivered."""
    result = await _odds_result(inline, "6")
    async with inline.gateway.services.vault.transaction() as session:
        await repo.enqueue(session, "discord", "table", {"kind": "reply", "text": "odds 6", "result": result})
    inline.gateway.outbox.wake()
    hook = inline.hooks["table"].id
    await inline.until(lambda: any(r.webhook_id == hook for r in inline.fake.received))
    [got] = [r for r in inline.fake.received if r.webhook_id == hook]
    assert chart_embed(got.body)["image"]["url"] == "attachment://odds.png"
    image = decoded(got.files["odds.png"])
    assert COLOURS[0] in colours(image)


async def _odds_result(env: DiscordEnv, pool: str) -> dict[str, Any]:
    replies = await env.gateway.services.handle(
        InboundMessage(Identity("console", "op", "op"), Channel("console", "c"), f"odds {pool}")
    )
    assert replies[0].result and "chart" in replies[0].result
    return replies[0].result


async def test_follow_up_carries_the_picture(inline: DiscordEnv) -> None:
    result = await _odds_result(inline, "3")
    payload = inline.interaction("odds")
    body = render.reply_message("Odds for 3 dice", False, result)
    assert render.CHART in body
    await inline.adapter._enqueue_follow_ups(payload, [body], inline.adapter.wall())
    await inline.until(lambda: any(r.follow_up for r in inline.fake.received))
    [got] = [r for r in inline.fake.received if r.follow_up]
    assert render.CHART not in got.body
    assert chart_embed(got.body)["image"]["url"] == "attachment://odds.png"
    assert decoded(got.files["odds.png"]).width == 640


# --------------------------------------------------------------------------- the fake's refusals


async def _post(url: str, **kw: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.post(url, params={"wait": "true"}, **kw) as r:
        return r.status, await r.json()


def _form(body: dict[str, Any], files: list[tuple[str, bytes, str]]) -> aiohttp.FormData:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for i, (name, data, kind) in enumerate(files):
        form.add_field(f"files[{i}]", data, filename=name, content_type=kind)
    return form


PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


@pytest.mark.endpoint_only
async def test_fake_refuses_what_discord_documents(fake: FakeDiscord) -> None:
    hook = fake.add_webhook()
    url = f"{fake.base_url}/webhooks/{hook.id}/{hook.token}"
    image = {"embeds": [{"image": {"url": "attachment://odds.png"}}]}
    # A reference to a file the request does not carry, in JSON and in multipart.
    status, data = await _post(url, json=image)
    assert status == 400 and "not uploaded" in str(data["errors"])
    status, data = await _post(url, data=_form(image, [("other.png", PNG, "image/png")]))
    assert status == 400 and "not uploaded" in str(data["errors"])
    # Not an image type embeds show.
    status, data = await _post(url, data=_form(image, [("odds.png", PNG, "text/plain")]))
    assert status == 400 and "not an image" in str(data["errors"])
    # Past the 10 MiB a file.
    big = b"\0" * (FILE_LIMIT + 1)
    status, data = await _post(url, data=_form(image, [("odds.png", big, "image/png")]))
    assert status == 400 and "larger than" in str(data["errors"])
    # No payload_json, or a file part without a filename.
    form = aiohttp.FormData()
    form.add_field("files[0]", PNG, filename="odds.png", content_type="image/png")
    status, data = await _post(url, data=form)
    assert status == 400 and "payload_json" in str(data["errors"])
    # The documented shape is taken, and the file kept.
    status, _ = await _post(url, data=_form(image, [("odds.png", PNG, "image/png")]))
    assert status == 200
    assert fake.received[-1].files == {"odds.png": PNG}
