"""Coin Flip: a sixth rule system written as a third party would, against the public plugin API."""

from __future__ import annotations

from collections.abc import Callable

from gateway import (
    Command,
    CommandContext,
    DegreeColour,
    Invocation,
    Reply,
    RuleSystem,
    UserError,
    hookimpl,
)

SYSTEM = "coinflip"


async def flip(ctx: CommandContext, inv: Invocation) -> Reply:
    """``flip [N]``: N coins (a d2 each, 2 is heads); heads are the successes."""
    if len(inv.words) > 1 or (inv.words and not inv.words[0].isdigit()):
        raise UserError("Write flip or flip N, for example flip 3.")
    coins = int(inv.words[0]) if inv.words else 1
    if not 1 <= coins <= 20:
        raise UserError("Flip 1 to 20 coins.")
    faces = [ctx.dice.roll(2) for _ in range(coins)]
    heads = faces.count(2)
    result = {
        "kind": "roll",
        "system": SYSTEM,
        "pool": coins,
        "dice": faces,
        "successes": heads,
        "degree": "success" if heads * 2 > coins else "failure",
    }
    roll_id = await ctx.log_roll(result)
    shown = " ".join("H" if f == 2 else "T" for f in faces)
    text = f"{ctx.name} flips {coins}: {shown} → {heads} heads #{roll_id}"
    await ctx.stlog(text, kind="roll", result=result)
    return Reply(text=text, result=result)


COINFLIP = RuleSystem(
    SYSTEM,
    "Coin Flip",
    "d2 coins, heads succeed",
    commands=[Command("flip", flip, "flip coins", "flip [N]", role="anyone")],
    degree_colours={"failure": DegreeColour.FAILURE, "success": DegreeColour.SUCCESS},
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(COINFLIP)
