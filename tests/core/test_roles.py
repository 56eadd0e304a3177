"""The one Storyteller rule (gateway/features/roles.py), on SQLite and PostgreSQL: the vault owner, every
identity linked to the owner's person, every person with the role, and nobody else."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gateway.features.roles import is_storyteller
from gateway.testing import Chat, start_chat
from gateway.vault import repo
from gateway.vault.models import IdentityLink, Person

OWNER = "console:owner"


@pytest.fixture
async def owned(vault_url: str) -> AsyncIterator[Chat]:
    chat = await start_chat(vault_url)
    chat.services.settings.vault.owner = OWNER
    yield chat
    await chat.gateway.stop()


async def link(chat: Chat, key: str, to: str) -> None:
    """``key`` becomes another identity of ``to``'s person."""
    async with chat.services.vault.transaction() as session:
        person = (await session.get(IdentityLink, to)).person_id  # type: ignore[union-attr]
        session.add(IdentityLink(key=key, person_id=person, platform=key.partition(":")[0], display_name="x"))


async def check(chat: Chat, key: str) -> bool:
    async with chat.services.vault.unit() as unit:
        return await is_storyteller(unit, key, OWNER)


async def test_the_owner_and_the_owners_other_identities_are_storytellers(owned: Chat) -> None:
    assert await check(owned, OWNER)  # even before the owner has ever spoken
    await owned.say("help", as_="owner")
    await link(owned, "discord:77", OWNER)
    assert await check(owned, "discord:77")
    async with owned.services.vault.transaction() as session:
        assert await is_storyteller(session, "discord:77", OWNER)  # a session works as well as a unit
        assert not await is_storyteller(session, "discord:77", None)  # no owner configured: no role


async def test_the_role_belongs_to_the_person_and_strangers_have_none(owned: Chat) -> None:
    assert not await check(owned, "console:nobody")  # never seen
    await owned.say("help", as_="bea")
    assert not await check(owned, "console:bea")
    assert (await owned.one("st add console:bea", as_="owner")).error is None
    await link(owned, "discord:88", "console:bea")
    assert await check(owned, "console:bea") and await check(owned, "discord:88")


async def test_the_router_uses_what_it_already_knows_of_the_sender(owned: Chat) -> None:
    """The router passes the sender's (person id, flag): no query for the person, the same answer."""
    await owned.say("help", as_="bea")
    async with owned.services.vault.transaction() as session:
        bea = (await session.get(IdentityLink, "console:bea")).person_id  # type: ignore[union-attr]
        assert await is_storyteller(session, "console:bea", OWNER, (bea, True))
        assert not await is_storyteller(session, "console:bea", OWNER, (bea, False))
        person = await session.get(Person, bea)
        assert person is not None and not person.storyteller
    assert (await owned.one("st list", as_="bea")).error == "forbidden"
    assert (await owned.one("st list", as_="owner")).error is None
    await link(owned, "discord:77", OWNER)
    assert (await owned.one("st list", as_="77", platform="discord")).error is None


async def test_the_router_reads_the_owners_person_with_the_sender(
    owned: Chat, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner's person comes with the sender's own query: no statement of its own per command."""
    await owned.say("help", as_="owner")
    await owned.say("help", as_="bea")
    await link(owned, "discord:77", OWNER)
    await owned.say("help", as_="77", platform="discord")  # first sight: its rows are made

    async def no_lookup(*_: object) -> None:
        raise AssertionError("the owner's person was looked up on its own")

    monkeypatch.setattr(repo, "person_of", no_lookup)
    assert (await owned.one("st list", as_="77", platform="discord")).error is None
    assert (await owned.one("st list", as_="bea")).error == "forbidden"
    assert (await owned.one("st list", as_="owner")).error is None
