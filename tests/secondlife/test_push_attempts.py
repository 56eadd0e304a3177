"""A push that keeps failing is a failed attempt each time: after ``[outbox] max_attempts`` the row is
dead (kept for an operator), while waiting for an object that has not registered is not an attempt."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from gateway.vault.models import OutboxRow
from tests.secondlife.conftest import ST_KEY, World
from tests.secondlife.harness import FakeObject, Hud, eventually
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


class ReattachedMeanwhile(FakeObject):
    """The old HUD's URL: while a push to it is out, the new HUD registers; then it answers 404."""

    def __init__(self, owner_key: str, object_key: str) -> None:
        super().__init__(owner_key, object_key)
        self.register: Callable[[], Awaitable[int]] | None = None
        self.registered: list[int] = []

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        self.attempts += 1
        if self.register is not None and not self.registered:
            self.registered.append(await self.register())
            return web.Response(status=404, text="cap not found")
        return await super()._handle(request)


async def test_a_hud_registered_anew_while_its_old_url_answers_404_is_served_at_once(world: World) -> None:
    """The race of a re-attach: the new HUD registers while the push to the old URL is out. The
    registration's wake finds the row claimed, so the 404 must not park it for ``dead_retry``."""
    st = world.st_hud()
    old = ReattachedMeanwhile(st.owner_key, st.object_key)
    await old.start()
    world.objects.append(old)
    assert (await st.register(old.url, "st-hud")).status == 200
    tomorrow = Hud(world.url, owner_name=st.owner_name, owner_key=ST_KEY, object_name=st.object_name)
    new = await world.obj(tomorrow)

    async def register() -> int:
        return (await tomorrow.register(new.url, "st-hud")).status

    old.register = register
    line = await roll(world, world.hud("Mira Vance"), [7])
    await eventually(lambda: len(new.received) == 1, timeout=30)  # dead_retry is 600 s
    assert old.registered == [200] and new.received[0].json["text"] == line
