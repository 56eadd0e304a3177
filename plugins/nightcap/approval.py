"""What ``st approve`` and ``st unapprove`` say about the creation budget (pure).

The book's flow: "When the budget is spent, tell a Storyteller. They read the sheet and lock it." So a
sheet is approved once its player submitted it (``char submit`` checks the budget), or once its budget
is spent even unsubmitted: a Storyteller may have built or edited it past creation ("The ST HUD
enforces no limits"). A sheet with points or dots still to place and never submitted (an empty one,
say) is refused unless the Storyteller adds the word ``force``.
"""

from __future__ import annotations

from gateway import UserError

FORCE = "force"
CREATION, SUBMITTED = "creation", "submitted"


def check_approve(name: str, status: str, problems: list[str], unspent: bool, force: bool) -> None:
    """Refuse approving a sheet that was not submitted and still has budget to place (``unspent``),
    unless forced; the line says what the sheet lacks and how to force it."""
    if status == SUBMITTED or force or not unspent:
        return
    raise UserError(
        f"{name} is not submitted and the budget is not spent ({'; '.join(problems)}). The player"
        f" finishes the sheet and submits it with char submit; st approve {name} {FORCE} approves it"
        " as it stands."
    )


def forced_note(status: str, problems: list[str]) -> str:
    """The note on approving a sheet that was not submitted ("" for a submitted one)."""
    if status == SUBMITTED:
        return ""
    outside = f"; outside the creation budget: {'; '.join(problems)}" if problems else ""
    return f" (not submitted{outside})"


def unapprove_note(name: str, problems: list[str]) -> str:
    """After ``st unapprove``: the sheet keeps every Storyteller edit; say when that leaves it outside
    the creation budget, so the player knows ``char submit`` will refuse it until it fits."""
    if not problems:
        return ""
    return (
        f" The sheet keeps the Storyteller's edits, which are outside the creation budget"
        f" ({'; '.join(problems)}): char submit refuses it until it fits, or st approve {name} {FORCE}"
        " approves it as it stands."
    )
