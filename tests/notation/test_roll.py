"""Rolling notation with scripted dice: faces drawn in order, each feature's exact result (issue 33)."""

from __future__ import annotations

import pytest

from gateway.core.dice import ScriptedDice
from gateway.core.errors import UserError
from gateway.features.notation.parse import MAX_DEPTH, parse
from gateway.features.notation.roll import Outcome, roll
from gateway.features.notation.text import result, roll_line


def rolled(text: str, faces: list[int]) -> list[Outcome]:
    dice = ScriptedDice(faces)
    outcomes = roll(parse(text), dice)
    assert dice.remaining == 0, "every scripted face is drawn"
    return outcomes


def line(text: str, faces: list[int], limit: int = 4000, locale: str = "en") -> str:
    return roll_line(locale, "Mira", parse(text), rolled(text, faces), " #abc", limit)


@pytest.mark.parametrize(
    ("text", "faces", "shown"),
    [
        ("2d6+3", [4, 5], "Mira rolls 2d6+3: [4 5] + 3 → 12 #abc"),
        ("d20-1", [13], "Mira rolls d20-1: [13] - 1 → 12 #abc"),
        ("3d6*2", [1, 2, 3], "Mira rolls 3d6*2: [1 2 3] * 2 → 12 #abc"),
        ("(2d6+3)/2", [1, 1], "Mira rolls (2d6+3)/2: ([1 1] + 3) / 2 → 2 #abc"),
        ("-d6/4", [3], "Mira rolls -d6/4: -[3] / 4 → -1 #abc"),
        ("1d8+2d6+4", [8, 1, 6], "Mira rolls 1d8+2d6+4: [8] + [1 6] + 4 → 19 #abc"),
        ("4d6kh3", [3, 1, 6, 5], "Mira rolls 4d6kh3: [3 (1) 6 5] → 14 #abc"),
        ("2d20kl1", [17, 4], "Mira rolls 2d20kl1: [(17) 4] → 4 #abc"),
        ("4d6dl1", [2, 2, 5, 6], "Mira rolls 4d6dl1: [2 (2) 5 6] → 13 #abc"),
        ("5d10dh2", [10, 3, 9, 1, 9], "Mira rolls 5d10dh2: [(10) 3 9 1 (9)] → 13 #abc"),
        ("3d6!", [6, 6, 2, 3, 4], "Mira rolls 3d6!: [6! 6! 2 3 4] → 21 #abc"),
        ("5d10!>=9", [9, 3, 1, 10, 8, 2, 5], "Mira rolls 5d10!>=9: [9! 3 1 10! 8 2 5] → 38 #abc"),
        ("4d6r1", [1, 1, 4, 5, 6], "Mira rolls 4d6r1: [~1~ 1 4 5 6] → 16 #abc"),
        ("4d6ro1", [2, 1, 3, 4, 5], "Mira rolls 4d6ro1: [2 ~1~ 3 4 5] → 14 #abc"),
        ("4d6rr2", [1, 2, 3, 6, 2, 5, 4], "Mira rolls 4d6rr2: [~1~ ~2~ 3 6 ~2~ 5 4] → 18 #abc"),
        ("6d10>=7", [7, 3, 10, 1, 6, 9], "Mira rolls 6d10>=7: [7 3 10 1 6 9] → 3 successes #abc"),
        ("6d10>=7f1", [7, 1, 1, 2, 8, 5], "Mira rolls 6d10>=7f1: [7 1 1 2 8 5] → 0 successes #abc"),
        ("4dF", [1, 2, 3, 3], "Mira rolls 4dF: [- 0 + +] → 1 #abc"),
        ("d20 adv", [5, 18], "Mira rolls d20 adv: [(5) 18] → 18 #abc"),
        ("d20 dis", [5, 18], "Mira rolls d20 dis: [5 (18)] → 5 #abc"),
        ("d%", [73], "Mira rolls d%: [73] → 73 #abc"),
        (
            "3x 4d6kh3",
            [6, 5, 4, 1, 2, 2, 2, 2, 6, 6, 6, 6],
            "Mira rolls 3x 4d6kh3: 15 [6 5 4 (1)]; 6 [2 2 2 (2)]; 18 [6 6 6 (6)] #abc",
        ),
    ],
)
def test_each_feature_rolls_exactly(text: str, faces: list[int], shown: str) -> None:
    assert line(text, faces) == shown


