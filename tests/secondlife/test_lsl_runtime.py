"""The LSL scripts RUN: the Player HUD, the Storyteller HUD and a relay, executed by lummao (each in its
own driver process, tests/secondlife/lsl_driver.py), in a small simulator (lsl_runtime.py), against a
real ``gateway serve`` process over loopback. A whole evening is played by clicking the scripts' own
dialogs; every menu of both HUDs is shown and every button the scripts branch on is clicked; a
command line the gateway refuses fails the walk, and so does a dialog outside llDialog's limits.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.secondlife.harness import SECRET, free_port
from tests.secondlife.lsl_runtime import (
    LSL,
    Avatar,
    Problem,
    Sim,
    SimObject,
    config_script,
    main_script,
    region,
)

pytest.importorskip("plugins.nightcap.chargen", reason="needs the Nightcap character commands")
needs_lummao = pytest.mark.skipif(
    importlib.util.find_spec("lummao") is None,
    reason="lummao (a Linux x86_64 wheel in the test extra) is not installed",
)

ROOT = Path(__file__).resolve().parents[2]
ST_KEY = "5b1e3f0a-9c2d-4e8f-a1b2-c3d4e5f60718"
CHANGED_REGION_START = 0x400
RELAY_CHANNEL = -71770417
HUD = "Nightcap Player HUD"
ROLL_ID = r"#[a-z0-9]{7}"
# Faces in a cycle: rolls succeed often enough to matter, and the test reads the lines, not the luck.
FACES = [9, 5, 10, 2, 7, 1, 8, 5, 6, 3] * 400


class Type(str):
    """Text typed into a text box (a plain string is a button to click)."""


def gateway_config(tmp_path: Path, port: int) -> Path:
    config = tmp_path / "gateway.toml"
    faces = ",".join(map(str, FACES))
    config.write_text(
        f"""
[vault]
url = "sqlite+aiosqlite:///{tmp_path / "vault.db"}"
owner = "sl:{ST_KEY}"

[http]
port = {port}

[dice]
script = "{faces}"

[secondlife]
shared_secret = "{SECRET}"
push_timeout = 5.0
# The scripts keep 1.2 s between requests on the simulator's clock, which runs faster here than the
# wall clock: the gateway's own bucket would otherwise refuse them (429) for being quicker than SL.
rate_burst = 100000
rate_per_second = 10000.0

[stlog]
targets = ["secondlife:st-huds"]

[outbox]
poll_interval = 0.05
base_delay = 0.1
max_delay = 1.0

[nightcap]
announce_targets = ["secondlife:everyone"]
announce_skip_platforms = ["http", "secondlife"]
sheet_export = "discord:sheets"
""",
        encoding="utf-8",
    )
    return config


@contextmanager
def serving(tmp_path: Path, config: Path, port: int, paths: tuple[Path, ...] = ()) -> Iterator[str]:
    """``python -m gateway --config CONFIG serve`` on ``port`` (``paths`` added to its import path,
    where an operator's installed packages would be); its base URL once it answers."""
    log = (tmp_path / "gateway.log").open("wb")
    pythonpath = os.pathsep.join(str(p) for p in (ROOT, *paths))
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "--config", str(config), "serve", "--port", str(port)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": pythonpath, "GATEWAY_NO_VENV": "1"},
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "gateway.log").read_text()
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "gateway serve never answered /healthz"
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def gateway_serve(tmp_path: Path) -> Iterator[str]:
    """``python -m gateway --config gateway.toml serve`` on a free loopback port; its base URL."""
    port = free_port()
    with serving(tmp_path, gateway_config(tmp_path, port), port) as url:
        yield url


@pytest.fixture
async def sim(tmp_path: Path) -> AsyncIterator[Sim]:
    workdir = tmp_path / "lsl"
    workdir.mkdir()
    async with region(workdir, SECRET) as s:
        yield s


async def rez(
    sim: Sim, gateway: str, name: str, owner: Avatar, script: str, source: str | None = None
) -> SimObject:
    obj = await sim.rez(
        name,
        owner,
        {"Nightcap Config": config_script(gateway, SECRET), script: source or main_script(script)},
    )
    # state_entry -> the config script's link message -> llRequestURL -> register with the gateway.
    await sim.until(
        lambda: any(
            e.url.endswith("/sl/v1/register") and e.status for e in sim.exchanges if e.object_key == obj.key
        )
    )
    return obj


