"""House rules through the console adapter: piped commands in, printed replies out, a player's and
a Storyteller's session on one vault."""

from __future__ import annotations

from pathlib import Path

from tests.nightcap.test_console import console


async def test_house_rules_through_the_console(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    player = await console(url, ["house set chance_die off"], name="mira")
    assert len(player) == 1 and "Storyteller" in player[0]
    st = await console(
        url,
        [
            "house set chance_die 7",
            "house set chance_die off",
            "house reset chance_die",
            "house set chance_die no",
        ],
        name="ana",
        st=True,
    )
    assert st[0] == "chance_die is on or off, not 7."
    assert st[1] == "House rule here: chance_die = off (was on; the book's: on), set by ana."
    assert st[2] == "House rule chance_die is back to its default here, on, reset by ana."
    shown = await console(url, ["house", "roll 0"], name="mira")
    assert "* chance_die = off (book: on;" in "\n".join(shown)
    assert shown[-1].startswith("mira rolls ") and "[house: chance_die=off]" in shown[-1], shown[-1]