def test_one_success_is_singular_and_czech_and_russian_have_their_plurals() -> None:
    assert line("2d10>=7", [7, 1]).endswith("→ 1 success #abc")
    assert line("2d10>=7", [7, 8], locale="cs") == "Mira hází 2d10>=7: [7 8] → 2 úspěchy #abc"
    assert line("5d10>=7", [7, 8, 9, 10, 7], locale="cs").endswith("→ 5 úspěchů #abc")
    assert line("2d10>=7", [7, 1], locale="cs").endswith("→ 1 úspěch #abc")
    assert line("2d10>=7", [7, 8], locale="ru") == "Mira бросает 2d10>=7: [7 8] → 2 успеха #abc"
    assert line("5d10>=7", [7, 8, 9, 10, 7], locale="ru").endswith("→ 5 успехов #abc")
    assert line("1d10>=7", [7], locale="ru").endswith("→ 1 успех #abc")


def test_explosions_stop_at_the_depth_limit() -> None:
    outcome = rolled("1d6!", [6] * (MAX_DEPTH + 1))[0]
    assert len(outcome.rolls[0].faces) == MAX_DEPTH + 1
    assert outcome.total == 6 * (MAX_DEPTH + 1)


def test_reroll_until_stops_at_the_depth_limit() -> None:
    outcome = rolled("1d6rr5", [1] * (MAX_DEPTH + 1))[0]
    assert outcome.rolls[0].rerolled == (True,) * MAX_DEPTH + (False,)
    assert outcome.total == 1


def test_a_face_outside_its_die_is_refused() -> None:
    with pytest.raises(UserError):
        rolled("1d6", [7])


def test_the_result_names_every_die() -> None:
    text = "4d6kh3r1!"
    outcomes = rolled(text, [1, 6, 2, 3, 5, 4])
    logged = result(parse(text), outcomes)
    assert logged == {
        "kind": "dice",
        "expression": "4d6kh3r1!",
        "total": 15,
        "rolls": [
            {
                "term": "4d6kh3r1!",
                "sides": 6,
                "faces": [1, 6, 2, 3, 5, 4],
                "kept": [False, True, False, False, True, True],
                "exploded": [False, False, True, False, False, False],
                "rerolled": [True, False, False, False, False, False],
                "value": 15,
            }
        ],
        "dice": [1, 6, 2, 3, 5, 4],
    }
    pool = result(parse("6d10>=7f1"), rolled("6d10>=7f1", [7, 1, 1, 2, 8, 5]))
    assert (pool["successes"], pool["total"]) == (0, 0)
    stats = result(parse("2x d6"), rolled("2x d6", [3, 4]))
    assert (stats["totals"], [r["set"] for r in stats["rolls"]]) == ([3, 4], [0, 1])


def test_long_rolls_are_summarised_within_the_limit_never_cut() -> None:
    faces = [(i % 6) + 1 for i in range(200)]
    full = line("200d6", faces)
    assert "[1 2 3 4 5 6" in full and full.endswith("→ 696 #abc")
    irc = line("200d6", faces, limit=350)
    assert irc == "Mira rolls 200d6: [200 dice: 696] → 696 #abc"
    assert len(line("200d6", faces, limit=1024).encode()) <= 1024
    russian = line("200d6", faces, limit=350, locale="ru")
    assert russian == "Mira бросает 200d6: [200 кубиков: 696] → 696 #abc"
    totals = line("100x d10", [(i % 10) + 1 for i in range(100)], limit=350)  # the totals fit alone
    assert totals.startswith("Mira rolls 100x d10: 1; 2; 3;") and len(totals.encode()) <= 350
    sets = line("100x 2d10", [(i % 10) + 1 for i in range(200)], limit=350)  # pairs: 3, 7, 11, 15, 19
    assert sets == "Mira rolls 100x 2d10: 100 results, sum 1100, lowest 3, highest 19 #abc"
    twenty = line("20x 4d6kh3", [3] * 80, limit=350)  # every die still fits
    assert twenty.startswith("Mira rolls 20x 4d6kh3: 9 [3 3 3 (3)]; 9 [") and len(twenty.encode()) <= 350
    forty = line("40x 4d6kh3", [3] * 160, limit=350)  # only the totals do
    assert forty == "Mira rolls 40x 4d6kh3: " + "; ".join(["9"] * 40) + " #abc"
