"""Gateway -> in-world objects: signed pushes through the outbox, retries, dead URLs, fan-out."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from sqlmodel import col, select

from adapters.secondlife import registry
from gateway.vault import repo
from gateway.vault.models import OutboxRow
from tests.secondlife.conftest import ST_KEY, World
from tests.secondlife.harness import FakeObject, Hud, eventually, new_key


async def st_with_object(world: World) -> tuple[Hud, FakeObject]:
    st = world.st_hud()
    fake = await world.obj(st)
    response = await st.register(fake.url, "st-hud")
    assert response.status == 200, response.text
    assert response.json["route"] == f"st-hud/{ST_KEY}"
    assert response.json["state"]["st"] is True
    return st, fake


async def roll(world: World, hud: Hud, faces: list[int]) -> str:
    world.dice.extend(faces)
    response = await hud.command(f"roll {len(faces)}")
    return str(response.json["replies"][0]["text"])


async def rows(world: World, target: str) -> list[OutboxRow]:
    async with world.services.vault.transaction() as session:
        found = await session.exec(
            select(OutboxRow).where(col(OutboxRow.target) == target).order_by(col(OutboxRow.id))
        )
        return list(found.all())


async def settled(world: World, target: str) -> list[OutboxRow]:
    """The target's rows once none is pending: the HUD can have a push before the outbox has written
    down that it was sent."""

    async def none_pending() -> bool:
        return all(r.status != "pending" for r in await rows(world, target))

    await eventually(none_pending)
    return await rows(world, target)


async def enqueue(world: World, target: str, payload: dict[str, object]) -> None:
    async with world.services.vault.transaction() as session:
        await repo.enqueue(session, "secondlife", target, payload)
    world.services.outbox.wake()


async def test_storyteller_log_reaches_the_st_hud(world: World) -> None:
    _, fake = await st_with_object(world)
    line = await roll(world, world.hud("Mira Vance"), [9, 5, 10])
    await eventually(lambda: len(fake.received) == 1)
    push = fake.received[0]
    assert fake.refused == []
    assert len(push.body) < 2048
    assert push.headers["Content-Type"] == "application/json; charset=utf-8"
    body = push.json
    assert isinstance(body.pop("id"), int)
    assert body == {"kind": "stlog", "who": "Mira Vance", "text": line}


async def test_503_with_retry_after_is_retried(world: World) -> None:
    _, fake = await st_with_object(world)
    fake.script = [("503", 1)]
    line = await roll(world, world.hud("Mira Vance"), [8])
    await eventually(lambda: len(fake.received) == 1)
    assert fake.attempts == 2
    assert fake.received[0].json["text"] == line
    [row] = await settled(world, f"st-hud/{ST_KEY}")
    assert (row.status, row.attempts) == ("delivered", 1)  # "come back in 1 s" is not a failed attempt


async def test_a_timeout_is_retried_and_delivered_once(world: World) -> None:
    _, fake = await st_with_object(world)
    fake.script = [("hang", 1.5)]  # the gateway gives up after push_timeout = 1 s
    line = await roll(world, world.hud("Mira Vance"), [8])
    await eventually(lambda: len(fake.received) == 1)
    assert fake.attempts == 2
    assert [p.json["text"] for p in fake.received] == [line]


async def test_a_hud_that_answers_again_after_many_failures_is_served_within_the_retry_ceiling(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    """A HUD whose region hangs for a while: each push times out and the backoff doubles, but only up
    to ``retry_max_delay``, so once the HUD answers the next push arrives within that ceiling (the
    outbox's own ``max_delay`` of five minutes would have let it wait minutes)."""
    world = await make_world(
        outbox={"base_delay": 0.25, "max_delay": 300.0},
        secondlife={"push_timeout": 0.2, "retry_max_delay": 1.0},
    )
    _, fake = await st_with_object(world)
    fake.script = [("hang", 0.5)] * 6
    await roll(world, world.hud("Mira Vance"), [8])
    await eventually(lambda: not fake.script, timeout=60)  # six timeouts: 0.25 * 2**6 s = 16 s uncapped
    answering = time.monotonic()
    await eventually(lambda: len(fake.received) == 1, timeout=60)
    assert time.monotonic() - answering < 1.5
    [row] = await settled(world, f"st-hud/{ST_KEY}")
    assert (row.status, row.attempts) == ("delivered", 7)


async def test_a_dead_url_holds_rows_until_the_object_registers_again(world: World) -> None:
    st, fake = await st_with_object(world)
    fake.script = ["404"]  # the region restarted: the old cap URL is gone
    mira = world.hud("Mira Vance")
    lines = [await roll(world, mira, faces) for faces in ([9], [5], [10])]

    async def dead() -> bool:
        async with world.services.vault.transaction() as session:
            reg = await registry.get(session, f"st-hud/{ST_KEY}")
        return reg is not None and reg.dead_since is not None

    await eventually(dead)
    await eventually(lambda: len(fake.received) == 0 and fake.attempts == 1)

    async def three_waiting() -> bool:
        return len(await rows(world, f"st-hud/{ST_KEY}")) == 3

    await eventually(three_waiting)
    waiting = await rows(world, f"st-hud/{ST_KEY}")
    assert [r.status for r in waiting] == ["pending"] * 3
    assert fake.received == []
    # The script's changed() handler asks for a new URL and registers it.
    assert (await st.register(fake.new_url(), "st-hud")).status == 200
    await eventually(lambda: len(fake.received) == 3)
    assert [p.json["text"] for p in fake.received] == lines
    assert [r.status for r in await settled(world, f"st-hud/{ST_KEY}")] == ["delivered"] * 3


async def test_a_reattached_hud_gets_what_waited_for_the_old_one(world: World) -> None:
    st, fake = await st_with_object(world)
    fake.gone = True  # the Storyteller logged off: the attachment's URL died with it
    line = await roll(world, world.hud("Mira Vance"), [7, 7])
    await eventually(lambda: fake.attempts == 1)
    # Tomorrow's login: the same HUD attaches as a new object with a new key and a new URL.
    tomorrow = Hud(world.url, owner_name=st.owner_name, owner_key=ST_KEY, object_name=st.object_name)
    new = await world.obj(tomorrow)
    assert (await tomorrow.register(new.url, "st-hud")).status == 200
    await eventually(lambda: len(new.received) == 1)
    assert new.refused == [] and new.received[0].json["text"] == line
    assert fake.received == []


async def test_rows_for_an_object_gone_for_good_are_given_up(make_world) -> None:  # type: ignore[no-untyped-def]
    world = await make_world(secondlife={"forget_after_hours": 0.0004, "dead_retry": 0.3})  # 1.44 s
    _, fake = await st_with_object(world)
    fake.gone = True
    await roll(world, world.hud("Mira Vance"), [7])

    async def given_up() -> bool:
        return [r.status for r in await rows(world, f"st-hud/{ST_KEY}")] == ["dead"]

    await eventually(given_up, timeout=15)
    async with world.services.vault.transaction() as session:
        assert await registry.get(session, f"st-hud/{ST_KEY}") is None


async def test_long_lines_are_pushed_in_parts_under_2048_bytes(world: World) -> None:
    _, fake = await st_with_object(world)
    text = " ".join(f"word{i:04d}" for i in range(330))  # 2969 bytes
    await enqueue(world, "st-huds", {"kind": "stlog", "text": text, "who": "Vera"})
    await eventually(lambda: len(fake.received) == 3)
    bodies = [p.json for p in fake.received]
    assert all(len(p.body) < 2048 for p in fake.received)
    assert [(b["part"], b["parts"]) for b in bodies] == [(1, 3), (2, 3), (3, 3)]
    assert all(len(b["text"].encode()) <= 1023 for b in bodies)
    assert " ".join(b["text"] for b in bodies) == text


async def test_announcements_go_to_relays_and_to_huds_where_there_is_none(world: World) -> None:
    land_owner = new_key()
    relay = Hud(world.url, owner_name="Land Owner", owner_key=land_owner, object_name="Nightcap Relay")
    relay_obj = await world.obj(relay)
    assert (await relay.register(relay_obj.url, "relay")).status == 200
    here = world.hud("Mira Vance")
    here_obj = await world.obj(here)
    away = world.hud("Dorian Gray", region="Elsewhere (512000, 256000)")
    away_obj = await world.obj(away)
    for hud, fake in ((here, here_obj), (away, away_obj)):
        assert (await hud.register(fake.url, "player-hud")).status == 200
    text = "The sirens stop. " * 80  # 1360 bytes: two parts for a relay
    await enqueue(world, "everyone", {"kind": "announce", "text": text, "who": "Vera"})
    await eventually(lambda: len(relay_obj.received) == 2 and len(away_obj.received) == 2)
    assert all(len(p.body) <= 900 for p in relay_obj.received)
    assert " ".join(p.json["text"] for p in relay_obj.received).split() == text.split()
    # A HUD's push holds one chat line (1023 bytes), so 1360 bytes take two pushes there too.
    assert [len(p.body) < 2048 for p in away_obj.received] == [True, True]
    assert " ".join(p.json["text"] for p in away_obj.received).split() == text.split()
    assert {p.json["kind"] for p in away_obj.received} == {"announce"}
    assert here_obj.received == []  # the relay in Nightcap Sim tells Mira's HUD
    await enqueue(world, "region/Elsewhere", {"kind": "emote", "text": "A crow laughs.", "who": "Crow"})
    await eventually(lambda: len(away_obj.received) == 3)
    assert away_obj.received[2].json == {
        "kind": "emote",
        "id": away_obj.received[2].json["id"],
        "who": "Crow",
        "text": "A crow laughs.",
    }


async def test_a_retried_part_does_not_resend_the_parts_before_it(world: World) -> None:
    _, fake = await st_with_object(world)
    fake.script = ["ok", ("503", 1)]  # part 1 accepted, part 2 refused once
    text = " ".join(f"word{i:04d}" for i in range(330))
    await enqueue(world, "st-huds", {"kind": "stlog", "text": text, "who": "Vera"})
    await eventually(lambda: len(fake.received) == 3)
    assert fake.attempts == 4
    assert [(p.json["part"], p.json["parts"]) for p in fake.received] == [(1, 3), (2, 3), (3, 3)]
