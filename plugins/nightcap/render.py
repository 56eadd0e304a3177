"""How Nightcap results read as text: one short line per roll."""

from __future__ import annotations

from plugins.nightcap.mechanics import Contest, Roll

OUTCOME_TITLES = {
    "deadlock": "Deadlock",
    "narrow": "Narrow",
    "clear": "Clear",
    "decisive": "Decisive",
    "both_botch": "Both botch",
}


def faces(roll: Roll) -> str:
    return " ".join(str(f) for f in roll.dice)


def roll_body(roll: Roll, label: str = "") -> str:
    """``3 dice: 9 5 10 → 3 (Solid)``, ``Physical 3: ...``, ``Physical 4+1 = 5 dice: ...``; a chance
    die and Willpower say so."""
    what = "a chance die" if roll.chance_die else f"{roll.pool} {'die' if roll.pool == 1 else 'dice'}"
    if label and not roll.chance_die and label.endswith(f" {roll.pool}"):
        what, label = label, ""  # "Physical 3" already says how many dice
    label = f"{label} = " if label else ""
    wp = " +1 WP" if roll.willpower else ""
    return f"{label}{what}: {faces(roll)}{wp} → {roll.total} ({roll.degree.title()})"


def roll_line(who: str, roll: Roll, roll_id: str, label: str = "") -> str:
    return f"{who} rolls {roll_body(roll, label)} #{roll_id}"


def lifted_botch_note(result: Contest, names: tuple[str, str]) -> str:
    """Why two rolls that both read Botch are not a both-botch: Willpower "does not stop a botch from
    being a botch — it only moves the total by one", and "if both totals fall below zero, nobody
    wins"; so a point that lifts one total to 0 or more leaves a winner (or a deadlock)."""
    if result.outcome == "both_botch" or any(side.degree != "botch" for side in result.sides):
        return ""
    lifted = [(name, side.total) for name, side in zip(names, result.sides, strict=True) if side.total >= 0]
    lifts = " and ".join(f"{name}'s total to {total}" for name, total in lifted)
    return (
        f" (both sides botch on the dice, a complication each, but Willpower lifts {lifts}; only two"
        " totals below zero are a both-botch with no winner)"
    )


def contest_line(
    who: str,
    result: Contest,
    roll_id: str,
    labels: tuple[str, str],
    against: str,
    winner_names: tuple[str, str] | None = None,
) -> str:
    """``winner_names`` names the sides in the verdict when both are one person (Social against own
    Mental: "Social 2 wins")."""
    left, right = result.sides
    outcome = OUTCOME_TITLES[result.outcome]
    names = winner_names or (who, against)
    if result.winner is None:
        verdict = f"{outcome}, margin {result.margin}"
    else:
        verdict = f"{outcome}: {names[result.winner]} wins by {result.margin}"
    verdict += lifted_botch_note(result, names)
    return (
        f"{who} rolls {roll_body(left, labels[0])} vs {against} {roll_body(right, labels[1])}: {verdict}"
        f" #{roll_id}"
    )
