"""HUD -> gateway over real HTTP: identities, reply shapes and sizes, state, roster, rate limits."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from adapters.secondlife.menus import decl_of
from gateway.vault.models import Character, IdentityLink, Person, ProcessedMessage, RollLog
from plugins.nightcap import NIGHTCAP
from tests.secondlife.conftest import World, table_counts
from tests.secondlife.harness import eventually


async def test_roll_from_a_hud(world: World) -> None:
    world.dice.extend([9, 5, 10])
    hud = world.hud("Mira Vance")
    response = await hud.command("roll 3")
    assert response.status == 200
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    body = response.json
    assert set(body) == {"replies"}
    [reply] = body["replies"]
    async with world.services.vault.transaction() as session:
        row = (await session.exec(select(RollLog))).one()
        link = await session.get(IdentityLink, f"sl:{hud.owner_key}")
    line = f"Mira Vance rolls 3 dice: 9 5 10 → 3 (Solid) #{row.public_id}"
    assert reply == {"text": line, "private": False}
    assert row.identity_key == f"sl:{hud.owner_key}"
    assert row.channel_key == "secondlife:region/Nightcap Sim"
    assert row.dice == [9, 5, 10]
    assert link is not None and link.display_name == "Mira Vance" and link.platform == "sl"


async def test_plain_text_body_and_resident_surname(world: World) -> None:
    world.dice.extend([7])
    hud = world.hud("miravance Resident")
    response = await hud.command("roll 1", plain=True)
    assert response.status == 200
    assert response.texts[0].startswith("miravance rolls 1 die: 7 → 1 (Marginal)")


async def test_refusal_is_an_error_reply_and_writes_nothing_but_its_replay_mark(world: World) -> None:
    hud = world.hud("Mira Vance")
    before = await table_counts(world)
    response = await hud.command("roll banana")
    assert response.status == 200
    [reply] = response.json["replies"]
    assert reply["error"] is True
    assert "banana" in reply["text"]
    after = await table_counts(world)
    assert after["RollLog"] == before["RollLog"] == 0
    assert after["ProcessedMessage"] == before["ProcessedMessage"] + 1


async def test_replays_stay_refused_after_a_restart(world: World) -> None:
    world.dice.extend([9, 5, 10])
    hud = world.hud("Mira Vance")
    body = json.dumps({"text": "roll 3"}).encode()
    headers = hud.signed_headers(body, "application/json")
    refused_body = json.dumps({"text": "roll banana"}).encode()
    refused_headers = hud.signed_headers(refused_body, "application/json")
    assert (await hud.post("/sl/v1/command", body, headers)).status == 200
    assert (await hud.post("/sl/v1/command", refused_body, refused_headers)).status == 200
    await world.restart()
    hud.base_url = world.url
    world.dice.extend([1, 1, 1])
    for b, h in ((body, headers), (refused_body, refused_headers)):
        again = await hud.post("/sl/v1/command", b, h)
        assert (again.status, again.text) == (401, "replayed signature")
    async with world.services.vault.transaction() as session:
        assert len((await session.exec(select(RollLog))).all()) == 1
        marks = (await session.exec(select(ProcessedMessage))).all()
    signatures = {headers["X-Gateway-Signature"], refused_headers["X-Gateway-Signature"]}
    assert {m.message_id for m in marks} == {f"hmac:{sig}" for sig in signatures}


async def test_long_replies_are_split_and_fit_2048_bytes(world: World) -> None:
    hud = world.hud("Mira Vance")
    response = await hud.command("bigtext 1500")
    assert response.status == 200
    assert len(response.raw) <= 2048
    body = response.json
    pieces = [r["text"] for r in body["replies"]]
    assert all(len(p.encode()) <= 1023 for p in pieces)
    assert all(r["private"] for r in body["replies"])
    assert len(pieces) == 2
    assert " ".join(pieces).rstrip() == ("0" + ("abcdefghi " * 151)[1:1500]).rstrip()
    assert "more" not in body and "cut" not in body


async def test_raised_body_limit(world: World) -> None:
    hud = world.hud("Mira Vance")
    small = await hud.command("bigtext 1000 6")
    assert len(small.raw) <= 2048
    assert len(small.json["replies"]) == 1
    assert small.json["cut"] == 5  # this HUD registered no URL: the rest could not be pushed
    big = await hud.command("bigtext 1000 6", body_max=16384)
    assert 6000 < len(big.raw) <= 16384
    assert [r["text"][0] for r in big.json["replies"]] == list("012345")
    assert "more" not in big.json and "cut" not in big.json
    huge = await hud.command("bigtext 1000 20", body_max=99999)  # clamped to 16384
    assert len(huge.raw) <= 16384
    assert huge.json["cut"] == 20 - len(huge.json["replies"])


async def test_body_limit_header_for_plain_text_requests(world: World) -> None:
    hud = world.hud("Mira Vance")
    body = b"bigtext 1000 3"
    headers = hud.signed_headers(body, "text/plain; charset=utf-8")
    headers["X-Gateway-Body-Max"] = "16384"
    response = await hud.post("/sl/v1/command", body, headers)
    assert len(response.json["replies"]) == 3


async def test_overflow_goes_to_the_registered_url(world: World) -> None:
    hud = world.hud("Mira Vance")
    fake = await world.obj(hud)
    assert (await hud.register(fake.url, "player-hud")).status == 200
    response = await hud.command("bigtext 1000 3")
    assert len(response.raw) <= 2048
    assert response.json["more"] == 2
    assert [r["text"][0] for r in response.json["replies"]] == ["0"]
    await eventually(lambda: len(fake.received) == 2)
    assert [p.json["text"][0] for p in fake.received] == ["1", "2"]
    assert all(p.json["kind"] == "reply" and p.json["private"] is True for p in fake.received)


async def test_state_for_a_newcomer_and_the_storyteller(world: World) -> None:
    hud = world.hud("Mira Vance")
    response = await hud.command("", state=True)
    tag = decl_of(NIGHTCAP, "en")["tag"]
    assert response.json == {"replies": [], "state": {"mode": "none", "st": False, "decl": tag}}
    st = world.st_hud()
    response = await st.command("", state=True)
    assert response.json["state"] == {"mode": "none", "st": True, "decl": tag}


async def add_character(world: World, hud_owner: str, name: str, status: str, **sheet: object) -> None:
    async with world.services.vault.transaction() as session:
        link = await session.get(IdentityLink, f"sl:{hud_owner}")
        if link is None:
            person = Person(display_name=name)
            session.add(person)
            await session.flush()
            key = f"sl:{hud_owner}"
            session.add(IdentityLink(key=key, person_id=person.id, platform="sl", display_name=name))
        else:
            person = await session.get(Person, link.person_id)
        character = Character(
            owner_id=person.id,
            system="nightcap",
            name=name,
            name_key=name.casefold(),
            status=status,
            sheet=sheet,
        )
        session.add(character)
        await session.flush()
        person.active_character_id = character.id
        session.add(person)


async def test_state_of_a_character(world: World) -> None:
    hud = world.hud("Mira Vance")
    await add_character(
        world,
        hud.owner_key,
        "Mira",
        "approved",
        traits={"physical": 3, "mental": 2, "social": 2, "spirit": 3},
        powers=[{"name": "Veil", "tier": "adept", "trait": "spirit"}],
    )
    state = (await hud.command("", state=True)).json["state"]
    assert state == {
        "mode": "gameplay",
        "st": False,
        "chars": ["Mira"],
        "char": "Mira",
        "status": "approved",
        "system": "nightcap",
        "traits": {"physical": 3, "mental": 2, "social": 2, "spirit": 3},
        "powers": [["Veil", "adept", "spirit"]],
        "pools": {},
        "decl": decl_of(NIGHTCAP, "en")["tag"],
    }


async def test_the_menu_declaration_a_state_names(world: World) -> None:
    """``{"decl": TAG}`` answers the declaration the state's tag names, read from no vault (a bad
    tag is a 400 in one line)."""
    hud = world.hud("Mira Vance")
    tag = (await hud.command("", state=True)).json["state"]["decl"]
    before = await table_counts(world)
    answer = await hud.command("", decl=tag, body_max=16384)  # as the HUDs ask
    assert answer.status == 200 and answer.json["replies"] == []
    decl = answer.json["decl"]
    assert decl == decl_of(NIGHTCAP, "en") and decl["tag"] == tag
    assert decl["roll"] == ["roll", 1, 1] and decl["use"] == ["char use ", "name", ""]
    assert ["Origin", "text", ["char set origin ", "value", ""], 0, 9, []] in decl["set"]
    assert await table_counts(world) == before
    refused = await hud.command("", decl="nosuch.en.0")
    assert (refused.status, refused.text) == (400, "no such decl tag: ask for the state again")
    refused = await hud.command("", decl=tag.replace(".en.", ".xx."))
    assert refused.status == 400


async def test_roster_pages_for_the_st_hud(world: World) -> None:
    names = [f"Character Number {i:02d} With A Long Name" for i in range(20)]
    for i, name in enumerate(names):
        status = "approved" if i % 2 else "creation"
        await add_character(world, f"00000000-0000-4000-8000-{i:012d}", name, status)
    st = world.st_hud()
    first = (await st.command("", roster={"status": "unlocked", "page": 0})).json["roster"]
    assert first["total"] == 10 and first["pages"] == 2 and first["page"] == 0
    assert first["names"] == names[0:18:2][:9]
    assert first["statuses"] == ["creation"] * 9
    assert all(len(label.encode()) <= 24 for label in first["labels"])
    assert first["labels"][0] == "1. Character Number 00 W"
    second = (await st.command("", roster={"status": "unlocked", "page": 1})).json["roster"]
    assert second["names"] == [names[18]] and second["labels"] == ["10. Character Number 18"]
    found = (await st.command("", roster={"status": "all", "q": "number 07"})).json["roster"]
    assert found["names"] == [names[7]]
    player = world.hud("Mira Vance")
    refused = (await player.command("", roster={})).json["roster"]
    assert refused == {"error": "the roster needs the Storyteller role"}


async def test_bad_requests(world: World) -> None:
    hud = world.hud("Mira Vance")
    for body in (b"{not json", b'{"text": 5}', b'["roll 3"]', b"", b'{"text": "roll 1", "body_max": "big"}'):
        headers = hud.signed_headers(body, "application/json")
        response = await hud.post("/sl/v1/command", body, headers)
        assert response.status == 400, body
    body = "roll 3".encode("utf-16")
    response = await hud.post("/sl/v1/command", body, hud.signed_headers(body, "text/plain"))
    assert (response.status, response.text) == (400, "the body is not UTF-8")
    assert (await table_counts(world))["RollLog"] == 0


async def test_rate_limit_per_object(make_world) -> None:  # type: ignore[no-untyped-def]
    world = await make_world(secondlife={"rate_burst": 3, "rate_per_second": 0.5})
    if world.adapter.inbound.shared is not None:
        pytest.skip("the shared buckets run on the database's clock: see test_shared_limits.py")
    now = [1000.0]
    world.adapter.inbound.monotonic = lambda: now[0]
    world.dice.extend([5] * 10)
    hud = world.hud("Mira Vance")
    other = world.hud("Dorian Gray")
    for _ in range(3):
        assert (await hud.command("roll 1")).status == 200
    before = await table_counts(world)
    limited = await hud.command("roll 1")
    assert (limited.status, limited.text, limited.headers["Retry-After"]) == (
        429,
        "too many requests from this object",
        "2",
    )
    assert await table_counts(world) == before
    assert (await other.command("roll 1")).status == 200  # another object has its own bucket
    now[0] += 1.9
    assert (await hud.command("roll 1")).status == 429
    now[0] += 0.2
    assert (await hud.command("roll 1")).status == 200
    assert (await hud.command("roll 1")).headers["Retry-After"] == "2"
