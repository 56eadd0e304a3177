"""The load client: ``roll 3`` through ``POST /api/v1/command``, paced, bounded in concurrency.

Every command has its own ``Idempotency-Key`` and its own display name (``f<seq>``, kept on its
roll-log row, so the report can tell which command each roll came from). A request that got no
answer (refused, reset, timed out) or a 5xx is sent again with the same key, to the next gateway in
the list, until it is answered or ``give_up`` seconds have passed since the first try.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.fault.cluster import TOKEN


def _roll_id(replies: list[dict[str, Any]] | None) -> str | None:
    for reply in replies or []:
        result = reply.get("result") or {}
        if result.get("kind") == "roll" and result.get("id"):
            return str(result["id"])
    return None


@dataclass
class Command:
    seq: int
    key: str
    first_at: float = 0.0
    answered_at: float | None = None
    attempts: int = 0
    no_answer: int = 0  # attempts that got no HTTP answer
    server_errors: int = 0  # attempts answered 5xx
    status: int | None = None  # of the answer that ended it
    replies: list[dict[str, Any]] | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"f{self.seq}"

    lost_answer: bool = False  # the client dropped the first answer on purpose (Load.lose_every)
    first_roll_id: str | None = None  # the roll id in that dropped answer

    @property
    def roll_id(self) -> str | None:
        return _roll_id(self.replies)

    @property
    def answered(self) -> bool:
        return self.status == 200


@dataclass
class Load:
    urls: Callable[[], Sequence[str]]  # the gateways to spread over (read at each attempt)
    count: int
    rate: float  # commands started per second
    concurrency: int = 16
    timeout: float = 15.0
    give_up: float = 120.0
    text: str = "roll 3"
    # Every ``lose_every``-th command's first answer is dropped by the client, as if the connection
    # broke on the way back: it asks again with the same key and should get the same replies.
    lose_every: int = 0
    commands: list[Command] = field(default_factory=list)
    started_at: float = 0.0
    finished_at: float = 0.0

    async def run(self) -> list[Command]:
        self.commands = [Command(i, f"fault-{uuid.uuid4().hex}") for i in range(self.count)]
        gate = asyncio.Semaphore(self.concurrency)
        connector = aiohttp.TCPConnector(limit=self.concurrency * 2)
        client_timeout = aiohttp.ClientTimeout(total=self.timeout)
        self.started_at = time.time()
        start = time.monotonic()
        async with aiohttp.ClientSession(connector=connector, timeout=client_timeout) as http:

            async def one(command: Command) -> None:
                async with gate:
                    await self._send(http, command)

            tasks = []
            for command in self.commands:
                delay = start + command.seq / self.rate - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                tasks.append(asyncio.create_task(one(command)))
            await asyncio.gather(*tasks)
        self.finished_at = time.time()
        return self.commands

    async def _send(self, http: aiohttp.ClientSession, command: Command) -> None:
        command.first_at = time.time()
        deadline = time.monotonic() + self.give_up
        body = {"text": self.text, "channel": "fault", "name": command.name}
        headers = {"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": command.key}
        pause = 0.1
        while True:
            urls = list(self.urls())
            url = urls[(command.seq + command.attempts) % len(urls)]
            command.attempts += 1
            try:
                async with http.post(url + "/api/v1/command", json=body, headers=headers) as response:
                    status = response.status
                    data = await response.json(content_type=None) if status == 200 else None
                    lose = self.lose_every and command.seq % self.lose_every == 0 and command.attempts == 1
                    if status == 200 and lose:
                        command.lost_answer = True
                        command.first_roll_id = _roll_id((data or {}).get("replies"))
                    elif status < 500:
                        command.status = status
                        command.replies = (data or {}).get("replies") if status == 200 else None
                        command.answered_at = time.time()
                        return
                    else:
                        command.server_errors += 1
                        command.errors.append(f"{status}")
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                command.no_answer += 1
                command.errors.append(type(exc).__name__)
            if time.monotonic() + pause > deadline:
                return
            await asyncio.sleep(pause)
            pause = min(1.0, pause * 1.5)
