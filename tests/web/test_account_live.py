"""The live Storyteller log's stream over real HTTP: rolls from chat arrive as server-sent events,
filtered by character; on PostgreSQL a roll committed by another gateway process arrives too
(``gateway.vault.notify``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import ClientResponse
from sqlmodel import col, select

from gateway.core.dice import ScriptedDice
from gateway.vault.models import Character
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]


async def _event(stream: ClientResponse, timeout: float = 20.0) -> dict[str, Any]:
    """The next ``data:`` event of a stream (comments skipped)."""

    async def read() -> dict[str, Any]:
        while True:
            line = (await stream.content.readline()).decode()
            if line.startswith("data: "):
                return json.loads(line[6:])  # type: ignore[no-any-return]

    return await asyncio.wait_for(read(), timeout)


async def _open(served: Site, query: str = "") -> ClientResponse:
    stream = await served.client.get("/st/log/stream" + query)
    assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
    assert (await stream.content.readline()).startswith(b": live")
    return stream


async def test_the_stream_sends_each_roll_and_a_character_filter_keeps_to_it(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 5, 10, 8, 2, 3, 7, 7]))
    await say(served, "char new Mira")
    await say(served, "char new Cole", "cole")
    await say(served, "st add console:sam", "owner", st=True)
    for name in ("Mira", "Cole"):  # only an approved sheet rolls
        await say(served, f"st approve {name} force", "owner", st=True)
    await client_sign_in(served, "sam")
    async with served.gateway.services.vault.transaction() as session:
        cole = (await session.exec(select(Character).where(col(Character.name) == "Cole"))).one()
    everything = await _open(served)
    coles = await _open(served, f"?character={cole.id}")
    (mira_roll,) = await say(served, "roll physical")
    (cole_roll,) = await say(served, "roll physical", "cole")
    first = await _event(everything)
    assert first["id"] == mira_roll.result["id"] and first["character"] == "Mira"  # type: ignore[index]
    assert first["platform"] == "console" and first["text"].startswith("Mira rolls")
    assert (await _event(everything))["id"] == cole_roll.result["id"]  # type: ignore[index]
    only = await _event(coles)
    assert only["id"] == cole_roll.result["id"] and only["character_id"] == cole.id  # type: ignore[index]
    everything.close()
    coles.close()


@pytest.mark.postgres
async def test_a_roll_committed_by_another_gateway_process_reaches_the_stream(
    site: SiteMaker, vault_url: str
) -> None:
    if not vault_url.startswith("postgresql"):
        pytest.skip("one SQLite vault is one process: no other process to hear from")
    watching = await site(extra_plugins=ACCOUNT)
    rolling = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9]))
    await say(rolling, "st add console:sam", "owner", st=True)
    await client_sign_in(watching, "sam")
    await watching.gateway.listener.connected.wait()  # type: ignore[union-attr]
    stream = await _open(watching)
    (rolled,) = await say(rolling, "roll 3")
    assert (await _event(stream))["id"] == rolled.result["id"]  # type: ignore[index]
    stream.close()


async def test_an_open_stream_ends_at_its_next_keep_alive_once_the_role_is_gone(
    site: SiteMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adapters.web.account import live

    monkeypatch.setattr(live, "HEARTBEAT", 0.2)
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    stream = await _open(served)
    await say(served, "st remove console:sam", "owner", st=True)

    async def ended() -> None:
        while await stream.content.readline():
            pass  # keep-alives until the server closes it

    await asyncio.wait_for(ended(), 20)
    stream.close()


async def test_a_roll_by_another_process_on_the_same_sqlite_file_reaches_the_stream(
    site: SiteMaker, vault_url: str
) -> None:
    """Two gateways on one SQLite file, as ``serve`` and a console beside it: no event crosses
    between them, only the vault's change signal (``PRAGMA data_version``)."""
    if not vault_url.startswith("sqlite"):
        pytest.skip("PostgreSQL carries it by notification (the test above)")
    watching = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([4]))
    rolling = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([10, 7, 1, 9, 9]), platforms=("console",))
    await say(rolling, "st add console:sam", "owner", st=True)
    await client_sign_in(watching, "sam")
    stream = await _open(watching)
    (rolled,) = await say(rolling, "roll 3")
    got = await _event(stream)
    assert got["id"] == rolled.result["id"]  # type: ignore[index]
    assert got["sides"] == [
        {
            "dice": [10, 7, 1],
            "total": got["sides"][0]["total"],
            "degree": got["sides"][0]["degree"],
            "label": got["sides"][0]["label"],
            "tone": got["sides"][0]["tone"],
        }
    ]
    assert got["sides"][0]["tone"] in {"botch", "failure", "partial", "success", "strong", "best"}
    (approved,) = await say(rolling, "roll 2", "sam")  # and the next one: each once, in order
    again = await _event(stream)
    assert again["id"] == approved.result["id"]  # type: ignore[index]
    # Nothing sent twice: this process's own roll wakes the same reader, not a second path.
    (own,) = await say(watching, "roll 1", "sam")
    assert (await _event(stream))["id"] == own.result["id"]  # type: ignore[index]
    stream.close()
