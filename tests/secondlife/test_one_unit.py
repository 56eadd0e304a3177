"""A HUD command that asks for its state is one unit of work: the router reads the state through the
adapter's callback inside the command's own unit (on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.secondlife.conftest import World


class UnitCount:
    """The units of work a request opens from the router's run on (the outbox workers run their own;
    on PostgreSQL the object's shared rate bucket is spent before, in a transaction of its own, so
    that a refused command spends its token too)."""

    def __init__(self, world: World) -> None:
        self.vault = world.services.vault
        self.by_task: dict[asyncio.Task[Any] | None, list[str]] = {}
        self.router = world.services.router
        self.request_tasks: list[tuple[asyncio.Task[Any] | None, int]] = []
        unit, read, run = self.vault.unit, self.vault.read, self.router.run

        def counted(kind: str, open_: Any) -> Any:
            def opening() -> Any:
                self.by_task.setdefault(asyncio.current_task(), []).append(kind)
                return open_()

            return opening

        async def running(*args: Any, **kw: Any) -> Any:
            task = asyncio.current_task()
            self.request_tasks.append((task, len(self.by_task.get(task, []))))
            return await run(*args, **kw)

        self.vault.unit, self.vault.read = counted("unit", unit), counted("read", read)
        self.router.run = running

    def of_requests(self) -> list[list[str]]:
        return [self.by_task.get(task, [])[before:] for task, before in self.request_tasks]

    def close(self) -> None:
        del self.vault.unit, self.vault.read, self.router.run


async def test_a_hud_command_with_its_state_is_one_unit(world: World) -> None:
    hud = world.hud("Mira Vance")
    await hud.command("roll 1", state=True)  # first sight of Mira: her rows are made
    counted = UnitCount(world)
    try:
        answer = await hud.command("char new Mira", state=True)
        assert answer.status == 200, answer.raw
        state = answer.json["state"]
        # The state is read after the command, in its unit: it shows the character just made.
        assert (state["mode"], state["char"], state["chars"], state["st"]) == (
            "chargen",
            "Mira",
            ["Mira"],
            False,
        )
        world.dice.extend([9, 5, 10])
        answer = await hud.command("roll 3", state=True)
        assert answer.status == 200 and answer.json["state"]["char"] == "Mira", answer.raw
        assert counted.of_requests() == [["unit"], ["unit"]]
    finally:
        counted.close()


async def test_a_refused_command_still_answers_with_its_state(world: World) -> None:
    hud = world.hud("Mira Vance")
    answer = await hud.command("roll banana", state=True)
    assert answer.status == 200 and answer.json["replies"][0]["text"], answer.raw
    assert answer.json["state"]["mode"] == "none"  # read in a unit of its own, the command's rolled back
