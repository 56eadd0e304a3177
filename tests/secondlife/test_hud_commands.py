"""Every command line the LSL HUDs can build is one the gateway understands.

The scripts' ``command("...")``, ``ask_mod("...")`` and ``ask_wp("...")`` call sites are read from the
source; each literal start must have an example here (so a new menu entry cannot go untested). Then
EVERY line a button path can build (each trait, each modifier button, each Willpower choice, each
tier, each pad value) is built here from the scripts' own button lists and from Nightcap's menu
declaration (``adapters.secondlife.menus``: the Roll, Use Power, field, trait and power lines), the
way the script joins and fills them (the joining lines are checked to be in the script), and sent
through the HUD emulator: each must be answered without an error.

The book, *Using the player HUD*: "Roll — pick a trait, then apply a modifier if the scene calls for
one"; *Spending willpower*: "Before the dice leave your hand the HUD asks whether you want to spend a
point"; the modifier table runs from "−1 to −2 … Rushed, injured" to "±3 or more".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from adapters.secondlife.menus import build
from plugins.nightcap import NIGHTCAP
from tests.secondlife.conftest import World
from tests.secondlife.harness import Hud, new_key
from tests.secondlife.test_lsl import button_lists

pytest.importorskip("plugins.nightcap.chargen", reason="needs the Nightcap character commands (issue 3)")

LSL = Path(__file__).resolve().parents[2] / "adapters" / "secondlife" / "lsl"
PLAYER_SRC = (LSL / "player_hud.lsl").read_text(encoding="utf-8")
ST_SRC = (LSL / "st_hud.lsl").read_text(encoding="utf-8")
NAV = {"Back", "Cancel", "< Prev", "Next >"}
DORIAN = new_key()
MIRA, FOE = "Mira Vance", "Dorian Gray"


def buttons(source: str, name: str) -> list[str]:
    return [b for b in button_lists(source)[name] if b not in NAV]


P = {name: buttons(PLAYER_SRC, name) for name in button_lists(PLAYER_SRC)}
S = {name: buttons(ST_SRC, name) for name in button_lists(ST_SRC)}
DECL = build(NIGHTCAP, "en")
TRAITS = [key for key, _label in DECL["traits"]]
MODS, WPS = P["B_MODS"], P["B_WP"]

# How the Storyteller HUD joins them.
ST_JOINING = [
    'gA = d(["roll", 0]) + " " + quoted(gChar) + " " + offered(m);',
    'if ((integer)d(["roll", 1])) menu("stat_mod", "Modifier:", B_MODS);',
    "command(gA + mod);",
    'command(fill(d(["set", gField, 2]), ["name", "value"], [quoted(gChar), value]));',
    'else if (id == "field_custom") set_to((string)((integer)m));',
    'command(fill(d(["power", "add"]), ["name", "power", "tier", "trait"], [quoted(gChar), quoted(gB)',
    "quoted(gB), gA, t]));",
    'command(fill(d(["power", "remove"]), ["name", "power"], [quoted(gChar), quoted(m)]));',
]

# How the Player HUD joins the choices (the script's own lines, checked below).
JOINING = [
    'if (m != "+0") gB = " " + m;',
    'if (gAskWp) menu("wp", wp_prompt(), B_WP);',
    "else command(gCmd + gB);",
    'if (m == "Spend WP") command(gCmd + gB + " wp");',
    'roll_with(d(["roll", 0]) + " " + k, m, (integer)d(["roll", 1]), (integer)d(["roll", 2]));',
    "if (mod) ask_mod(cmd, what, wp);",
    "else if (wp) ask_wp(cmd, wp_prompt());",
    'string cmd = d(["power", "use", 0]) + " " + quoted(gA);',
    'if (tier != "") cmd += " " + tier;',
    "if (llToLower(v) == llToLower(learned)) v = JSON_INVALID;",
    'command(fill(d(["set", gField, 2]), ["value"], [v]));',
    'command(fill(d(["power", "add"]), ["power", "tier", "trait"], [quoted(gA), gB, k]));',
    'ask_mod("defend " + offered(m), m, TRUE);',
    'ask_mod("challenge " + quoted(gA) + " " + offered(m), m, TRUE);',
    'ask_mod("attack " + quoted(gA) + " " + offered(m),',
    'ask_mod("extended roll", "this step", TRUE);',
    'list w = llParseString2List(llToLower(m), [" ", "in"], []);',
    'command("extended start " + gA + " " + offered(m));',
    'ask_mod("team start " + offered(m), m, FALSE);',
    'ask_wp("assist", ',
    'ask_wp("assist " + quoted(m), ',
    'ask_wp("team roll", wp_prompt());',
]


def with_mod(cmd: str, mod: str) -> str:
    return cmd if mod == "+0" else f"{cmd} {mod}"


def with_wp(cmd: str, wp: str) -> str:
    return f"{cmd} wp" if wp == "Spend WP" else cmd


def ext_size(label: str) -> str:
    """What the script makes of "5 in 3" (or a typed "7 in 4"): "5 3"."""
    a, b = (w for w in re.split(r" |in", label.lower()) if w)
    return f"{int(a)} {int(b)}"


@dataclass(frozen=True)
class Step:
    """One button path's command line, sent by ``by``; ``before``/``after`` are what other HUDs (or
    the same one) send around it so that the line has something to act on."""

    line: str
    flow: str
    by: str = "mira"
    mod: str = "+0"
    before: tuple[tuple[str, str], ...] = ()
    after: tuple[tuple[str, str], ...] = ()

    @property
    def negative(self) -> bool:
        return self.mod.startswith("-")


Sends = tuple[tuple[str, str], ...]


def rolled(
    flow: str, cmd: str, *, by: str = "mira", wp: bool = True, before: Sends = (), after: Sends = ()
) -> Iterator[Step]:
    """``cmd`` after the modifier menu (each button) and, with ``wp``, the Willpower menu (each)."""
    for mod in MODS:
        for choice in WPS if wp else ["No WP"]:
            line = with_wp(with_mod(cmd, mod), choice)
            yield Step(line, flow, by=by, mod=mod, before=before, after=after)


CHALLENGE_HIM = ("mira", f'challenge "{FOE}" physical')
HEAL_HIM = ("st", f'st pool "{FOE}" damage 0')
EXT = ("mira", "extended start 10 5 physical")
ABANDON = ("mira", "extended abandon")
LEAD = ("mira", "team start physical")
CANCEL = ("mira", "team cancel")


def fill(template: list[str], **values: str) -> str:
    """The script's fill(): even items literal, odd items a value's name."""
    return "".join(part if i % 2 == 0 else values[part] for i, part in enumerate(template))


def declared_creation_lines() -> Iterator[tuple[str, str]]:
    """Every line the CharGen menus fill from the declaration: each field with each pad value or
    choice (text fields with an example), each power tier a player may take with each trait; with
    the label a rule's refusal of it names ("" where none may be refused)."""
    for label, kind, template, low, high, choices in DECL["set"]:
        if kind == "text":
            yield fill(template, value=f"{label} example"), ""
        elif kind == "choice":
            yield from ((fill(template, value=value), "") for value, _label in choices)
        else:  # a pad of ten values at most (Custom types one): the creation rules refuse some
            yield from ((fill(template, value=str(n)), label) for n in range(low, min(high, low + 9) + 1))
    power = DECL["power"]
    for tier, _label, player in power["tiers"]:
        for trait in TRAITS if player else ():
            yield fill(power["add"], power='"Doom"', tier=tier, trait=trait), ""
            yield fill(power["remove"], power='"Doom"'), ""
    for _label, template, _statuses in DECL["acts"]:
        yield fill(template), ""
    yield fill(DECL["use"], name=f'"{MIRA}"'), ""