async def walk(sim: Sim, avatar: Avatar, obj: SimObject, *steps: str) -> None:
    """Touch the HUD, then click (or type) each step in order."""
    await sim.touch(avatar, obj)
    for step in steps:
        if isinstance(step, Type):
            await sim.type(avatar, str(step))
        else:
            await sim.click(avatar, step)


def heard_since(avatar: Avatar, mark: int) -> list[str]:
    return avatar.heard[mark:]


async def says(
    sim: Sim, avatar: Avatar, obj: SimObject, *steps: str, private: str = "", public: str = ""
) -> str:
    """Walk ``steps``, which send one command; the gateway answers it (200, a reply), and the HUD
    then tells its wearer ``private`` or says ``public`` in local chat."""
    heard, chat, sent = len(avatar.heard), len(sim.chat), len(sim.exchanges)
    await walk(sim, avatar, obj, *steps)
    commands = [e for e in sim.exchanges[sent:] if e.url.endswith("/sl/v1/command") and e.text]
    assert commands, f"{steps} sent no command"
    assert all(e.status == 200 and json.loads(e.answer)["replies"] for e in commands), commands
    if private:
        await sim.until(lambda: any(private in line for line in avatar.heard[heard:]))
        return next(line for line in avatar.heard[heard:] if private in line)
    if public:
        await sim.until(lambda: any(public in line for line in sim.said(chat)))
        return next(line for line in sim.said(chat) if public in line)
    return ""


def menu_ids(source: str) -> set[str]:
    """Every dialog and text box a script can show: its menu(), ask(), pick(), scan() and offer() ids,
    and the modifier and Willpower steps of ask_mod() and ask_wp()."""
    ids = set(re.findall(r'\b(?:menu|ask|pick|scan|offer|offer_traits|offer_tiers)\("(\w+)"', source))
    if "ask_mod(" in source:
        ids.add("mod")
    if re.search(r"\bask_wp\(", source):
        ids.add("wp")
    return ids


def branches(source: str) -> set[tuple[str, str]]:
    """(menu id, button) for every button the script's chosen() tests for by name: each is a path."""
    body = source[source.index("\nchosen(string m)") :]
    body = body[: body.index("\n}\n")]
    parts = re.split(r'(?=\bif \(id == "\w+"\))', body)
    # Before the first menu: the navigation every menu shares ("Back", "Cancel"), clicked anywhere.
    found = {("*", label) for label in re.findall(r'\bm == "([^"]+)"', parts[0])}
    for part in parts[1:]:
        menu = re.match(r'if \(id == "(\w+)"\)', part)
        assert menu is not None
        found |= {(menu.group(1), label) for label in re.findall(r'\bm == "([^"]+)"', part)}
    return found


