"""Teamwork: a leader's ``team`` action and the helpers' ``assist`` (state in the channel's
``SceneState``)."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.vault import repo
from plugins.nightcap import mechanics, render, teamwork
from plugins.nightcap import params as P
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.conflict_commands import WILLPOWER, actor, ensure_can_act, load_scene, save_scene
from plugins.nightcap.house import dice, house, mark, noted
from plugins.nightcap.pools import PoolSpec, parse_side
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.sides import character_side, pool_words, side_result
from plugins.nightcap.words import nothing_after

COMMANDS = CommandSet(SYSTEM)
TEAM = "team"
TEAM_USAGE = (
    "team start TRAIT [+N|-N] | team roll [wp] | team status | team cancel; helpers: assist [LEADER] [wp]"
)


async def _teams(ctx: CommandContext) -> tuple[Any, dict[str, dict[str, Any]]]:
    row = await load_scene(ctx.session, ctx.channel.key, TEAM)
    return row, dict(row.data.get("teams", {})) if row is not None else {}


async def _save_teams(ctx: CommandContext, row: Any, teams: dict[str, dict[str, Any]]) -> None:
    await save_scene(ctx.session, row, ctx.channel.key, TEAM, {"teams": teams}, ctx.now)


def _team_result(team: teamwork.Team, **extra: Any) -> dict[str, Any]:
    return {"kind": "team", "system": SYSTEM, "team": team.as_dict(), **extra}


def _helpers_text(team: teamwork.Team) -> str:
    if not team.helpers:
        return "no helpers yet"
    return ", ".join(f"{h.name} ({'a sure success' if h.willpower else '+1 die'})" for h in team.helpers)


@COMMANDS.command("team start", "lead a team action", "team start TRAIT [+N|-N]", params=P.TEAM_START)
async def team_start(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await actor(ctx)
    spec = parse_side(str(inv.args["pool"]).split())
    if spec.willpower:
        raise UserError("The leader declares Willpower on the roll itself: team roll wp.")
    damage = await ensure_can_act(ctx.session, character, "team start") if character else 0
    built = character_side(ctx, spec, character, damage)
    row, teams = await _teams(ctx)
    if key in teams:
        raise UserError(f"{name} already leads a team action here: team roll or team cancel.")
    team = teamwork.Team(
        leader_key=key,
        leader_name=name,
        pool_word=spec.base,
        modifiers=spec.modifiers,
        leader_character_id=character.id if character else None,
    )
    teams[key] = {**team.as_dict(), "label": built.label or pool_words(built.pool)}
    await _save_teams(ctx, row, teams)
    text = (
        f"{name} leads a team action ({teams[key]['label']}). Helpers: assist {name}, or assist {name} wp"
        f" to spend Willpower for a sure success; up to {house(ctx).teamwork_cap} count."
    )
    return Reply(text=text, result=_team_result(team, status="open"))


@COMMANDS.command(
    "assist",
    "help a team leader: +1 die, or wp for a sure success",
    "assist [LEADER] [wp]",
    params=P.TEAM_ASSIST,
)
async def assist_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await actor(ctx)
    wanted, wp = str(inv.args.get("name", "")), bool(inv.args["wp"])
    row, teams = await _teams(ctx)
    if not teams:
        raise UserError("Nobody is leading a team action here: the leader writes team start TRAIT.")
    if wanted:
        found = [k for k, t in teams.items() if t["leader_name"].casefold() == wanted.casefold()]
        if not found:
            leaders = ", ".join(t["leader_name"] for t in teams.values())
            raise UserError(f"No team action led by {wanted[:40]!r} here. Leading now: {leaders}.")
        leader = found[0]
    elif len(teams) == 1:
        leader = next(iter(teams))
    else:
        leaders = ", ".join(t["leader_name"] for t in teams.values())
        raise UserError(f"Several team actions are open here ({leaders}): write assist LEADER [wp].")
    if character is not None:
        await ensure_can_act(ctx.session, character, "assist")
    team = teamwork.Team.from_dict(teams[leader])
    helper = teamwork.Helper(
        key=key, name=name, willpower=wp, character_id=character.id if character else None
    )
    try:
        team = teamwork.add_helper(team, helper, house(ctx).teamwork_cap)
    except teamwork.TeamError as exc:
        raise UserError(str(exc)) from exc
    if wp:
        await spend_willpower(ctx, character)  # paid from the helper's own pool, now
    teams[leader] = {**team.as_dict(), "label": teams[leader]["label"]}
    await _save_teams(ctx, row, teams)
    gives = "a sure success (1 Willpower spent)" if wp else "+1 die"
    text = f"{name} helps {team.leader_name}: {gives}. Team: {_helpers_text(team)}."
    return Reply(text=text, result=_team_result(team, status="open", helper=name))


async def _leader_team(ctx: CommandContext) -> tuple[Any, dict[str, dict[str, Any]], str, teamwork.Team]:
    _, key, name = await actor(ctx)
    row, teams = await _teams(ctx)
    if key not in teams:
        raise UserError(f"{name} leads no team action here: team start TRAIT [+N|-N].")
    return row, teams, key, teamwork.Team.from_dict(teams[key])


@COMMANDS.command("team roll", "roll for the team", "team roll [wp]", params=P.TEAM_ROLL)
async def team_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    character, _, name = await actor(ctx)
    wp = bool(inv.args["wp"])
    row, teams, key, team = await _leader_team(ctx)
    damage = await ensure_can_act(ctx.session, character, "team roll") if character else 0
    spec = PoolSpec(base=team.pool_word, modifiers=team.modifiers, willpower=wp)
    built = character_side(ctx, spec, character, damage, extra=team.dice_bonus)
    if wp:
        await spend_willpower(ctx, character)
    roll = teamwork.with_bonus(mechanics.roll(built.pool, ctx.dice, wp, **dice(ctx)), team.success_bonus)
    del teams[key]
    await _save_teams(ctx, row, teams)
    result = side_result(built, roll)
    result.update(
        kind="team",
        who=name,
        helpers=[{"name": h.name, "willpower": h.willpower} for h in team.helpers],
        helper_dice=team.dice_bonus,
        helper_successes=team.success_bonus,
    )
    char_id = character.id if character else None
    marked = mark(ctx, result, roll)
    roll_id = await ctx.log_roll(result, character_id=char_id, name=name)
    bonus = []
    if team.dice_bonus:
        bonus.append(f"+{team.dice_bonus} {'die' if team.dice_bonus == 1 else 'dice'}")
    if team.success_bonus:
        bonus.append(f"+{team.success_bonus} sure")
    label = built.label + (f" team {' '.join(bonus)}" if bonus else "")
    text = noted(render.roll_line(name, roll, roll_id, label.strip()), roll_id, marked)
    text += f" — with {_helpers_text(team)}"
    await ctx.stlog(text, kind="team", result=result, character_id=char_id)
    return Reply(text=text, result=result)


@COMMANDS.command("team status", "show the open team actions here", "team status", role="anyone", params=())
async def team_status(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "team status")
    _, teams = await _teams(ctx)
    if not teams:
        return Reply(
            text="No team actions are open here.", result={"kind": "teams", "system": SYSTEM, "teams": []}
        )
    lines = [
        f"{t['leader_name']} ({t['label']}): {_helpers_text(teamwork.Team.from_dict(t))}"
        for t in teams.values()
    ]
    return Reply(
        text="; ".join(lines), result={"kind": "teams", "system": SYSTEM, "teams": list(teams.values())}
    )


@COMMANDS.command("team cancel", "call a team action off", "team cancel [LEADER]", params=P.TEAM_LEADER)
async def team_cancel(ctx: CommandContext, inv: Invocation) -> Reply:
    wanted = str(inv.args.get("name", ""))
    if wanted:
        if not ctx.storyteller:
            raise PermissionDenied("Cancelling someone else's team action needs the Storyteller role.")
        row, teams = await _teams(ctx)
        key = next((k for k, t in teams.items() if t["leader_name"].casefold() == wanted.casefold()), None)
        if key is None:
            raise UserError(f"No team action led by {wanted[:40]!r} here.")
        team = teamwork.Team.from_dict(teams[key])
    else:
        row, teams, key, team = await _leader_team(ctx)
    for h in team.helpers:
        if h.willpower and h.character_id is not None:
            await repo.gain_pool(ctx.session, h.character_id, WILLPOWER, 1)
    del teams[key]
    await _save_teams(ctx, row, teams)
    refunds = sum(1 for h in team.helpers if h.willpower)
    back = f" Willpower returned to {refunds} helper{'s' if refunds != 1 else ''}." if refunds else ""
    text = f"{team.leader_name}'s team action is called off.{back}"
    return Reply(text=text, result=_team_result(team, status="cancelled"))