def player_steps() -> Iterator[Step]:
    # Roll: the declared command, a trait, the modifier and Willpower steps it declares.
    word, mod, wp = DECL["roll"]
    assert (word, mod, wp) == ("roll", 1, 1)
    for t in TRAITS:
        yield from rolled("roll", f"{word} {t}")
    # Use Power: the power, a declared tier up to the learned one, modifier, Willpower.
    tiers = [value for value, _label, _player in DECL["power"]["tiers"]]
    for name, learned in (("Knack", "basic"), ("Veil", "adept")):
        for tier in tiers[: tiers.index(learned) + 1]:
            yield from rolled("power use", f'{DECL["power"]["use"][0]} "{name}" {tier}')
    # Health.
    for n in P["B_DAMAGE"]:
        yield Step(f"damage {n}", "health", after=(("st", f'st pool "{MIRA}" damage 0'),))
    yield Step("heal 1", "health", before=(("mira", "damage 1"),))
    # Macros: a click runs "macro NAME" (saved over /7 first).
    yield Step("macro hit", "macro", before=(("mira", "macro add hit = roll physical"),))
    # Web: a one-time sign-in link (the HUD opens it with llLoadURL).
    yield Step("web", "web")
    # Challenge menu.
    assert P["B_CHALLENGE"] == ["Defend", "Concede", "Challenge", "Pending"]
    for t in TRAITS:
        yield from rolled("defend", f"defend {t}", by="dorian", before=(CHALLENGE_HIM,))
    yield Step("concede", "concede", by="dorian", before=(CHALLENGE_HIM,))
    for t in TRAITS:
        yield from rolled("challenge", f'challenge "{FOE}" {t}', after=(("dorian", "concede"),))
    yield Step("challenge", "challenge", before=(CHALLENGE_HIM,), after=(("dorian", "concede"),))
    # Fight menu, in the order of a fight.
    assert P["B_FIGHT"] == ["Join Fight", "Attack", "Order", "Next Turn", "Start Fight", "Roll Order"]
    yield Step("init start", "fight")
    yield Step("init join", "fight", after=(("dorian", "init join"),))
    yield Step("init roll", "fight")
    yield Step("init list", "fight")
    # "Your turn. One meaningful action": the turn goes round to Mira again after each attack.
    round_again = (("mira", "init next"), ("dorian", "init next"))
    for t in TRAITS:
        yield from rolled("attack", f'attack "{FOE}" {t}', after=(HEAL_HIM, *round_again))
    yield Step("init next", "fight", after=(("st", "init end"),))
    # Extended menu.
    assert P["B_EXTENDED"] == ["Start", "Roll", "Status", "Abandon"]
    for size in [*(s for s in P["B_EXT_SIZE"] if s != "Custom"), "7 in 4"]:
        for t in TRAITS:
            yield Step(f"extended start {ext_size(size)} {t}", "extended", after=(ABANDON,))
    yield from rolled("extended roll", "extended roll", before=(EXT,), after=(ABANDON,))
    yield Step("extended status", "extended", before=(EXT,))
    yield Step("extended abandon", "extended")
    # Team menu.
    assert P["B_TEAM"] == ["Lead", "Help", "Help Leader", "Team Roll", "Team Status", "Cancel Team"]
    for t in TRAITS:
        yield from rolled("team start", f"team start {t}", wp=False, after=(CANCEL,))
    for cmd in ("assist", f'assist "{MIRA}"'):
        for choice in WPS:
            yield Step(with_wp(cmd, choice), "assist", by="dorian", before=(LEAD,), after=(CANCEL,))
    for choice in WPS:
        yield Step(with_wp("team roll", choice), "team roll", before=(LEAD, ("dorian", "assist")))
    yield Step("team status", "team", before=(LEAD,))
    yield Step("team cancel", "team")
    yield Step("checkin", "checkin")
    yield Step("sheet", "sheet")
    yield Step("health", "health")
    yield Step("prove", "prove")


