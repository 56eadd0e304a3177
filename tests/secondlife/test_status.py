"""What the Second Life adapter reports for ``gateway status``: whether it can push to objects."""

from __future__ import annotations

from tests.secondlife.conftest import World


async def test_status_says_whether_pushes_can_go_out(world: World) -> None:
    adapter = world.adapter
    expected = {"pushing": True, "push_concurrency": adapter.config.push_concurrency}
    assert adapter.status() == expected
    assert world.running is not None
    await world.running.stop()
    world.running = None
    assert adapter.status() == {**expected, "pushing": False}
