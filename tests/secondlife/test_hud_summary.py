"""A HUD draws any rule system's sheet: the state of a Decanter and of a Night Wanderers character,
made through the real commands, carries their traits, powers and pools (the adapter knows no rules)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.secondlife.conftest import World
from tests.secondlife.harness import Hud

MakeWorld = Callable[..., Awaitable[World]]


async def ok(hud: Hud, text: str) -> dict[str, Any]:
    answer = await hud.command(text, state=True)
    assert answer.status == 200, answer.raw
    body: dict[str, Any] = answer.json
    assert not any("Unknown" in r["text"] for r in body["replies"]), body
    return body


async def test_a_decanter_sheet_in_the_hud_state(make_world: MakeWorld) -> None:
    world = await make_world(gateway={"default_system": "decanter"})
    ana, st = world.hud("Ana Quill"), world.st_hud()
    await ok(ana, "char new Ana")
    await ok(ana, "set wits 3")
    await ok(ana, "set brawl 2")
    await ok(st, "st set Ana sp 2")
    world.dice.extend([10, 7, 3, 1, 6])  # Wits + Brawl: five dice, scripted
    await ok(ana, "roll wits+brawl dc 2")
    state = (await ok(ana, "sheet"))["state"]
    assert (state["mode"], state["char"], state["system"], state["chars"]) == (
        "chargen",
        "Ana",
        "decanter",
        ["Ana"],
    )
    assert state["traits"]["wits"] == 3 and state["traits"]["brawl"] == 2
    assert state["traits"]["strength"] == 1 and "firearms" not in state["traits"]  # Skills at 0 are left out
    assert state["pools"] == {"story_points": [2, 10]}  # the Story Point cap
    assert state["powers"] == []


async def test_a_night_wanderers_sheet_in_the_hud_state(make_world: MakeWorld) -> None:
    world = await make_world(gateway={"default_system": "nightwanderers"})
    maxina, st = world.hud("Maxina Dragazhar"), world.st_hud()
    await ok(maxina, "char new Maxina dragazhar")
    for field, value in (("persuasion", 3), ("celerity", 1), ("hunting", "yes")):
        await ok(st, f"st set Maxina {field} {value}")
    await ok(st, "damage 5 Maxina")
    await ok(maxina, "discipline basic")
    world.dice.extend([6, 6, 2])
    await ok(maxina, "roll persuasion")
    state = (await ok(maxina, "sheet"))["state"]
    assert (state["char"], state["system"]) == ("Maxina", "nightwanderers")
    assert state["traits"]["persuasion"] == 3 and len(state["traits"]) == 15
    assert state["pools"] == {"hp": [20, 25], "blood": [9, 10]}
    assert state["powers"] == [["Начальная Быстрота", 1, None], ["Охотничий Инстинкт", None, None]]
    assert (await ok(st, "sheet Maxina"))["state"]["st"] is True