@needs_lummao
async def test_a_whole_evening_by_clicks(gateway_serve: str, sim: Sim) -> None:
    gw = gateway_serve
    vera = sim.avatar("Vera Storyteller", ST_KEY)
    mira, dorian, land = sim.avatar("Mira Vance"), sim.avatar("Dorian Gray"), sim.avatar("Land Owner")
    relay = await rez(sim, gw, "Nightcap Relay", land, "relay.lsl")
    st = await rez(sim, gw, "Nightcap ST HUD", vera, "st_hud.lsl")
    hud = await rez(sim, gw, "Nightcap Player HUD", mira, "player_hud.lsl")
    dhud = await rez(sim, gw, "Nightcap Player HUD", dorian, "player_hud.lsl")
    assert all(e.status == 200 for e in sim.exchanges), sim.exchanges

    # ---- CharGen from Mira's menus.
    await says(sim, mira, hud, "Character Info", "New Character", Type("Mira"), private="Mira is made")
    await says(sim, mira, hud, "Character Info", "Origin", Type("Mage"), private="Origin is now Mage")
    for field, text in (
        ("Subgroup", "Virtual Adepts"),
        ("Aptitude", "Hacking"),
        ("Advantage", "Quick"),
        ("Weakness", "Cannot pass a crossroads"),
    ):
        await says(sim, mira, hud, "Character Info", field, Type(text), private=text)
    await says(sim, mira, hud, "Traits", "Physical", "3", private="Physical 3")
    await says(sim, mira, hud, "Traits", "Mental", "3", private="Mental 3")
    await says(sim, mira, hud, "Traits", "Social", "2", private="Social 2")
    await says(sim, mira, hud, "Traits", "Spirit", "2", private="Spirit 2")
    await says(sim, mira, hud, "Character Info", "Show the budget left", private="")
    await says(sim, mira, hud, "Powers", "Add Power", Type("Veil"), "Adept", "Spirit", private="learns Veil")
    await says(
        sim, mira, hud, "Powers", "Add Power", Type("Knack"), "Basic", "Mental", private="learns Knack"
    )
    await says(sim, mira, hud, "Powers", "Remove Power", "2. Knack", private="Knack")
    await says(
        sim, mira, hud, "Powers", "Add Power", Type("Knack"), "Basic", "Mental", private="learns Knack"
    )
    await says(sim, mira, hud, "Character Info", "New Character", Type("Spare"), private="Spare is made")
    await says(sim, mira, hud, "Character Info", "Switch Character", "1. Mira", private="Mira")
    await says(sim, mira, hud, "View Sheet", private="Origin: Mage")
    await says(sim, mira, hud, "Character Info", "Submit for approval", private="Mira is submitted")
    # Navigation: Back from a submenu, Cancel on the Willpower step, Back on a list.
    await walk(sim, mira, hud, "Traits", "Back", "Powers", "Back")

    # Dorian by the HUD's command channel (/7 <command>).
    for line in (
        'char new "Dorian Gray"',
        "trait physical 3",
        "trait mental 3",
        "trait social 3",
        "trait spirit 1",
        'power add "Ward" advanced spirit',
        "char submit",
    ):
        heard = len(dorian.heard)
        await sim.chat_as(dorian, 7, line)
        await sim.until(lambda heard=heard: len(dorian.heard) > heard)  # type: ignore[misc]

    # ---- The Storyteller approves from the ST HUD's roster; Mira's HUD hears of it (a push).
    await walk(sim, vera, st, "Sheets", "Unlocked Sheets")
    roster = sim.open_dialog(vera)
    assert roster.menu == "roster" and roster.message == "Sheets (unlocked): 3 found, page 1 of 1"
    assert roster.buttons == ["1. Dorian Gray", "2. Mira", "3. Spare", "< Prev", "Next >", "Back"]
    await sim.click(vera, "2. Mira")
    await sim.click(vera, "Approve")
    assert sim.open_dialog(vera).menu == "approve"  # Approve, or Force Approve for an unsubmitted sheet
    await sim.click(vera, "Approve")
    await sim.until(lambda: any("a Storyteller changed your sheet (st.approve)" in h for h in mira.heard))
    await walk(sim, vera, st, "Sheets", "Unlocked Sheets", "Back", "Search by Name", Type("dorian"))
    await sim.until(lambda: sim.open_dialog(vera).menu == "roster")
    await sim.click(vera, "1. Dorian Gray")
    await sim.click(vera, "Approve")
    await sim.click(vera, "Force Approve")
    await sim.until(lambda: any("a Storyteller changed your sheet (st.approve)" in h for h in dorian.heard))
    # Pools deep enough for the evening's Willpower and Essence.
    for who in ("Mira", "Dorian Gray"):
        for pool in ("willpower", "essence"):
            await sim.chat_as(vera, 8, f'st pool "{who}" {pool} max 50')
            await sim.chat_as(vera, 8, f'st pool "{who}" {pool} 50')
    await sim.until(lambda: len(sim.refusals) == 0 and sim.quiet())

    # ---- Mira plays: the Gameplay menu.
    # No die was rolled before: the first faces of the script are these.
    roll = await says(sim, mira, hud, "Roll", "Physical", "+1", "No WP", public="Mira rolls")
    assert re.fullmatch(rf"{HUD}: Mira rolls Physical 3\+1 = 4 dice: 9 5 10 2 → 3 \(Solid\) {ROLL_ID}", roll)
    wp = await says(sim, mira, hud, "Roll", "Mental", "-1", "Spend WP", public="Mira rolls")
    assert re.fullmatch(rf"{HUD}: Mira rolls Mental 3-1 = 2 dice: 7 1 \+1 WP → 1 \(Marginal\) {ROLL_ID}", wp)
    await sim.touch(mira, hud)
    # The pools by their declared names, then the sheet's text fields (the state's "fields").
    assert sim.open_dialog(mira).message == (
        "Mira (approved)\nWillpower 49/50  Essence 50/50  Damage 0/10\nOrigin: Mage\nSubgroup: Virtual Adepts"
        "\nAptitude: Hacking\nAdvantage: Quick\nWeakness: Cannot pass a crossroads"
    )
    await sim.click(mira, "Health")
    await sim.click(mira, "Back")
    for mod in ("-3", "-2", "+0", "+2", "+3"):
        await says(sim, mira, hud, "Roll", "Social", mod, "No WP", public="Mira rolls Social")
    await walk(sim, mira, hud, "Roll", "Spirit", "+0", "Cancel")
    await walk(sim, mira, hud, "Roll", "Back")
    power = await says(sim, mira, hud, "Use Power", "1. Veil", "Adept", "+1", "Spend WP", public="Mira uses")
    assert re.fullmatch(
        rf"{HUD}: Mira uses Veil at Adept \(1 Essence, 49 left\) and rolls Spirit 2\+1 = 3 dice: "
        rf"[\d ]+ \+1 WP → \d \(\w+\) {ROLL_ID}",
        power,
    ), power
    await says(
        sim, mira, hud, "Use Power", "2. Knack", "Basic", "+0", "No WP", public="Mira uses Knack at Basic"
    )
    await says(sim, mira, hud, "Daily Check-In", public="Mira checks in")
    await sim.chat_as(mira, 0, "+prove")
    await sim.until(
        lambda: any(line.startswith("Nightcap Player HUD: Mira: Physical 3") for line in sim.said())
    )
    await sim.chat_as(mira, 7, "sheet")
    await says(sim, mira, hud, "Sheet", private="Origin: Mage")
    await says(sim, mira, hud, "Refresh", private="Origin: Mage")
    await says(sim, mira, hud, "Health", "Show Health")
    await says(sim, mira, hud, "Health", "Take Damage", "2")
    await says(sim, mira, hud, "Health", "Heal 1")

    # Macros (issue 18): saved over /7, listed on the Macros page a page at a time, run by a click.
    await walk(sim, dorian, dhud, "Macros")
    await sim.until(lambda: sim.open_dialog(dorian).menu == "macros_none")
    await sim.click(dorian, "Back")
    await sim.chat_as(mira, 7, "macro add hit = roll physical")
    for n in range(10):
        await sim.chat_as(mira, 7, f"macro add m{n} = sheet")
    await walk(sim, mira, hud, "Macros")
    await sim.until(lambda: sim.open_dialog(mira).menu == "macros")
    assert sim.open_dialog(mira).buttons[:2] == ["1. hit", "2. m0"]
    await sim.click(mira, "More")
    assert sim.open_dialog(mira).buttons == ["11. m9", "More", "Back"]
    heard = len(mira.heard)
    await sim.click(mira, "11. m9")
    await sim.until(lambda: any("Origin: Mage" in line for line in mira.heard[heard:]))
    sent = len(sim.exchanges)
    await says(sim, mira, hud, "Macros", "1. hit", public="Mira rolls Physical")
    assert [e.text for e in sim.exchanges[sent:] if e.text] == ["macro hit"]

    # Web (issue 17): a one-time sign-in link, told privately and offered with llLoadURL; the page it
    # opens is the gateway's sign-in page.
    chat = len(sim.chat)
    told = await says(sim, mira, hud, "Web", private="Your sign-in link for the web pages")
    await sim.until(lambda: any(c.channel == -1 for c in sim.chat[chat:]))
    offered = next(c for c in sim.chat[chat:] if c.channel == -1)
    assert offered.speaker_key == mira.key, offered
    url = re.fullmatch(r"load (http://127\.0\.0\.1:\d+/login/\S+): Sign in to the web pages.*", offered.text)
    assert url and url.group(1) in told, (offered.text, told)
    with urllib.request.urlopen(url.group(1), timeout=30) as page:  # GET shows the button, spends nothing
        assert page.status == 200 and "<form" in page.read().decode()

    # Challenge: Mira challenges Dorian, he looks it up and defends; then she challenges, he concedes.
    await says(sim, mira, hud, "Challenge", "Challenge", Type("Dorian Gray"), "Physical", "+0", "No WP")
    await says(sim, dorian, dhud, "Challenge", "Pending")
    await says(sim, dorian, dhud, "Challenge", "Defend", "Mental", "+2", "No WP")
    await says(sim, mira, hud, "Challenge", "Challenge", Type("Dorian Gray"), "Social", "+1", "Spend WP")
    await says(sim, dorian, dhud, "Challenge", "Concede")

    # Fight.
    await says(sim, mira, hud, "Fight", "Start Fight")
    await says(sim, mira, hud, "Fight", "Join Fight")
    await says(sim, dorian, dhud, "Fight", "Join Fight")
    await says(sim, mira, hud, "Fight", "Roll Order")
    await says(sim, mira, hud, "Fight", "Order")
    # One meaningful action a turn, on your own: the scripted dice put Dorian first, so he passes.
    order = json.loads(sim.exchanges[-1].answer)["replies"][0]["text"]
    assert "1. ▶ Dorian Gray" in order, order
    await says(sim, dorian, dhud, "Fight", "Next Turn")
    await says(sim, mira, hud, "Fight", "Attack", Type("Dorian Gray"), "Physical", "+1", "No WP")
    await says(sim, mira, hud, "Fight", "Next Turn")
    await sim.chat_as(vera, 8, "init end")

    # Extended actions.
    await says(sim, mira, hud, "Extended", "Start", "5 in 3", "Physical")
    await says(sim, mira, hud, "Extended", "Roll", "+0", "No WP")
    await says(sim, mira, hud, "Extended", "Status")
    await says(sim, mira, hud, "Extended", "Abandon")
    await says(sim, mira, hud, "Extended", "Start", "10 in 5", "Mental")
    await says(sim, mira, hud, "Extended", "Abandon")
    await says(sim, mira, hud, "Extended", "Start", "Custom", Type("7 in 4"), "Social")
    await says(sim, mira, hud, "Extended", "Abandon")

    # Teamwork.
    await says(sim, mira, hud, "Team", "Lead", "Social", "+1")
    await says(sim, dorian, dhud, "Team", "Help", "No WP")
    await says(sim, mira, hud, "Team", "Team Status")
    await says(sim, mira, hud, "Team", "Team Roll", "Spend WP")
    await says(sim, mira, hud, "Team", "Lead", "Mental", "+0")
    await says(sim, dorian, dhud, "Team", "Help Leader", Type("Mira"), "Spend WP")
    await says(sim, mira, hud, "Team", "Cancel Team")

    # ---- The Storyteller's evening.
    await says(sim, vera, st, "Roll", Type("5"), public="NPC roll by Storyteller")
    await walk(sim, vera, st, "Sheets", "Approved Characters", "1. Dorian Gray", "Back")
    await walk(sim, vera, st, "Sheets", "Search by Name", Type("mira"), "1. Mira")
    profile = ["Sheets", "Search by Name", Type("mira"), "1. Mira"]
    await says(sim, vera, st, *profile, "Roll Stat", "Physical", "+1", public="rolls Mira's Physical")
    await says(sim, vera, st, *profile, "To Discord")
    await says(sim, vera, st, *profile, "Edit Info", "Origin", Type("Mage"))
    await says(sim, vera, st, *profile, "Edit Traits", "Physical", "4")
    await says(sim, vera, st, *profile, "Edit Traits", "Mental", "Custom", Type("5"))
    await says(sim, vera, st, *profile, "Edit Powers", "Add Power", Type("Doom"), "Legendary", "Spirit")
    await says(sim, vera, st, *profile, "Edit Powers", "Remove Power", Type("Doom"))
    await says(sim, vera, st, *profile, "Edit Traits", "Willpower", "3")
    await says(sim, vera, st, *profile, "Edit Traits", "Essence", "Custom", Type("12"))
    await says(sim, vera, st, *profile, "Edit Traits", "Damage", "0")
    await says(sim, vera, st, *profile, "Show Sheet")
    await says(sim, vera, st, *profile, "History")
    await says(sim, vera, st, *profile, "Unapprove")
    await says(sim, vera, st, *profile, "Approve", "Approve")
    await walk(sim, vera, st, "Sheets", "Search by Name", Type("a"))
    await sim.until(lambda: sim.open_dialog(vera).menu == "roster")
    await sim.click(vera, "Next >")
    await sim.until(lambda: sim.open_dialog(vera).menu == "roster")
    await sim.click(vera, "< Prev")
    await sim.until(lambda: sim.open_dialog(vera).menu == "roster")
    await sim.click(vera, "Back")
    await sim.click(vera, "Back")
    await says(sim, vera, st, "Sheets", "Force Web Sync")

    # Announce: through the relay (llRegionSay) to every Player HUD, which shows it in a dialog.
    await says(sim, vera, st, "Announce", Type("The sirens stop."))
    await sim.until(
        lambda: any(
            d.message == "Announcement\n\nAnnouncement from Storyteller Vera Storyteller: The sirens stop."
            for d in sim.dialogs.get(mira.key, [])
        )
    )
    await walk(sim, vera, st, "Emote", "NPC (local)", Type("Old Tom"), Type("coughs."))
    assert "Old Tom: /me coughs." in sim.said()
    await says(sim, vera, st, "Emote", "Region HUDs", Type("The lights flicker."))
    await sim.until(lambda: any("The lights flicker." in h for h in dorian.heard))
    # A region restart: the relay asks for a new URL and registers it; the next emote still arrives.
    registered = sum(e.url.endswith("/register") for e in sim.exchanges)
    relay.script("relay.lsl").queue("changed", CHANGED_REGION_START)
    await sim.until(
        lambda: sum(e.url.endswith("/register") and e.status == 200 for e in sim.exchanges) > registered
    )
    await says(sim, vera, st, "Emote", "Region HUDs", Type("The rain starts."))
    await sim.until(lambda: any("The rain starts." in h for h in dorian.heard))
    # Anyone else on the relay channel, even copying the envelope's shape, is not heard.
    forged = json.dumps({"kind": "emote", "id": 999, "text": "Forged."})
    await sim.chat_as(land, RELAY_CHANNEL, f"NCGW|{int(time.time())}|{'A' * 43}=|{forged}")
    assert not any("Forged." in h for h in mira.heard + dorian.heard)
    await says(sim, vera, st, "Emote", "Everywhere", Type("A crow laughs."))
    await sim.until(lambda: any("A crow laughs." in h for h in mira.heard))
    await walk(sim, vera, st, "Give HUD", Type("mira"), "1. Mira Vance (mira.vanc")
    assert sim.given == [(mira.key, "Nightcap Player HUD")]
    await says(sim, vera, st, "Manage STs", "List STs")
    await says(sim, vera, st, "Manage STs", "Add ST", Type(dorian.key))
    await says(sim, vera, st, "Manage STs", "Remove ST", Type(dorian.key))
    await walk(sim, vera, st, "Manage STs", "Add ST", Type("dorian"), "1. Dorian Gray (dorian.g")
    await walk(sim, vera, st, "Manage STs", "Remove ST", Type("Dorian"))
    assert vera.heard[-1] == "That is not an avatar UUID."
    await walk(sim, vera, st, "Emote", "Back")

    # The Storyteller log reached the ST HUD's URL: every roll, with its dice.
    await sim.until(
        lambda: any(h.startswith("[ST log] ") and roll.split(": ", 1)[1] in h for h in vera.heard)
    )
    assert all(status == 200 for _, status, _ in sim.pushes), sim.pushes
    pushed_to = {name for name, _, _ in sim.pushes}
    assert {"Nightcap Relay/relay.lsl", "Nightcap ST HUD/st_hud.lsl", f"{HUD}/player_hud.lsl"} <= pushed_to
    sim.check()

    # ---- Every dialog of both HUDs was shown, and every button the scripts branch on was clicked.
    for name in ("player_hud.lsl", "st_hud.lsl"):
        source = (LSL / name).read_text(encoding="utf-8")
        shown = {menu for script, menu, _ in sim.shown if script == name}
        assert menu_ids(source) - shown == set(), name
        clicked = {(menu, label) for script, menu, label in sim.clicked if script == name}
        clicked |= {("*", label) for _, label in clicked}
        assert branches(source) - clicked == set(), name


