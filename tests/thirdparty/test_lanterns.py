"""Issue 36, "Done means": a sixth rule system from an installed package (``gw_lanterns``, public API
only, four-plus commands with typed parameters, a six-field sheet) gets, with no change to any
adapter, typed Discord slash commands with autocomplete, the console's Tab completion, ``help``, a
web sheet page and editor, a Second Life HUD state and its degree colours on a Discord embed.

The package is installed with pip into a directory of its own (``lanterns_site``); this module puts
that directory on ``sys.path`` while its tests run, so each gateway here finds the system the way an
operator's does, through the ``gateway.plugins`` entry point (no ``extra_plugins``)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from nacl.signing import SigningKey

from adapters.console.complete import completions
from adapters.console.names import load_names, visible_commands
from adapters.discord import slash
from adapters.discord.render import EPHEMERAL
from gateway import Channel, DegreeColour, Identity, find_character, pools_of
from gateway.features import channels
from gateway.testing import Chat
from tests.discord.conftest import CHANNEL, GUILD, DiscordEnv, fake, key, mode, start_env
from tests.discord.fake_discord import FakeDiscord, answer_problems, command_problems
from tests.secondlife.conftest import make_world
from tests.secondlife.harness import SECRET, free_port
from tests.secondlife.lsl_runtime import Sim
from tests.secondlife.test_lsl_runtime import ST_KEY, Type, needs_lummao, rez, says, serving, sim, walk
from tests.web.conftest import site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, csrf_of, say

__all__ = [
    "fake",
    "key",
    "make_world",
    "mode",
    "sim",
    "site",
]  # fixtures this module borrows from the adapters' suites

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = "lanterns"


@pytest.fixture(scope="module")
def installed(lanterns_site: Path) -> Iterator[ModuleType]:
    """The installed package on ``sys.path`` for this module's tests only (other modules' gateways
    must not meet a sixth system they do not expect)."""
    sys.path.insert(0, str(lanterns_site))
    try:
        import gw_lanterns

        assert Path(gw_lanterns.__file__).is_relative_to(lanterns_site)  # the installed copy, not the source
        assert "lanterns" in {ep.name for ep in entry_points(group="gateway.plugins")}
        yield gw_lanterns
    finally:
        sys.path.remove(str(lanterns_site))
        for name in [m for m in sys.modules if m == "gw_lanterns" or m.startswith("gw_lanterns.")]:
            del sys.modules[name]


def opt(name: str, value: Any, kind: int = 3, focused: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        out["focused"] = True
    return out


def find(definitions: list[dict[str, Any]], *path: str) -> dict[str, Any]:
    item: dict[str, Any] = {"options": definitions}
    for name in path:
        item = next(o for o in item["options"] if o["name"] == name)
    return item


@pytest.fixture
async def discord(
    installed: ModuleType, tmp_path: Path, fake: FakeDiscord, key: SigningKey
) -> AsyncIterator[DiscordEnv]:
    """A Discord gateway whose channel plays Lanterns."""
    env = await start_env(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, {})
    await channels.set_system(env.gateway.services.vault, Channel("discord", f"{GUILD}/{CHANNEL}"), SYSTEM)
    yield env
    await env.client.close()


async def gw(env: DiscordEnv, text: str) -> dict[str, Any]:
    answer = await env.command("gw", [opt("text", text)])
    data: dict[str, Any] = answer["data"]
    return data


async def suggest(env: DiscordEnv, name: str, options: list[dict[str, Any]]) -> list[Any]:
    payload = env.interaction(name, options)
    payload["type"] = 4
    body = json.dumps(payload).encode()
    response = await env.post(body, env.sign(body))
    answer = await response.json()
    assert answer_problems(answer, 0.0, autocomplete=True) == []
    return [c["value"] for c in answer["data"]["choices"]]


def _slowed(handler: Any, seconds: float) -> Any:
    async def slow(ctx: Any, inv: Any) -> Any:
        await asyncio.sleep(seconds)
        return await handler(ctx, inv)

    return slow


async def test_a_private_command_defers_privately_with_no_adapter_knowing_it(discord: DiscordEnv) -> None:
    """``gauge`` is Lanterns' own and declared ``private=True``: a slow one's deferral is ephemeral from
    the start (its first follow-up takes the deferral's visibility), a public one's is not."""
    slashes = slash.of(discord.gateway.services)
    assert [slashes.get(name).private for name in ("gauge", "sheet", "light", "burn")] == [
        True,
        True,
        False,
        False,
    ]  # type: ignore[union-attr]
    await gw(discord, "char new Wren")
    registry = discord.gateway.plugins.registry
    delay = discord.adapter.config.reply_timeout + 0.3
    for name in ("gauge", "burn"):  # past reply_timeout: the answer is a deferral, then a follow-up
        command = registry.commands[(SYSTEM, name)]
        registry.commands[(SYSTEM, name)] = dataclasses.replace(
            command, handler=_slowed(command.handler, delay)
        )
    assert await discord.command("gauge") == {"type": 5, "data": {"flags": EPHEMERAL}}
    assert await discord.command("burn", [opt("amount", 1, 4)]) == {"type": 5, "data": {}}
    await discord.until(lambda: len([r for r in discord.fake.received if r.follow_up]) == 2, timeout=15)
    bodies = [r.body for r in discord.fake.received if r.follow_up]
    gauge = next(b for b in bodies if "lantern holds 3 of 5 oil" in str(b))
    assert gauge["flags"] == EPHEMERAL
    assert all("flags" not in b for b in bodies if b is not gauge)


async def test_discord_typed_slash_commands_autocomplete_help_and_colours(discord: DiscordEnv) -> None:
    definitions = slash.of(discord.gateway.services).definitions()
    assert command_problems(definitions) == []  # as Discord validates them
    light = find(definitions, "light")
    options = {o["name"]: o for o in light["options"]}
    assert options["pool"]["type"] == 3 and options["pool"]["required"] and options["pool"]["autocomplete"]
    assert (options["dc"]["type"], options["dc"]["min_value"], options["dc"]["max_value"]) == (4, 1, 5)
    assert options["oil"]["type"] == 5  # a flag: a boolean
    burn = find(definitions, "burn")["options"][0]
    assert (burn["type"], burn["min_value"], burn["max_value"]) == (4, 1, 5)
    # Decanter's and Dramatic's set read a field their own way: one string, Lanterns' fields suggested.
    field = find(definitions, "set")["options"][0]
    assert (field["type"], field["autocomplete"]) == (3, True)
    assert find(definitions, "steady")["options"][0]["autocomplete"] is True

    assert "Lanterns character" in (await gw(discord, "char new Wren"))["content"]
    await gw(discord, "set wit 3")
    assert await suggest(discord, "steady", [opt("trait", "", focused=True)]) == ["wit", "nerve", "craft"]
    assert await suggest(discord, "light", [opt("pool", "wit+n", focused=True)]) == ["wit+nerve"]
    assert set(await suggest(discord, "set", [opt("field", "", focused=True)])) >= {"wit", "oil", "calling"}

    help_text = (await gw(discord, "help light"))["content"]
    assert "Usage: light POOL" in help_text  # Discord's markdown escapes the brackets that follow
    assert "dc: lights needed, 1 to 5 (optional, after dc, 1 to 5)" in help_text, help_text

    # The typed options become the line the command parses: wit 3 + 2 dice of oil, dc 2.
    discord.dice.extend([6, 5, 2, 5, 1])
    answer = await discord.command("light", [opt("pool", "wit"), opt("dc", 2, 4), opt("oil", True, 5)])
    data = answer["data"]
    assert "→ 3 of 2 → lit" in data["content"], data
    [embed] = data["embeds"]
    assert embed["color"] == DegreeColour.SUCCESS
    discord.dice.extend([1, 2, 3])
    [embed] = (await discord.command("steady", [opt("trait", "wit")]))["data"]["embeds"]
    assert embed["color"] == DegreeColour.BOTCH  # "dark": no light at all


async def test_console_tab_completion_offers_its_parameter_values(installed: ModuleType, chat: Chat) -> None:
    channel, sender = Channel("console", "main"), Identity("console", "wren", "wren")
    await chat.say("lang en", as_="wren")  # the channel and the person exist
    await channels.set_system(chat.services.vault, channel, SYSTEM)
    await chat.say("char new Wren Hale", as_="wren")
    await chat.say("char new Oswin", as_="ana")
    sheet = await chat.one("sheet", as_="wren")
    assert sheet.text == "Wren Hale (creation): Wit 1, Nerve 1, Craft 1; Oil 3/5; Keeper."
    services = chat.services
    names = await load_names(services, visible_commands(services), channel, sender, True)

    def offered(text: str) -> list[str]:
        return sorted(text[: len(text) + start] + done for done, start in completions(text, names))

    assert offered("lig") == ["light"]
    assert offered("light wit+n") == ["light wit+nerve"]  # a pool: the sheet's ratings
    assert offered("steady c") == ["steady craft"]  # a trait
    assert offered("light wit o") == ["light wit oil"]  # the unused flag
    assert offered("set ca") == ["set calling"]  # a choice
    assert offered("char use O") == []  # another's character is not one's own
    assert offered("char use W") == ["char use Wren Hale"]
    assert offered("st set Os") == ["st set Oswin"]  # any character of the system


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("light fire", "No trait 'fire': roll wit, nerve, craft or a number."),  # the system's own
        ("light wit dc 9", "light: dc must be at most 5, not 9."),  # the declared range, the core words it
        ("burn 4", "Wren has 3 oil, not 4."),
        ("set calling bard", "A calling is keeper, seeker, mender."),
        ("set oil 5", "Only a Storyteller refills oil."),
    ],
)
async def test_bad_input_is_a_short_refusal(
    installed: ModuleType, chat: Chat, line: str, refusal: str
) -> None:
    await chat.say("lang en", as_="wren")
    await channels.set_system(chat.services.vault, Channel("console", "main"), SYSTEM)
    await chat.say("char new Wren", as_="wren")
    reply = await chat.one(line, as_="wren")
    assert reply.error is not None and refusal in reply.text, reply
    assert "Traceback" not in reply.text and "internal" not in reply.text.casefold()


async def test_the_second_life_hud_state_shows_its_sheet(installed: ModuleType, make_world: Any) -> None:
    world = await make_world(gateway={"default_system": SYSTEM})
    wren, st = world.hud("Wren Hale"), world.st_hud()

    async def ok(hud: Any, text: str) -> dict[str, Any]:
        answer = await hud.command(text, state=True)
        assert answer.status == 200, answer.raw
        body: dict[str, Any] = answer.json
        assert not any("Unknown" in r["text"] or "Write" in r["text"] for r in body["replies"]), body
        return body

    await ok(wren, "char new Wren")
    await ok(wren, "set craft 4")
    await ok(wren, "set calling seeker")
    await ok(wren, "set notes Carries a brass lamp")
    await ok(st, "st set Wren oil 5")
    await ok(wren, "burn 2")
    state = (await ok(wren, "sheet"))["state"]
    assert (state["char"], state["system"], state["chars"]) == ("Wren", SYSTEM, ["Wren"])
    assert state["traits"] == {"wit": 1, "nerve": 1, "craft": 4}
    assert state["pools"] == {"oil": [3, 5]}
    assert state["fields"] == [["Calling", "Seeker"], ["Notes", "Carries a brass lamp"]]
    assert state["decl"].startswith("lanterns.en.")
    services = world.services
    async with services.vault.transaction() as session:
        character = await find_character(session, SYSTEM, "Wren")
        assert character is not None
        summary = await services.sheet_summary(session, character, "en")
    assert [(f.label, f.text) for f in summary.fields] == [
        ("Calling", "Seeker"),
        ("Notes", "Carries a brass lamp"),
    ]


def test_the_core_and_adapters_never_mention_it() -> None:
    for folder in ("gateway", "adapters", "plugins"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "lanterns" not in text.casefold(), path
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "lanterns" not in json.dumps(project)


async def test_the_web_sheet_page_and_editor_for_a_player_and_a_storyteller(
    installed: ModuleType, site: Any
) -> None:
    """The browser path of a declared sheet is ``tests/web/test_sheet_sixth_system.py``'s; here the
    installed system's page and editor over HTTP, as a form posts them."""
    served = await site(gateway={"default_system": SYSTEM}, extra_plugins=ACCOUNT)
    await say(served, "char new Wren")
    async with served.gateway.services.vault.transaction() as session:
        wren = await find_character(session, SYSTEM, "Wren")
    assert wren is not None
    await client_sign_in(served)
    page = await served.client.get(f"/me/c/{wren.id}")
    body = await page.text()
    assert page.status == 200 and 'id="sheet-editor"' in body
    assert "Ratings" in body and "The Lamp" in body and "Seeker" in body  # groups and the choice's labels
    assert 'name="v.wit"' in body and 'name="v.oil"' not in body  # oil is the Storyteller's
    token = await csrf_of(served, f"/me/c/{wren.id}")
    form = {"csrf": token, "v.wit": "3", "w.wit": "1", "v.calling": "mender", "w.calling": "keeper"}
    posted = await served.client.post(f"/me/c/{wren.id}", data={**form, "v.notes": "Rope", "w.notes": ""})
    assert posted.status in (200, 303), await posted.text()
    refused = await served.client.post(
        f"/me/c/{wren.id}", data={"csrf": token, "v.craft": "9", "w.craft": "1"}
    )
    assert 'id="error-craft"' in await refused.text() and "Craft goes from 0 to 5." in await refused.text()
    async with served.gateway.services.vault.transaction() as session:
        wren = await find_character(session, SYSTEM, "Wren")
        assert wren is not None and wren.id is not None
        oil = (await pools_of(session, wren.id))["oil"]
    assert wren.sheet == {"wit": 3, "nerve": 1, "craft": 1, "calling": "mender", "notes": "Rope"}
    assert (oil.current, oil.maximum) == (3, 5)

    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    page = await served.client.get(f"/st/c/{wren.id}")
    body = await page.text()
    assert page.status == 200 and 'name="v.oil"' in body and 'id="action-approve"' in body
    token = await csrf_of(served, f"/st/c/{wren.id}")
    posted = await served.client.post(
        f"/st/c/{wren.id}", data={"csrf": token, "v.oil": "5", "w.oil": "3", "v.nerve": "4", "w.nerve": "1"}
    )
    assert posted.status in (200, 303), await posted.text()
    async with served.gateway.services.vault.transaction() as session:
        wren = await find_character(session, SYSTEM, "Wren")
        assert wren is not None and wren.id is not None
        oil = (await pools_of(session, wren.id))["oil"]
    assert wren.sheet["nerve"] == 4 and oil.current == 5


def lanterns_config(tmp_path: Path, port: int) -> Path:
    config = tmp_path / "gateway.toml"
    config.write_text(
        f"""
[gateway]
default_system = "{SYSTEM}"

[vault]
url = "sqlite+aiosqlite:///{tmp_path / "vault.db"}"
owner = "sl:{ST_KEY}"

[dice]
script = "6,5,2,5"

[secondlife]
shared_secret = "{SECRET}"
rate_burst = 100000
rate_per_second = 10000.0
""",
        encoding="utf-8",
    )
    return config


@needs_lummao
async def test_the_player_hud_script_builds_its_menus_from_the_declaration(
    installed: ModuleType, lanterns_site: Path, tmp_path: Path, sim: Sim
) -> None:
    """The Player HUD's LSL, run in the test runtime against ``gateway serve`` with the installed
    package: CharGen's Traits, Character Info (a choice and a text) and the Roll menu are drawn from
    the system's declaration, and every line they send is one Lanterns understands (a refused line
    fails the walk)."""
    port = free_port()
    with serving(tmp_path, lanterns_config(tmp_path, port), port, (lanterns_site,)) as gateway:
        wren, vera = sim.avatar("Wren Hale"), sim.avatar("Vera Storyteller", ST_KEY)
        hud = await rez(sim, gateway, "Nightcap Player HUD", wren, "player_hud.lsl")
        await rez(sim, gateway, "Nightcap Player HUD", vera, "player_hud.lsl")  # a Storyteller approves
        await says(
            sim, wren, hud, "Character Info", "New Character", Type("Wren"), public="Wren lights a lantern"
        )
        await walk(sim, wren, hud, "Traits")
        assert sim.open_dialog(wren).buttons == ["Wit", "Nerve", "Craft", "Back"]
        await sim.click(wren, "Craft")
        assert sim.open_dialog(wren).buttons == ["0", "1", "2", "3", "4", "5", "Back"]  # the declared 0-5
        await sim.click(wren, "4")
        await sim.until(lambda: any("Wren: Craft 1 → 4." in line for line in sim.said()))
        await walk(sim, wren, hud, "Character Info")
        assert sim.open_dialog(wren).buttons == [
            "Calling",
            "Notes",
            "New Character",
            "Switch Character",
            "Back",
        ]
        await says(sim, wren, hud, "Character Info", "Calling", "Seeker", public="Calling keeper → seeker")
        await says(sim, wren, hud, "Character Info", "Notes", Type("Carries a brass lamp"), public="Notes")
        await sim.chat_as(vera, 7, "st approve Wren")
        await sim.until(lambda: any("sheet is approved" in line for line in sim.said()))
        await says(sim, wren, hud, "View Sheet", private="Wren (approved)")

        await sim.touch(wren, hud)
        main = sim.open_dialog(wren)
        # Only the menus whose commands Lanterns declares; the pool and the text fields by their labels.
        assert main.buttons == ["Roll", "Sheet", "Refresh", "Macros", "Web"]
        assert main.message == "Wren (approved)\nOil 3/5\nCalling: Seeker\nNotes: Carries a brass lamp"
        await sim.click(wren, "Roll")
        assert sim.open_dialog(wren).buttons == ["Wit", "Nerve", "Craft", "Back"]
        roll = await says(sim, wren, hud, "Roll", "Craft", public="Wren lights craft")
        assert re.fullmatch(
            r"Nightcap Player HUD: Wren lights craft: 6 5 2 5 → 3 of 1 → blaze #[a-z0-9]{7}", roll
        )
        assert not sim.refusals


@needs_lummao
async def test_the_storyteller_hud_script_builds_its_menus_from_the_declaration(
    installed: ModuleType, lanterns_site: Path, tmp_path: Path, sim: Sim
) -> None:
    """The Storyteller HUD's LSL against ``gateway serve`` with Lanterns: the buttons whose commands
    Lanterns lacks (an NPC roll, announce, emote, Roll Stat, powers) are hidden, and Edit Traits
    (ratings and the Oil pool, the declared 0-5) and Edit Info (a choice, a text) send ``st set``
    lines Lanterns understands (a refused line fails the walk)."""
    port = free_port()
    with serving(tmp_path, lanterns_config(tmp_path, port), port, (lanterns_site,)) as gateway:
        wren, vera = sim.avatar("Wren Hale"), sim.avatar("Vera Storyteller", ST_KEY)
        hud = await rez(sim, gateway, "Nightcap Player HUD", wren, "player_hud.lsl")
        st = await rez(sim, gateway, "Nightcap ST HUD", vera, "st_hud.lsl")
        await says(
            sim, wren, hud, "Character Info", "New Character", Type("Wren"), public="Wren lights a lantern"
        )
        await sim.touch(vera, st)
        assert sim.open_dialog(vera).buttons == ["Sheets", "Give HUD", "Manage STs"]
        profile = ["Sheets", "Search by Name", Type("wren"), "1. Wren"]
        await walk(sim, vera, st, *profile)
        assert sim.open_dialog(vera).buttons == ["Approve", "Edit Info", "Edit Traits", "History", "Back"]
        await sim.click(vera, "Edit Traits")
        assert sim.open_dialog(vera).buttons == ["Wit", "Nerve", "Craft", "Oil", "Back"]
        await sim.click(vera, "Oil")
        assert sim.open_dialog(vera).buttons == ["0", "1", "2", "3", "4", "5", "Back"]
        await sim.click(vera, "2")
        await sim.until(lambda: any("Oil" in line and "2" in line for line in vera.heard + sim.said()))
        await says(sim, vera, st, *profile, "Edit Traits", "Craft", "5")
        await walk(sim, vera, st, *profile, "Edit Info")
        assert sim.open_dialog(vera).buttons == ["Calling", "Notes", "Back"]
        await says(sim, vera, st, *profile, "Edit Info", "Calling", "Mender")
        await says(sim, vera, st, *profile, "Edit Info", "Notes", Type("Keeps the east road"))
        await says(sim, vera, st, *profile, "Approve")  # its st approve has no force: nothing to ask
        assert not sim.refusals