def st_steps() -> Iterator[Step]:
    """The Storyteller HUD's lines from the declaration's ``st`` part, joined as ``ST_JOINING``."""
    who = f'"{MIRA}"'
    st = DECL["st"]
    word, asks_mod, _wp = st["roll"]  # the ST HUD asks the modifier only: no Willpower of theirs
    for t in TRAITS:
        for mod in S["B_MODS"] if asks_mod else ["+0"]:
            yield Step(with_mod(f"{word} {who} {t}", mod), word, by="st", mod=mod)
    for _label, kind, template, low, high, choices in st["set"]:
        flow = template[0].strip()
        if kind == "text":
            yield Step(fill(template, name=who, value="Cannot pass a crossroads"), flow, by="st")
        for value, _choice in choices:
            yield Step(fill(template, name=who, value=value), flow, by="st")
        if kind in ("number", "typed"):
            for n in [*range(low, min(high, low + 9) + 1), *([12] if kind == "typed" else [])]:
                yield Step(fill(template, name=who, value=str(n)), flow, by="st")  # 12: Custom
    for tier, _label, _player in DECL["power"]["tiers"]:
        for t in TRAITS:
            add = fill(st["power"]["add"], name=who, power='"Doom"', tier=tier, trait=t)
            remove = fill(st["power"]["remove"], name=who, power='"Doom"')
            yield Step(add, "st power", by="st", after=(("st", remove),))
    # The Roll text box's own examples ("a pool such as 5, 4+1 or 6 vs 3").
    hint = re.search(r'ask\("roll", "NPC or situational roll: a pool such as (.*?)\."\);', ST_SRC)
    assert hint is not None
    for example in re.split(r", | or ", hint.group(1)):
        yield Step(f"st roll {example}", "st roll", by="st")
    yield Step("st emote here The lights flicker.", "st emote", by="st")
    yield Step("st emote A crow laughs.", "st emote", by="st")


