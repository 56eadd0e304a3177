"""Story Points as pure rules: a spend's count, and how a spend amends a logged roll (the handlers are
``story_points_commands.py``)."""

from __future__ import annotations

from typing import Any

from gateway import UserError
from plugins.decanter import mechanics


def mark_amended(result: dict[str, Any], previous_id: str) -> None:
    result["amends"] = result.get("amends") or previous_id
    result["previous"] = previous_id


def reread(result: dict[str, Any]) -> None:
    dc = int(result["dc"])
    result["degree"] = mechanics.reread(int(result["successes"]), dc, int(result.get("downgraded", 0)))
    result["total"] = result["successes"]
    result.pop("extra_successes", None)
    result.pop("shortfall", None)
    if result["degree"] == "extra":
        result["extra_successes"] = int(result["successes"]) - dc
    elif result["degree"] in ("botch", "setback"):
        result["shortfall"] = mechanics.shortfall(int(result["successes"]), dc)


def contest_bonus(result: dict[str, Any], amount: int) -> dict[str, Any]:
    """The contest's fields after ``amount`` more successes on the roller's side (its last round),
    re-judged; a tie of equal pools is refused (the book re-rolls it: the bonus would be lost)."""
    left, right = (dict(side) for side in result["sides"])
    successes = int(left["successes"]) + amount
    judged = mechanics.judge(successes, int(right["successes"]), int(left["pool"]), int(right["pool"]))
    if judged is None:
        raise UserError(
            f"{amount} more {'success' if amount == 1 else 'successes'} would tie equal pools, which the"
            " book re-rolls: spend one more point, or none."
        )
    left.update(successes=successes, total=successes)
    winner, decided_by = judged
    return {"sides": [left, right], "winner": winner, "decided_by": decided_by}
