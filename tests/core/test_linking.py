"""One person across platforms: link codes, merging, unlinking, rate limits."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import col, select

from gateway.testing import Chat, start_chat
from gateway.vault.models import IdentityLink, Person
from tests.nightcap.helpers import build, ok, refused

DISCORD = {"platform": "discord", "channel": "table"}


async def code_for(chat: Chat, as_: str = "mira", **kw: object) -> str:
    reply = await ok(chat, "link", as_, **kw)
    assert reply.private and reply.result is not None
    return str(reply.result["code"])


async def people(chat: Chat) -> dict[int, list[str]]:
    async with chat.services.vault.transaction() as session:
        links = (await session.exec(select(IdentityLink).order_by(col(IdentityLink.key)))).all()
        persons = (await session.exec(select(Person))).all()
    found: dict[int, list[str]] = {p.id: [] for p in persons if p.id is not None}
    for link in links:
        found[link.person_id].append(link.key)
    return found


async def test_linking_two_platforms_joins_characters_and_active_character(chat: Chat) -> None:
    await build(chat)
    code = await code_for(chat)
    reply = await ok(chat, f"link {code}", "555", **DISCORD)
    assert reply.private
    assert (
        reply.text == "Linked: console:mira, discord:555 are now one person. Characters: Mira; active: Mira."
    )
    # The same character, active, on Discord: rolls and spends from the same pools.
    chat.dice.extend([7, 7, 7])
    roll = await ok(chat, "roll physical wp", "555", **DISCORD)
    assert roll.text.startswith("Mira rolls Physical 3: 7 7 7 +1 WP → 4 (Strong)")
    prove = await ok(chat, "prove", "mira")
    assert prove.text == "Mira: Physical 3, Mental 3, Social 2, Spirit 2 · Willpower 4/5 · Essence 10/10"
    assert list((await people(chat)).values()).count(["console:mira", "discord:555"]) == 1
    assert await refused(chat, f"link {code}", "556", **DISCORD) == (
        "That link code has been used already; type link on your other platform for a new one."
    )


async def test_merge_keeps_both_sets_of_characters_and_the_storyteller_role(chat: Chat) -> None:
    await build(chat)  # console:mira owns Mira
    await build(chat, "Dorian", "555", platform="discord", channel="table")  # discord:555 owns Dorian
    await ok(chat, "st add discord:555", "ana", st=True)
    code = await code_for(chat, "555", **DISCORD)
    reply = await ok(chat, f"link {code}", "mira")
    assert reply.result == {
        "kind": "link",
        "identities": ["console:mira", "discord:555"],
        "characters": ["Mira", "Dorian"],
        "active": "Dorian",  # the code's person keeps its active character
        "storyteller": True,
    }
    # The Storyteller role follows the person to the console identity.
    assert (await ok(chat, "st roster approved", "mira")).text.startswith("Approved characters (2)")
    assert (await ok(chat, "char use Mira", "mira")).text == "Mira is now your active character (approved)."
    chat.dice.extend([8, 8, 8])
    assert (await ok(chat, "roll physical", "555", **DISCORD)).text.startswith("Mira rolls")


async def test_codes_expire_and_are_single_use(chat: Chat) -> None:
    code = await code_for(chat)
    chat.clock.advance(minutes=10, seconds=30)
    assert await refused(chat, f"link {code}", "555", **DISCORD) == (
        "That link code expired 1 min ago; type link on your other platform for a new one."
    )
    fresh = await code_for(chat)
    wrong = fresh[:-1] + ("y" if fresh.endswith("x") else "x")  # one letter off, never the code itself
    assert await refused(chat, f"link {wrong}", "555", **DISCORD) == (
        f"No link code '{wrong}': check it, or type link on your other platform for a new one."
    )
    # A new code cancels the identity's earlier unused one.
    newest = await code_for(chat)
    assert await refused(chat, f"link {fresh}", "555", **DISCORD) == (
        "That link code has been used already; type link on your other platform for a new one."
    )
    await ok(chat, f"link {newest.upper()}", "555", **DISCORD)
    assert (await ok(chat, f"link {await code_for(chat, '555', **DISCORD)}", "mira")).text == (
        "console:mira and discord:555 are already one person."
    )


async def test_code_requests_are_rate_limited(chat: Chat) -> None:
    for _ in range(5):
        await code_for(chat)
        chat.clock.advance(minutes=1)
    assert await refused(chat, "link") == (
        "You have asked for 5 link codes in the last hour; the next can be made in 55 min."
    )
    chat.clock.advance(minutes=55)
    await code_for(chat)


async def test_wrong_codes_are_rate_limited_per_identity(chat: Chat) -> None:
    good = await code_for(chat)
    for i in range(10):
        await refused(chat, f"link wrong{i:03d}", "555", **DISCORD)
    # Even the right code is not looked at while the identity is locked out.
    assert await refused(chat, f"link {good}", "555", **DISCORD) == (
        "Too many wrong link codes from this identity (10 in an hour); try again in 60 min."
    )
    # Another identity is not affected.
    await ok(chat, f"link {good}", "777", **DISCORD)
    chat.clock.advance(minutes=60, seconds=1)
    await refused(chat, "link wrong999", "555", **DISCORD)  # a plain wrong code again, not the lock-out
    assert (await chat.say("link wrong999", "555", **DISCORD))[0].text.startswith("No link code")


async def test_unlink_splits_one_identity_off(chat: Chat) -> None:
    await build(chat)
    await ok(chat, f"link {await code_for(chat)}", "555", **DISCORD)
    assert await refused(chat, "unlink matrix", "mira") == (
        "You have no matrix identity linked. Yours: console:mira, discord:555."
    )
    reply = await ok(chat, "unlink discord", "mira")
    assert (
        reply.text
        == "discord:555 is now a person of its own, with no characters; they stay with console:mira."
    )
    assert await refused(chat, "prove", "555", **DISCORD) == (
        "You have no active character here: char new NAME makes one, char use NAME picks one."
    )
    assert (await ok(chat, "prove", "mira")).text.startswith("Mira: ")
    assert await refused(chat, "unlink console", "mira") == (
        "console:mira is your only identity: there is nothing to unlink it from."
    )


async def test_unlink_with_two_identities_on_one_platform(chat: Chat) -> None:
    await ok(chat, f"link {await code_for(chat)}", "libera/mira", platform="irc", channel="libera/#night")
    await ok(chat, f"link {await code_for(chat)}", "oftc/mira", platform="irc", channel="oftc/#night")
    assert await refused(chat, "unlink irc", "mira") == (
        "You have 2 irc identities (irc:libera/mira, irc:oftc/mira): write unlink PLATFORM:ID for one."
    )
    await ok(chat, "unlink irc:oftc/mira", "mira")
    assert sorted((await people(chat)).values()) == [["console:mira", "irc:libera/mira"], ["irc:oftc/mira"]]


async def test_unverified_identities_cannot_link(chat: Chat) -> None:
    code = await code_for(chat)
    text = await refused(chat, f"link {code}", "nick", platform="irc", channel="net/#c", verified=False)
    assert text.startswith("link needs a verified account")


async def test_code_lifetime_is_a_setting(tmp_path: Path) -> None:
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", link={"code_ttl_minutes": 2})
    try:
        reply = await ok(chat, "link")
        assert "within 2 minutes" in reply.text
        chat.clock.advance(minutes=2)
        assert (await refused(chat, f"link {reply.result['code']}", "555", **DISCORD)).startswith(  # type: ignore[index]
            "That link code expired"
        )
    finally:
        await chat.gateway.stop()