def mutated(name: str, old: str, new: str) -> str:
    source = main_script(name)
    assert source.count(old) == 1, old
    return source.replace(old, new)


@needs_lummao
async def test_a_button_whose_line_the_gateway_refuses_fails_the_walk(gateway_serve: str, sim: Sim) -> None:
    """A Traits > Physical > 3 that filled its declared line wrongly ("trait physical3") stops the test."""
    mira = sim.avatar("Mira Vance")
    broken = mutated(
        "player_hud.lsl", "        out += p;", "        out = llStringTrim(out + p, STRING_TRIM);"
    )
    hud = await rez(sim, gateway_serve, HUD, mira, "player_hud.lsl", broken)
    await says(sim, mira, hud, "Character Info", "New Character", Type("Mira"), private="Mira is made")
    with pytest.raises(Problem, match=r"the gateway refused 'trait physical3' from Nightcap Player HUD"):
        await walk(sim, mira, hud, "Traits", "Physical", "3")
    # The line as the real script builds it is understood.
    sim.refusals.clear()
    mira2 = sim.avatar("Mira Two")
    good = await rez(sim, gateway_serve, HUD, mira2, "player_hud.lsl")
    await says(sim, mira2, good, "Character Info", "New Character", Type("Tess"), private="Tess is made")
    await says(sim, mira2, good, "Traits", "Physical", "3", private="Tess: Physical 3.")