# One example per literal start, the check that no call site goes without one.
PLAYER_CREATION = {"char new ": f'char new "{MIRA}"'}
PLAYER_STARTS = {
    "sheet",
    "checkin",
    "health",
    "heal 1",
    "damage ",
    "prove",
    "defend ",
    "concede",
    "challenge",
    "challenge ",
    "init join",
    "init list",
    "init next",
    "init start",
    "init roll",
    "attack ",
    "extended roll",
    "extended start ",
    "extended status",
    "extended abandon",
    "team start ",
    "assist",
    "assist ",
    "team roll",
    "team status",
    "team cancel",
    "macro ",
    "web",
}
ST = {
    "st roll ": "st roll 4+1",
    "st show ": f'st show "{MIRA}"',
    "st history ": f'st history "{MIRA}"',
    "st export ": f'st export "{MIRA}"',
    "st sync": "st sync",
    "st unapprove ": f'st unapprove "{MIRA}"',
    "st approve ": f'st approve "{MIRA}"',
    "st announce ": "st announce Doors close at midnight.",
    "st emote ": "st emote The lights flicker.",
    "st emote here ": "st emote here A door creaks.",
    "st add sl:": f"st add sl:{DORIAN}",
    "st list": "st list",
    "st remove sl:": f"st remove sl:{DORIAN}",
}
# The lines the declaration's ``st`` part builds (``st_steps``), not written in the script.
ST_DECLARED = {
    "st rollstat ": f'st rollstat "{MIRA}" physical +1',
    "st set ": f'st set "{MIRA}" weakness Cannot pass a crossroads',
    "st trait ": f'st trait "{MIRA}" spirit 7',
    "st pool ": f'st pool "{MIRA}" essence 3',
    "st power ": f'st power "{MIRA}" add "Doom" legendary spirit',
}


def literal_starts(source: str) -> set[str]:
    return set(re.findall(r'\b(?:command|ask_mod|ask_wp)\("([^"]*)"', source))


def test_every_menu_command_has_an_example_here() -> None:
    assert literal_starts(PLAYER_SRC) == set(PLAYER_CREATION) | PLAYER_STARTS
    assert literal_starts(ST_SRC) == set(ST)
    built = {s.line for s in player_steps()}
    for start in PLAYER_STARTS:
        assert any(line == start or line.startswith(start) for line in built), start


def test_the_lines_here_are_built_the_way_the_script_builds_them() -> None:
    for line in JOINING:
        assert line in PLAYER_SRC, line
    # Each submenu button leads somewhere in the script.
    for name in ("B_CHALLENGE", "B_FIGHT", "B_EXTENDED", "B_TEAM"):
        for label in P[name]:
            assert f'm == "{label}"' in PLAYER_SRC, label
    assert 'else if (id == "emote_region") command("st emote here " + m);' in ST_SRC
    assert 'else if (id == "emote_all") command("st emote " + m);' in ST_SRC
    for line in ST_JOINING:
        assert line in ST_SRC, line
    assert 'if (m == "Custom") ask("ext_size", ' in PLAYER_SRC  # the other sizes are parsed


async def send(hud: Hud, text: str) -> str:
    response = await hud.command(text, state=True, body_max=16384)
    assert response.status == 200, response.text
    replies = response.json["replies"]
    assert replies, text
    errors = [r["text"] for r in replies if r.get("error")]
    assert not errors, (text, errors)
    return str(replies[0]["text"])


