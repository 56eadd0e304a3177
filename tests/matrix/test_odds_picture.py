"""An ``odds`` reply's chart as an ``m.image`` after its text (issue 17), against a real Synapse: the
PNG is uploaded to the media repository, the event's ``info`` describes it, and the file read back
from the homeserver is the picture (decoded, with its bars' colours)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from gateway.rules.charts.draw import COLOURS
from tests.matrix.conftest import MatrixUser, Running
from tests.matrix.synapse import Synapse
from tests.matrix.test_rooms import bot_in_room


def images(user: MatrixUser, room: str, sender: str) -> list[dict[str, Any]]:
    return [
        e
        for e in user.rooms.get(room, [])
        if e.get("type") == "m.room.message"
        and (e.get("content") or {}).get("msgtype") == "m.image"
        and e.get("sender") == sender
    ]


async def download(synapse: Synapse, user: MatrixUser, mxc: str) -> bytes:
    """Authenticated media (``/_matrix/client/v1/media/download``), as a current client reads it."""
    assert mxc.startswith("mxc://")
    server, _, media_id = mxc[len("mxc://") :].partition("/")
    url = f"{synapse.url}/_matrix/client/v1/media/download/{server}/{media_id}"
    headers = {"Authorization": f"Bearer {user.access_token}"}
    async with user.session.get(url, headers=headers) as response:
        assert response.status == 200, await response.text()
        assert response.content_type == "image/png"
        return await response.read()


async def test_odds_reply_is_followed_by_its_picture(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [])
    bot = running.account().user_id
    await mira.send(room, "!odds 5 vs 3")
    [image] = await mira.wait_for(lambda: images(mira, room, bot), "the odds picture")
    notices = mira.notices(room, bot)
    assert notices and "Odds 5 dice vs 3 dice" in notices[-1]["content"]["body"]
    timeline = [e["event_id"] for e in mira.rooms[room]]
    assert timeline.index(notices[-1]["event_id"]) < timeline.index(image["event_id"])  # text first
    content = image["content"]
    assert content["body"] == "Nightcap odds" and content["filename"] == "odds.png"
    png = await download(synapse, mira, content["url"])
    info = content["info"]
    assert info["mimetype"] == "image/png" and info["size"] == len(png)
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and (picture.width, picture.height) == (info["w"], info["h"])
    found = {c for _, c in picture.convert("RGB").getcolors(maxcolors=1 << 20) or []}
    assert COLOURS[0] in found and COLOURS[1] in found  # the bars are drawn, not a blank image


async def test_a_roll_sends_no_picture(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    running, mira, room = await bot_in_room(synapse, vault, users, gateways, [8, 3, 5])
    bot = running.account().user_id
    await mira.send(room, "!roll 3")
    await mira.wait_for(lambda: mira.notices(room, bot), "the roll")
    await mira.send(room, "!odds 2")
    await mira.wait_for(lambda: images(mira, room, bot), "the odds picture")
    assert len(images(mira, room, bot)) == 1