@needs_lummao
async def test_a_dialog_past_the_simulators_limits_fails_the_walk(gateway_serve: str, sim: Sim) -> None:
    """menu() keeps every dialog to 12 buttons; without its trim the main menu would have 24 (4 × 6)."""
    mira = sim.avatar("Mira Vance")
    broken = mutated(
        "player_hud.lsl",
        "buttons = llList2List(buttons, 0, 11);",
        "buttons = buttons + buttons + buttons + buttons;",
    )
    hud = await rez(sim, gateway_serve, HUD, mira, "player_hud.lsl", broken)
    with pytest.raises(Problem, match=r"dialog 'main': 24 buttons \(12 at most\)"):
        await sim.touch(mira, hud)


def test_the_coverage_sets_are_read_from_the_scripts() -> None:
    player = (LSL / "player_hud.lsl").read_text(encoding="utf-8")
    st = (LSL / "st_hud.lsl").read_text(encoding="utf-8")
    assert {"main", "info", "mod", "wp", "use_tier", "ext_size", "assist_name"} <= menu_ids(player)
    assert {"main", "roster", "profile", "field_pick", "st_add_pick", "npc_text"} <= menu_ids(st)
    assert {("*", "Back"), ("*", "Cancel"), ("wp", "Spend WP"), ("team", "Help Leader")} <= branches(player)
    assert {("profile", "Unapprove"), ("roster", "Next >"), ("emote", "NPC (local)")} <= branches(st)
    # The ST HUD's pads, tiers and traits are the declaration's data now, not branches of its own.
    assert len(branches(player)) >= 45 and len(branches(st)) >= 30


def test_nothing_but_the_driver_imports_lummao() -> None:
    """lummao is GPLv3: only the driver (a separate GPL program) imports it, and nothing imports the
    driver; the harness starts it as a program."""
    importers = []
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts or "node_modules" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        if re.search(
            r"^\s*(import|from) (lummao|\S*lsl_driver)\b|^\s*from \S+ import .*\blsl_driver\b", text, re.M
        ):
            importers.append(path.relative_to(ROOT).as_posix())
    assert importers == ["tests/secondlife/lsl_driver.py"]
    assert "GPL-3.0-or-later" in (ROOT / "tests/secondlife/lsl_driver.py").read_text(encoding="utf-8")
