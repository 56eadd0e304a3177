"""Macros on the console (issue 18), as a user runs the installed ``gateway console``: piped lines
saved, run with the line's comment, refused as typed; the macro outlives the process (the vault)."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_cli import run_console


def test_a_macro_on_the_piped_console(tmp_path: Path) -> None:
    lines = "\n".join(
        [
            "macro add hit = roll {1} ; roll {n=1}",
            "hit 3 # from the rafters",
            "macro add peek = st log",
            "peek",
            "macro add lp = lp",
            "lp",
        ]
    )
    done = run_console(tmp_path, lines + "\n", "--as", "mira", GATEWAY_DICE_SCRIPT="9,5,10,7")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "Your macro hit for Nightcap: roll {1} ; roll {n=1}. Run it: hit."
    assert out[1].startswith("mira rolls 3 dice: 9 5 10 → 3 (Solid) #") and out[1].endswith(
        " — from the rafters"
    )
    assert out[2].startswith("mira rolls 1 die: 7 → 1 (Marginal) #") and out[2].endswith(
        " — from the rafters"
    )
    assert out[4] == "Macro peek: st log needs the Storyteller role, which you do not have."
    assert out[6] == "Macro lp calls itself (lp → lp); a macro may not loop."
    again = run_console(tmp_path, "macro list\nhit 1 n=2\n", "--as", "mira", GATEWAY_DICE_SCRIPT="8,8,8")
    assert (
        again.stdout.splitlines()[0] == "Macros for Nightcap (3): hit, lp, peek. macro show NAME shows one."
    )
    assert again.stdout.splitlines()[2].startswith("mira rolls 2 dice: 8 8 → 2")
