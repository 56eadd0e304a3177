"""A push that keeps failing is a failed attempt each time: after ``[outbox] max_attempts`` the row is
dead (kept for an operator), while waiting for an object that has not registered is not an attempt."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.vault.models import OutboxRow
from tests.secondlife.conftest import ST_KEY, World
from tests.secondlife.harness import eventually
from tests.secondlife.test_push import roll, rows, settled, st_with_object

HEAD = f"st-hud/{ST_KEY}"


async def one_settled(world: World) -> list[OutboxRow]:
    """The HUD's row once the ``st-huds`` fan-out has made it and the outbox has settled it."""

    async def made() -> bool:
        return bool(await rows(world, HEAD))

    await eventually(made)
    return await settled(world, HEAD)


async def test_a_push_that_keeps_timing_out_goes_dead_after_max_attempts(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    world = await make_world(
        outbox={"base_delay": 0.05, "max_attempts": 3},
        secondlife={"push_timeout": 0.2, "retry_max_delay": 0.2},
    )
    _, fake = await st_with_object(world)
    fake.script = [("hang", 0.5)] * 10  # the HUD's URL never answers in time
    await roll(world, world.hud("Mira Vance"), [8])
    [row] = await one_settled(world)
    assert (row.status, row.attempts) == ("dead", 3)
    assert (row.last_error or "").startswith(f"push to {HEAD} failed: ")
    assert fake.attempts == 3 and fake.received == []


async def test_a_503_without_retry_after_goes_dead_after_max_attempts(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    world = await make_world(
        outbox={"base_delay": 0.05, "max_attempts": 2}, secondlife={"retry_max_delay": 0.2}
    )
    _, fake = await st_with_object(world)
    fake.script = [("503", "")] * 5  # an empty Retry-After: the backoff, not "the server said when"
    await roll(world, world.hud("Mira Vance"), [8])
    [row] = await one_settled(world)
    assert (row.status, row.attempts) == ("dead", 2)
    assert row.last_error == f"{HEAD} answered 503"


async def test_a_dead_url_is_not_an_attempt(make_world: Callable[..., Awaitable[World]]) -> None:
    """A 404 marks the URL dead: the row waits for the object to register again, however long that
    takes within ``forget_after_hours``, and keeps its attempts for the pushes that follow."""
    world = await make_world(outbox={"base_delay": 0.05, "max_attempts": 1}, secondlife={"dead_retry": 0.1})
    st, fake = await st_with_object(world)
    fake.script = ["404"]
    await roll(world, world.hud("Mira Vance"), [8])

    async def waited() -> bool:
        found = await rows(world, HEAD)
        return bool(found) and (found[0].last_error or "").endswith("URL dead")

    await eventually(waited)
    await eventually(lambda: fake.attempts >= 1)
    [row] = await rows(world, HEAD)
    assert (row.status, row.attempts) == ("pending", 0)  # max_attempts = 1 would have killed an attempt
    assert (await st.register(fake.new_url(), "st-hud")).status == 200
    [row] = await settled(world, HEAD)
    assert (row.status, row.attempts) == ("delivered", 1)
