"""Decanter's messages (English). Every line a person reads comes from here."""

from __future__ import annotations

from gateway.core.i18n import Catalogue

EN = {
    # degrees and qualities
    "degree.botch": "Botch",
    "degree.setback": "Setback",
    "degree.success": "Success",
    "degree.extra": "Extra successes",
    "degree.automatic": "Automatic success",
    "quality.advantage": "Advantage",
    "quality.disadvantage": "Disadvantage",
    "quality.major_advantage": "Major Advantage",
    "quality.major_disadvantage": "Major Disadvantage",
    # pieces of a roll line
    "dice": "{n} {n:plural:die:dice}",
    "dice.labelled": "{label} = {n} {n:plural:die:dice}",
    "with_quality": " with {quality}",
    "against.dc": "vs DC {dc} ({title})",
    "against.npc": "vs an NPC's {npc} (DC {dc})",
    "against.extended": "vs DC {dc}, extended roll {at} of {of}",
    "aid": "{bonus:+d} {bonus:plural:die:dice} from {helpers:plural:a helper:helpers}: {shown}",
    "aid.pc": "{pool} → {successes}",
    "aid.npc": "NPC {pool} takes half → {successes}",
    "outcome": "{n} {n:plural:success:successes} ({degree})",
    "outcome.extra": "{n} {n:plural:success:successes} ({degree}: {extra} extra)",
    "faces.none": "no dice",
    "faces.two": "{first} ({a}) | {second} ({b})",
    "faces.half": "{first} ({a}) | take half ({b})",
    "faces.reroll": "{first}, re-rolled {again}",
    "roll.line": "{who} rolls {dice}{quality} {against}{aid}: {faces} → {outcome} #{id}",
    "roll.half": "{who} takes half on {dice}{quality} {against}{aid} → {outcome} #{id}",
    "roll.automatic": (
        "{who}: {dice}{quality} {against}{aid} is more than double the DC: {degree}, no roll #{id}"
    ),
    "extended.progress": "Extended: {total} of {target} after {done} of {of} {of:plural:roll:rolls}.",
    "extended.done": "Extended contest over: {total} of {target} → {degree}.",
    "contest.side": "{name} {dice}{quality}: {faces} → {n} {n:plural:success:successes}",
    "contest.win": "{left} vs {right}: {winner} wins{how} #{id}",
    "contest.unbroken": "{left} vs {right}: the tie never broke #{id}",
    "contest.by.successes": "",
    "contest.by.pool": " (a tie; the larger pool wins)",
    "contest.by.reroll": " after {rerolls} {rerolls:plural:re-roll:re-rolls} of a tie",
    "opponent": "Opponent",
    "contest.outcome": "{winner} wins ({counts})",
    "contest.outcome_unbroken": "the tie never broke ({counts})",
    # odds
    "odds.degrees": (
        "Odds for {dice}{quality} {against}{aid}: botch {botch}, setback {setback}, success {success},"
        " extra successes {extra}; average {mean} successes."
    ),
    "odds.automatic": (
        "{dice}{quality} {against}: more than double the DC, an automatic success (write force to roll)."
    ),
    "odds.plain": "Odds for {dice}{quality}{aid}: {spread}; average {mean} successes.",
    "odds.at_least": "{k}+ {p}",
    "odds.contest": "Odds for {left} against {right}: you win {win}, they win {lose}.",
    # story points
    "sp.show": "{name} has {n} of {cap} Story {n:plural:Point:Points}.",
    "sp.give": "{name} gains {n} Story {n:plural:Point:Points}: now {total} of {cap}.",
    "sp.give_lost": (
        "{name} gains {n} Story {n:plural:Point:Points}: now {total} of {cap} ({lost} over the cap lost)."
    ),
    "sp.take": "{name} loses {n} Story {n:plural:Point:Points}: now {total} of {cap}.",
    "sp.bonus": (
        "{name} adds {n} {n:plural:success:successes} to #{roll} for {paid}: {before} → {outcome}"
        " ({left} Story {left:plural:Point:Points} left) #{id}"
    ),
    "paid.sp": "{n} Story {n:plural:Point:Points}",
    "paid.stain": "+{n} {n:plural:Stain:Stains} (now {total})",
    "paid.injured": "Injured -{n} (the Condition Injured, now -{total} {total:plural:die:dice})",
    "paid.hunger": "+{n} Hunger (now {total})",
    "paid.craving": "+{n} Craving (now {total})",
    "paid.xp": "{n} XP ({total} left)",
    "paid.condition": "the Condition {cname} (now {total} Story {total:plural:Point:Points} to resist)",
    "paid.xp_only": "{n} XP",
    "sp.spent": "{name} spends {price} on {what}{note}; {left} left.",
    "sp.refundable": "If the Storyteller can give nothing useful or vetoes it, sp refund gives it back.",
    "sp.refunded": "{name} gets {back} back for {what}.",
    "use.kind.declaration": "a Declaration",
    "use.kind.advice": "advice",
    "use.kind.clue": "a clue",
    "use.kind.flashback": "a flashback",
    "use.kind.debt": "a Debt",
    "use.kind.secret": "a secret",
    "use.kind.resist": "resisting a Condition",
    "use.declaration": "a Declaration (scope {n})",
    "use.advice": "advice ({n} {n:plural:message:messages})",
    "use.clue": "{n} {n:plural:clue:clues}",
    "use.flashback": "a flashback",
    "use.debt": "a Debt from {npc} (Status {status}, {earlier} earlier this story)",
    "use.secret": "a secret about {npc} (Status {status}, {earlier} earlier this story)",
    "use.resist": "resisting {cname}",
    "use.note": ": {note}",
    "story.end": "The story arc ends: Debts and secrets cost from Status again.",
    "sp.downgrade": (
        "{name} downgrades #{roll} by {n} {n:plural:step:steps}: {before} → {after}, gaining {gained} Story"
        " {gained:plural:Point:Points} ({total} of {cap}) #{id}"
    ),
    "sp.downgrade_lost": (
        "{name} downgrades #{roll} by {n} {n:plural:step:steps}: {before} → {after}, gaining {gained} Story"
        " {gained:plural:Point:Points} ({total} of {cap}; {lost} over the cap lost) #{id}"
    ),
    # conditions
    "cond.none": "{name} has no Conditions.",
    "cond.list": "{name}'s Conditions: {items}.",
    "cond.item": "{cname} ({duration})",
    "cond.part.penalty": "penalty: {text}",
    "cond.part.effect": "effect: {text}",
    "cond.part.resist": "resist: {n} Story {n:plural:Point:Points}",
    "cond.part.resolution": "resolution: {text}",
    "cond.effect": "Effect: {effect}.",
    "cond.text_only": (
        "Its penalty is text only; for one that rolls apply, add e.g. effect dis on composure."
    ),
    "effect.every": "{what} on every roll",
    "effect.on": "{what} on {traits} rolls",
    "effect.dice": "-{n} {n:plural:die:dice}",
    "effect.and": " and ",
    "cond.applied": " ({n:plural:Condition:Conditions} {items})",
    "cond.applied_item": "{cname}: {effect}",
    "cond.added": "{name} takes the Condition {cname} ({duration}).",
    "cond.resolved": "{name}'s Condition {cname} is resolved.",
    "duration.scene": "until the scene ends",
    "duration.night": "until the night ends",
    "duration.resolved": "until resolved",
    "scene.end": "The scene ends here.",
    "scene.end_expired": "The scene ends here. Expired: {items}.",
    "night.end": "The night ends here.",
    "night.end_expired": "The night ends here. Expired: {items}.",
    "expired.item": "{cname} ({name})",
    # extended contests
    "ext.started": (
        "Extended contest for {name}: DC {dc} × {k} = {target} successes in {k} rolls. Roll with ext."
    ),
    "ext.show": "{name}'s extended contest: {total} of {target} after {done} of {k} {k:plural:roll:rolls}.",
    "ext.show_done": "{name}'s extended contest is over: {total} of {target} ({degree}).",
    "ext.none": "{name} has no extended contest here. Start one with ext DC K, e.g. ext 4 3.",
    "ext.stopped": "{name}'s extended contest is called off.",
    # characters and sheets
    "char.created": (
        "{name} is your Decanter character now. Storytellers set dots with st set; sheet shows it."
    ),
    "char.used": "{name} is your active Decanter character.",
    "char.list": "Your Decanter characters: {names}. Active: {active}.",
    "char.none": "You have no Decanter characters yet: char new NAME makes one.",
    "none": "none",
    "sheet": (
        "{name} ({status}): {attributes}. Skills: {skills}. Specialties: {specialties}. {sp}."
        " Conditions: {conditions}."
    ),
    "sheet.xp": "{n} XP",
    "sheet.stains": "{n} {n:plural:Stain:Stains}",
    "sheet.hunger": "Hunger {n}",
    "sheet.craving": "Craving {n}",
    "kind.mortal": "mortal",
    "kind.ghoul": "ghoul",
    "kind.vampire": "vampire",
    "set.done": "{name}: {field} {old} → {new}.",
    "approved": "{name}'s sheet is approved and locked; Storytellers can still edit it.",
}

CATALOGUE = Catalogue({"en": EN})
t = CATALOGUE.say
