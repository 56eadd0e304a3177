"""The LSL scripts: they compile, and their dialogs keep within llDialog's limits.

Compilation uses lummao's command-line compiler as a separate program (GPLv3; we never import it or
run its output, see adapters/secondlife/README.md). lummao 0.5.2 predates llHMAC, so the check
declares a stand-in function of the same signature first; everything else is compiled as written.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.state import CHARS_LISTED, ROSTER_PAGE

LSL = Path(__file__).resolve().parents[2] / "adapters" / "secondlife" / "lsl"
SCRIPTS = sorted(LSL.glob("*.lsl"))
HMAC_SHIM = "string lummaoHMAC(string k, string m, string a) { return m; } "


def lummao() -> str | None:
    """The lummao program: on PATH, or next to this interpreter (an unactivated virtualenv)."""
    beside = Path(sys.executable).parent / "lummao"
    return shutil.which("lummao") or (str(beside) if beside.exists() else None)


LUMMAO = lummao()


def test_the_scripts_are_there() -> None:
    assert [p.name for p in SCRIPTS] == ["nc_config.lsl", "player_hud.lsl", "relay.lsl", "st_hud.lsl"]


@pytest.mark.skipif(LUMMAO is None, reason="lummao (a Linux x86_64 wheel) is not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_compiles(script: Path, tmp_path: Path) -> None:
    source = script.read_text(encoding="utf-8")
    # Same line numbers as the original: the shim goes at the start of line 1.
    shimmed = HMAC_SHIM + source.replace("llHMAC(", "lummaoHMAC(")
    src, out = tmp_path / script.name, tmp_path / "out.py"
    src.write_text(shimmed, encoding="utf-8")
    assert LUMMAO is not None
    done = subprocess.run([LUMMAO, str(src), str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(LUMMAO is None, reason="lummao (a Linux x86_64 wheel) is not installed")
def test_a_broken_script_fails_the_compile_check(tmp_path: Path) -> None:
    assert LUMMAO is not None
    src = tmp_path / "bad.lsl"
    src.write_text('default { state_entry() { integer x = "a"; } }', encoding="utf-8")
    done = subprocess.run([LUMMAO, str(src), str(tmp_path / "o.py")], capture_output=True, text=True)
    assert done.returncode != 0 and "E10015" in done.stderr


# ---------------------------------------------------------------- dialog limits, read from the source

LIST_RE = re.compile(r"^list (B_\w+|TIER_NAMES) = \[(.*?)\];", re.S | re.M)
STRING_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')


def button_lists(source: str) -> dict[str, list[str]]:
    lists = {}
    for name, body in LIST_RE.findall(source):
        items = [item.strip() for item in body.replace("\n", " ").split(",") if item.strip()]
        assert all(STRING_RE.fullmatch(i) for i in items), f"{name} holds something other than strings"
        lists[name] = [STRING_RE.fullmatch(i).group(1) for i in items]  # type: ignore[union-attr]
    return lists


def call_arguments(source: str, at: int) -> list[str]:
    """The top-level arguments (stripped) of the call whose "(" ends at ``at``."""
    depth, i, start, args = 1, at, at, []
    while depth:
        ch = source[i]
        if ch == '"':
            i = source.index('"', i + 1)
            while source[i - 1] == "\\":
                i = source.index('"', i + 1)
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 1:
            args.append(source[start:i].strip())
            start = i + 1
        i += 1
    args.append(source[start : i - 1].strip())
    return args


def menu_calls(source: str) -> list[str]:
    """The button argument of every ``menu(id, text, buttons)`` call."""
    calls = []
    for match in re.finditer(r"\bmenu\(", source):
        args = call_arguments(source, match.end())
        if len(args) == 3 and not args[0].startswith("string "):  # not the definition
            calls.append(" ".join(args[2].split()))
    return calls


# Buttons that come from data, with the bound the script enforces where the list is built, and the
# source text that enforces it.
DYNAMIC = {
    "player_hud.lsl": {
        "labels": (11, "gPick = llList2List(names, 0, 10);"),
        # offer(): the declaration's choices, all when 11 or fewer, else 10 a page and More.
        "shown": (11, "if (llGetListLength(gLabels) <= 11) shown = gLabels;"),
    },
    "st_hud.lsl": {
        'llJson2List(llJsonGetValue(data, ["labels"]))': (ROSTER_PAGE, "gateway: ROSTER_PAGE"),
        "labels": (11, "llGetListLength(gPick) < 11"),
        "have([toggle])": (1, 'string toggle = "Approve";'),
        # offer(): the declaration's choices, all when 11 or fewer, else 10 a page and More.
        "shown": (11, "if (llGetListLength(gLabels) <= 11) shown = gLabels;"),
    },
}


@pytest.mark.parametrize("script", ["player_hud.lsl", "st_hud.lsl"])
def test_every_dialog_fits_12_buttons_of_24_bytes(script: str) -> None:
    source = (LSL / script).read_text(encoding="utf-8")
    lists = button_lists(source)
    assert lists, "no button lists found"
    for name, buttons in lists.items():
        assert 1 <= len(buttons) <= 12, name
        assert len(set(buttons)) == len(buttons), f"{name} repeats a button"
        for label in buttons:
            assert 1 <= len(label.encode("utf-8")) <= 24, f"{name}: {label!r}"
    calls = menu_calls(source)
    assert len(calls) >= 10
    for call in calls:
        total = 0
        for term in (t.strip() for t in call.split(" + ")):
            filtered = re.fullmatch(r"have\((B_\w+)\)", term)  # a list less what the system lacks
            if term in lists or (filtered and filtered.group(1) in lists):
                total += len(lists[filtered.group(1) if filtered else term])
            elif term in DYNAMIC[script]:
                bound, enforced_by = DYNAMIC[script][term]
                assert enforced_by.startswith("gateway") or enforced_by in source, enforced_by
                total += bound
            else:
                raise AssertionError(f"{script}: cannot bound the buttons {term!r} in menu(..., {call})")
        assert total <= 12, f"{script}: menu(..., {call}) can have {total} buttons"


@pytest.mark.parametrize("script", ["player_hud.lsl", "st_hud.lsl"])
def test_dialogs_go_through_the_limit_enforcing_helper(script: str) -> None:
    source = (LSL / script).read_text(encoding="utf-8")
    dialogs = re.findall(r"llDialog\((.*?)\);", source)
    # menu() itself, and the one-button announcement popup.
    assert sorted(dialogs) == [
        'llGetOwner(), fit("Announcement\\n\\n" + text, 511), ["OK"], -987654',
        "llGetOwner(), fit(text, 511), safe, gChan",
    ]
    assert "buttons = llList2List(buttons, 0, 11);" in source
    assert "string b = fit(llList2String(buttons, i), 24);" in source
    assert "llTextBox(llGetOwner(), fit(text, 511), gChan);" in source


def test_literal_dialog_messages_are_under_512_bytes() -> None:
    for script in ("player_hud.lsl", "st_hud.lsl"):
        source = (LSL / script).read_text(encoding="utf-8")
        for text in STRING_RE.findall(source):
            assert len(text.encode("utf-8")) < 512, text[:40]


def test_fit_counts_utf8_bytes_like_python() -> None:
    """The scripts' byte count (base64 length) agrees with Python's for 1- to 4-byte characters."""
    import base64

    for text in ["", "a", "ab", "abc", "Míra", "Дориан", "夜帽", "🎲🎲", "x" * 100]:
        b = base64.b64encode(text.encode()).decode()
        lsl_bytes = len(b) // 4 * 3 - (b[-2:] == "==") - (b[-1:] == "=")
        assert lsl_bytes == len(text.encode())


def test_the_roster_and_character_pages_fill_one_dialog() -> None:
    assert ROSTER_PAGE + 3 == 12  # names + Prev, Next, Back
    assert CHARS_LISTED + 1 == 12  # names + Back


def test_every_script_signs_the_same_message_the_gateway_checks() -> None:
    for script in ("player_hud.lsl", "st_hud.lsl", "relay.lsl"):
        source = (LSL / script).read_text(encoding="utf-8")
        assert re.search(
            r'llHMAC\(gSecret, ts \+ "\\n" \+ \(string\)\w+(\(\))? \+ "\\n"'
            r' \+ \(string\)\w+(\(\))? \+ "\\n" \+ body, "sha256"\)',
            source,
        ), script
        # Pushes are checked with the message above; requests sign the grid and the region too.
        assert re.search(
            r'llHMAC\(gSecret, ts \+ "\\n" \+ \(string\)llGetKey\(\) \+ "\\n"'
            r' \+ \(string\)llGetOwner\(\) \+ "\\n"'
            r'\s*\+ llGetEnv\("grid"\) \+ "\\n" \+ llGetRegionName\(\) \+ "\\n" \+ body, "sha256"\)',
            source,
        ), script
        assert '"X-Gateway-Timestamp", ts' in source
        assert '"X-Gateway-Signature", sign_request(ts, body)' in source
        assert '"X-Gateway-Signature", sign(' not in source


def test_relay_envelope_fits_llregionsay() -> None:
    default = SecondLifeConfig(shared_secret="x" * 16).relay_max_bytes
    envelope = len("NCGW|") + len("1764547200") + 1 + 44 + 1
    assert default + envelope <= 1023
    ceiling = [m.le for m in SecondLifeConfig.model_fields["relay_max_bytes"].metadata if hasattr(m, "le")]
    assert ceiling and ceiling[0] + envelope <= 1023  # no setting can break it


def test_scripts_ask_for_their_url_again_when_it_can_change() -> None:
    for script in ("player_hud.lsl", "st_hud.lsl", "relay.lsl"):
        source = (LSL / script).read_text(encoding="utf-8")
        assert "CHANGED_REGION_START" in source and "llReleaseURL(gMyUrl)" in source
        assert "on_rez(integer param)\n    {\n        llResetScript();" in source
    for script in ("player_hud.lsl", "st_hud.lsl"):
        source = (LSL / script).read_text(encoding="utf-8")
        assert "CHANGED_REGION | CHANGED_TELEPORT | CHANGED_REGION_START" in source
        assert "float MIN_GAP = 1.2;" in source  # 1 request per 1.2 s: under ~25 per 20 s