async def send_or_refused(hud: Hud, text: str, label: str) -> None:
    """A pad value the creation rules may refuse: answered, or refused in one line naming the field."""
    response = await hud.command(text, state=True, body_max=16384)
    assert response.status == 200, response.text
    [reply] = response.json["replies"]
    assert not reply.get("error") or label in reply["text"], (text, reply)


async def approved(world: World) -> dict[str, Hud]:
    """Mira built through the creation menus, Dorian plainly; both approved, pools deep enough."""
    huds = {"mira": world.hud(MIRA), "dorian": world.hud(FOE), "st": world.st_hud()}
    mira, dorian, st = huds["mira"], huds["dorian"], huds["st"]
    for start, example in PLAYER_CREATION.items():
        assert example.startswith(start)
        await send(mira, example)
    for line, refused_naming in declared_creation_lines():
        if line == "char submit":  # sent last
            continue
        if refused_naming:
            await send_or_refused(mira, line, refused_naming)
        else:
            await send(mira, line)
    for trait in TRAITS:
        await send(mira, f"trait {trait} 1")
    await send(mira, 'power add "Knack" basic mental')
    for trait, value in (("physical", 3), ("mental", 3), ("social", 2), ("spirit", 2)):
        await send(mira, f"trait {trait} {value}")
    await send(mira, 'power add "Veil" adept spirit')
    await send(mira, "char submit")
    await send(dorian, f'char new "{FOE}"')
    for trait, value in (("physical", 3), ("mental", 3), ("social", 3), ("spirit", 1)):
        await send(dorian, f"trait {trait} {value}")
    await send(dorian, 'power add "Ward" advanced spirit')
    await send(dorian, "char submit")
    for name in (MIRA, FOE):
        await send(st, f'st approve "{name}"')
        for pool in ("willpower", "essence"):
            await send(st, f'st pool "{name}" {pool} max 900')
            await send(st, f'st pool "{name}" {pool} 900')
    return huds


async def run(world: World, huds: dict[str, Hud], step: Step) -> None:
    for by, line in step.before:
        await send(huds[by], line)
    await send(huds[step.by], step.line)
    for by, line in step.after:
        await send(huds[by], line)


def play_world(make_world):  # type: ignore[no-untyped-def]
    # Faces of 5 score nothing: no extended action ends, no attack hurts beyond Willpower's +1.
    # Hundreds of lines from one HUD, faster than a script could send them: no rate limit here.
    return make_world(
        nightcap={"sheet_export": "discord:sheets", "health_levels": 100},
        secondlife={"rate_burst": 100000, "rate_per_second": 10000.0},
    )


async def test_every_button_line_is_understood(make_world) -> None:  # type: ignore[no-untyped-def]
    """The −1, −2, −3 buttons too: "−1 to −2 … Rushed, injured, distracted" (the book's modifiers);
    issue 19: `roll physical -1` was "Unknown trait 'physical-1'", so were defend, challenge, attack,
    extended roll and team start with a negative first modifier."""
    world = await play_world(make_world)
    world.dice.extend([5] * 20000)
    huds = await approved(world)
    negative = [s for s in player_steps() if s.negative]
    assert {s.flow for s in negative} >= {"roll", "power use", "defend", "challenge", "attack"}
    for step in player_steps():
        await run(world, huds, step)
    for step in st_steps():
        await run(world, huds, step)
    for start, example in {**ST, **ST_DECLARED}.items():
        assert example.startswith(start)
        await send(huds["st"], example)


async def test_force_approve_takes_a_sheet_that_was_never_submitted(make_world) -> None:  # type: ignore[no-untyped-def]
    """The ST HUD's Approve asks first: "Approve" sends `st approve NAME`, which the gateway refuses
    for an empty, unsubmitted sheet (issue 19); "Force Approve" adds the word that takes it anyway."""
    assert 'if (m == "Force Approve") force = " force";' in ST_SRC
    assert 'command("st approve " + quoted(gChar) + force);' in ST_SRC
    world = await play_world(make_world)
    player, st = world.hud(MIRA), world.st_hud()
    await send(player, f'char new "{MIRA}"')
    refused = await st.command(f'st approve "{MIRA}"', state=True)
    assert refused.status == 200 and refused.json["replies"][0]["error"], refused.text
    assert "force" in refused.json["replies"][0]["text"]
    await send(st, f'st approve "{MIRA}" force')
