"""The whole cycle through the console adapter: piped commands in, printed replies out."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from adapters.console.repl import run_console
from gateway.core.settings import Settings


async def console(
    url: str, lines: list[str], *, name: str, st: bool = False, script: str = "", json_out=False
):
    settings = Settings(vault={"url": url}, dice={"script": script or None})
    out = io.StringIO()
    code = await run_console(
        settings,
        name=name,
        storyteller=st,
        as_json=json_out,
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        stdout=out,
    )
    assert code == 0
    return out.getvalue().splitlines()


async def test_creation_submit_approve_play_through_the_console(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    creation = await console(
        url,
        [
            "char new Mira",
            "trait physical 4",
            "trait social 4",
            "trait mental 2",
            "trait spirit 3",
            "power add Shadow Step adept physical",
            "power add Ward basic spirit",
            "char set origin Mage",
            "prove",
            "char submit",
        ],
        name="mira",
    )
    assert creation == [
        "Mira is made and active, in creation. Traits start at 1: place 6 points with trait NAME N"
        " (none above 4, one at most at 4); 3 power dots with power add NAME TIER TRAIT;"
        " fields with char set FIELD TEXT."
        " char budget shows what is left; char submit when done.",
        "Mira: Physical 4. 3 trait points left.",
        "Social 4 would be a second trait at 4: Physical is already 4.",
        "Mira: Mental 2. 2 trait points left.",
        "Mira: Spirit 3. 0 trait points left.",
        "Mira learns Shadow Step (Adept, Physical). 1 power dot left.",
        "Mira learns Ward (Basic, Spirit). 0 power dots left.",
        "Mira: Origin is now Mage.",
        "Mira is not approved yet: prove works once a Storyteller approves the sheet"
        " (char submit when it is ready).",
        "Mira is submitted: a Storyteller will read the sheet and approve it.",
    ]
    refused = await console(url, ["st approve Mira"], name="mira")
    assert refused == ["st approve needs the Storyteller role, which you do not have."]
    approval = await console(url, ["st roster unlocked", "st approve Mira"], name="ana", st=True)
    assert approval == [
        "Unlocked characters (1): Mira (submitted, mira).",
        "Mira is approved and locked; Willpower and Essence are full. The sheet goes to the Storyteller log.",
    ]
    play = await console(
        url,
        ["+prove", "roll physical wp", "power use ward", "checkin", "trait social 2"],
        name="mira",
        script="9,5,10,1,7,7,7,10,7,8",
        json_out=True,
    )
    replies = [json.loads(line) for line in play]
    assert [r["error"] for r in replies] == [None, None, None, None, "invalid"]
    assert (
        replies[0]["text"] == "Mira: Physical 4, Mental 2, Social 1, Spirit 3 · Willpower 5/5 · Essence 10/10"
    )
    assert replies[1]["result"]["dice"] == [9, 5, 10, 1] and replies[1]["result"]["total"] == 3
    assert replies[2]["result"]["power"]["essence"] == 0 and replies[2]["result"]["dice"] == [7, 7, 7]
    assert replies[3]["result"]["kind"] == "checkin" and replies[3]["result"]["dice"] == [10, 7, 8]
    assert replies[4]["text"] == "Mira is approved and locked: changes go through a Storyteller."
    log = await console(url, ["st log Mira --limit 3"], name="ana", st=True, json_out=True)
    entries = json.loads(log[0])["result"]["entries"]
    assert [e["kind"] for e in entries] == ["roll", "power", "checkin"]
    assert [e["result"]["dice"] for e in entries] == [[9, 5, 10, 1], [7, 7, 7], [10, 7, 8]]


def test_gateway_console_piped_as_a_program(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GATEWAY_NO_VENV": "1",
        "GATEWAY_VAULT_URL": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}",
        "GATEWAY_DICE_SCRIPT": "7,7",
    }
    env.pop("GATEWAY_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "gateway", "console", "--as", "mira", "--json"],
        input="char new Mira\ntrait physical 9\nroll 1 +1\nsheet\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["error"] for r in replies] == [None, "invalid", None, None]
    assert replies[1]["text"] == (
        "Physical 9 is above 4: no trait starts above 4; a Storyteller can raise it after approval."
    )
    assert replies[2]["result"]["pool"] == 2
    assert replies[3]["private"] is True and replies[3]["result"]["sheet"]["status"] == "creation"
