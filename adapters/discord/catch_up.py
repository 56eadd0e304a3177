"""Gateway mode: prefix commands a process never answered, caught up through REST by the next session.

Discord replays missed events only to a RESUME of the same session; a process that takes the Gateway
over from a dead one identifies a new session, and what Discord sent the old one in its last seconds
is gone from the websocket. Messages stay in their channels, though: the adapter remembers, per
channel, the last prefix command it handled (``kv`` scope ``discord.prefix``), and when a session
becomes READY it asks ``GET /channels/{id}/messages?after=<that id>`` for each channel with prefix
activity in the last ``WINDOW`` seconds, and hands the messages, oldest first, to the same handler as
MESSAGE_CREATE. The router refuses a message id it has seen (``message:<id>``), so a message the dead
process did answer is not answered again. Bounded: ``MAX_CHANNELS`` channels, one page of ``LIMIT``
messages each, nothing older than ``WINDOW`` (answering an hour-old ``!roll`` would surprise more
than it helps). Reading history needs the Read Message History permission (the set-up's invite asks
for it when prefix commands are on); a channel that refuses is skipped with a log line.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import aiohttp
import structlog

from gateway.core.adapter_state import AdapterState

log = structlog.get_logger(__name__)

SCOPE = "discord.prefix"
WINDOW = 600.0  # seconds: channels active, and messages sent, within this long are caught up
MAX_CHANNELS = 50
LIMIT = 100  # Discord's largest page of Get Channel Messages
DISCORD_EPOCH_MS = 1_420_070_400_000  # snowflakes count milliseconds from 2015 (developers/reference.mdx)


def sent_at(snowflake: str) -> float:
    """The Unix time a Discord id was made at."""
    return ((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000


class CatchUp:
    def __init__(self, state: AdapterState, wall: Callable[[], float] = time.time) -> None:
        self.state = state
        self.wall = wall

    async def handled(self, message: Mapping[str, Any]) -> None:
        """Remember ``message`` (a prefix command just handled) as its channel's last."""
        channel, ident = str(message.get("channel_id") or ""), str(message.get("id") or "")
        if not channel.isdigit() or not ident.isdigit():
            return
        known = await self.state.get(channel)
        if known is not None and int(known.get("last") or 0) >= int(ident):
            return
        await self.state.put(channel, {"guild": message.get("guild_id"), "last": ident})

    async def run(
        self,
        http: aiohttp.ClientSession,
        api_base: str,
        headers: Mapping[str, str],
        handle: Callable[[Mapping[str, Any]], Awaitable[None]],
    ) -> int:
        """Fetch and hand on what each recently active channel got after its last handled command;
        the number of messages handed on."""
        since = self.wall() - WINDOW
        channels = [
            (channel, known)
            for channel, known in (await self.state.items()).items()
            if str(known.get("last") or "").isdigit() and sent_at(known["last"]) >= since
        ]
        channels.sort(key=lambda item: int(item[1]["last"]), reverse=True)
        handed = 0
        for channel, known in channels[:MAX_CHANNELS]:
            url = f"{api_base}/channels/{channel}/messages"
            try:
                async with http.get(
                    url, params={"after": known["last"], "limit": str(LIMIT)}, headers=headers
                ) as response:
                    data = await response.json(content_type=None)
                    status = response.status
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                log.warning("discord catch-up failed", channel=channel, error=type(exc).__name__)
                continue
            if status != 200 or not isinstance(data, list):
                log.warning("discord catch-up refused", channel=channel, status=status)
                continue
            missed = [m for m in data if isinstance(m, dict) and str(m.get("id") or "").isdigit()]
            for message in sorted(missed, key=lambda m: int(m["id"])):
                if sent_at(message["id"]) < since:
                    continue
                # Messages read through REST carry no guild_id: the channel's, as it was seen.
                await handle({**message, "guild_id": message.get("guild_id") or known.get("guild")})
                handed += 1
        if handed:
            log.info("discord caught up on prefix commands", messages=handed, channels=len(channels))
        return handed
