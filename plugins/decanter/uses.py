"""What Story Points buy and what each costs (pure): the book's uses (Declaration, Get Advice, Get a
Clue, Hold Debt, Initiate Flashback, Know Secret, resisting a Condition) and the Roll Bonus's side
costs. Each use can be paid in XP instead, at 2 XP per Story Point ("1 Story Point or 2 XP")."""

from __future__ import annotations

from dataclasses import dataclass

from gateway import UserError
from gateway.rules.numbers import is_digits, whole_number
from plugins.decanter.sheet import Condition, DecanterSheet, Effect
from plugins.decanter.words import suggestion

XP_PER_POINT = 2
MAX_DECLARATION = 5
MAX_STATUS = 10
DEFAULT_CONDITION = "Pushed"

USES = ("declaration", "advice", "clue", "debt", "flashback", "secret", "resist")
USE_WORDS = {
    "declaration": "declaration",
    "declare": "declaration",
    "decl": "declaration",
    "advice": "advice",
    "clue": "clue",
    "debt": "debt",
    "flashback": "flashback",
    "secret": "secret",
    "resist": "resist",
}
# The book's headings start with a verb: "Get a Clue", "Hold Debt", "Know Secret".
_LEADING = {"get", "a", "hold", "initiate", "know", "an", "on", "for"}
SPEND_USAGE = (
    "sp spend declaration N [TEXT] (1-5 by scope), sp spend advice [N] (per message), sp spend clue [N],"
    " sp spend debt NPC STATUS, sp spend secret NPC STATUS, sp spend flashback, sp spend resist CONDITION"
    " [N]; add xp to pay 2 XP per Story Point instead. A Roll Bonus is sp bonus N COST."
)


@dataclass(frozen=True)
class Use:
    """One spend: the use, how many Story Points it costs (before the earlier purchases of a Debt or
    secret are added), and what it was about."""

    use: str
    points: int
    xp: bool = False
    npc: str = ""
    status: int = 0
    condition: str = ""
    note: str = ""


def use_word(word: str) -> str | None:
    """The use a word names (``declare`` → declaration), or None."""
    return USE_WORDS.get(word.casefold())


def parse_use(words: list[str]) -> Use:
    """``sp spend`` words; a refusal says what the uses are, or which one a near miss meant."""
    words = list(words)
    while words and words[0].casefold() in _LEADING:
        words.pop(0)
    if not words or is_digits(words[0]):
        raise UserError(f"Spend Story Points on what? Write {SPEND_USAGE}")
    use = use_word(words[0])
    if use is None:
        if words[0].casefold() in ("bonus", "roll"):
            raise UserError("A Roll Bonus is sp bonus N COST, e.g. sp bonus 1 stain.")
        near = suggestion(words[0], list(USE_WORDS))
        hint = f" Did you mean {USE_WORDS[near]}?" if near else ""
        raise UserError(f"Story Points do not buy {words[0][:30]!r}.{hint} Write {SPEND_USAGE}")
    rest = words[1:]
    xp = any(w.casefold() == "xp" for w in rest)
    rest = [w for w in rest if w.casefold() != "xp"]
    if use == "declaration":
        if not rest or not is_digits(rest[0]):
            raise UserError(
                "A Declaration costs 1-5 Story Points by its scope: write sp spend declaration N [TEXT]."
            )
        n = whole_number(rest[0], "A Declaration's cost", MAX_DECLARATION, low=1)
        return Use(use, n, xp, note=" ".join(rest[1:])[:300])
    if use in ("advice", "clue"):
        n = 1
        if rest and is_digits(rest[0]):
            n = whole_number(
                rest[0], "The number of messages" if use == "advice" else "The number of clues", 10, low=1
            )
            rest = rest[1:]
        return Use(use, n, xp, note=" ".join(rest)[:300])
    if use == "flashback":
        return Use(use, 1, xp, note=" ".join(rest)[:300])
    if use in ("debt", "secret"):
        if len(rest) < 2 or not is_digits(rest[-1]):
            raise UserError(
                f"Write sp spend {use} NPC STATUS: it costs 1 Story Point per the NPC's highest Status"
                " (their lowest shared one if you share several), plus 1 per earlier"
                f" {'Debt' if use == 'debt' else 'secret'} bought from them this story."
            )
        status = whole_number(rest[-1], "Status", MAX_STATUS, low=0)
        return Use(use, status, xp, npc=" ".join(rest[:-1])[:60], status=status)
    # resist
    if xp:
        raise UserError("Resisting a Condition costs Story Points, not XP.")
    if not rest:
        raise UserError("Write sp spend resist CONDITION [N]: N Story Points, or the Condition's own cost.")
    n = 0
    if len(rest) > 1 and is_digits(rest[-1]):
        n = whole_number(rest[-1], "The Story Points to resist", 100, low=1)
        rest = rest[:-1]
    return Use(use, n, condition=" ".join(rest))


def debt_cost(status: int, earlier: int) -> int:
    """Hold Debt and Know Secret: 1 per Status, plus 1 per earlier purchase from the same NPC this
    story arc; never free (the book gives no Status-0 price, so an NPC without Status costs 1)."""
    return max(status + earlier, 1)


def arc_key(use: str, npc: str) -> str:
    return f"{use}:{' '.join(npc.casefold().split())}"


# ---------------------------------------------------------------- the Roll Bonus's side costs

COSTS = ("stain", "injured", "hunger", "xp", "condition")
COST_WORDS = {
    "stain": "stain",
    "stains": "stain",
    "injured": "injured",
    "injury": "injured",
    "hunger": "hunger",
    "craving": "hunger",
    "xp": "xp",
    "condition": "condition",
    "cond": "condition",
    "sp": "sp",
    "point": "sp",
    "points": "sp",
}
BONUS_USAGE = (
    "sp bonus N COST: each Story Point adds a success and costs one of stain, injured (mortals and"
    " ghouls), hunger or craving (vampires and ghouls), xp (2 XP), condition [NAME] (a Condition that"
    " costs as many Story Points to resist); e.g. sp bonus 2 stain, sp bonus 2 stain xp. In line with"
    " your Virtue: sp bonus N virtue (Story Points only) or virtue xp; with your Vice: sp bonus N vice"
    " stain|xp (no Story Points)."
)


@dataclass(frozen=True)
class Bonus:
    """A Roll Bonus: ``count`` successes, one cost per point (``sp`` is the Story Point alone, under a
    Virtue), and whether the Story Points themselves are paid (not under a Virtue's XP or a Vice)."""

    count: int
    costs: tuple[str, ...]
    condition: str = DEFAULT_CONDITION
    motive: str = ""  # "", "virtue" or "vice"

    @property
    def points_paid(self) -> int:
        if self.motive == "vice":
            return 0
        if self.motive == "virtue":
            return self.costs.count("sp")
        return self.count

    def of(self, cost: str) -> int:
        return self.costs.count(cost)


def parse_bonus(count: int, words: list[str]) -> Bonus:
    """``sp bonus``'s ``count`` (1 to 100, as its parameter declares) and its cost words."""
    costs: list[str] = []
    motive = ""
    name: list[str] = []
    naming = False
    for word in words:
        folded = word.casefold()
        if folded in ("virtue", "vice"):
            if motive:
                raise UserError("A roll is in line with your Virtue or your Vice, not both.")
            motive = folded
            naming = False
        elif folded in COST_WORDS:
            costs.append(COST_WORDS[folded])
            naming = COST_WORDS[folded] == "condition"
        elif naming:
            name.append(word)
        else:
            near = suggestion(folded, [*COST_WORDS, "virtue", "vice"])
            hint = f" Did you mean {near}?" if near else ""
            raise UserError(f"{word[:30]!r} is no Roll Bonus cost.{hint} Write {BONUS_USAGE}")
    if motive == "virtue":
        costs = costs or ["sp"]
        if set(costs) - {"sp", "xp"}:
            raise UserError(
                "In line with your Virtue you pay only a Story Point or XP: sp bonus N virtue [xp]."
            )
    elif motive == "vice":
        if not costs or set(costs) - {"stain", "xp"}:
            raise UserError("In line with your Vice you pay only a Stain or XP: sp bonus N vice stain|xp.")
    elif not costs:
        raise UserError(f"The Roll Bonus needs a cost per Story Point. Write {BONUS_USAGE}")
    elif "sp" in costs:
        raise UserError(
            "The Story Point alone is the price only in line with your Virtue: sp bonus N virtue."
        )
    if len(costs) == 1:
        costs = costs * count
    if len(costs) != count:
        raise UserError(f"Give one cost for all {count} Story Points, or one for each ({len(costs)} given).")
    condition = " ".join(name).strip() or DEFAULT_CONDITION
    return Bonus(count, tuple(costs), condition[:60], motive)


# ---------------------------------------------------------------- paying the side costs


@dataclass(frozen=True)
class Paid:
    """What a Roll Bonus took from the sheet, for its line: (cost, how many, the total after)."""

    items: tuple[tuple[str, int, int], ...]


def pay_side_costs(data: DecanterSheet, bonus: Bonus, channel: str, now: str) -> tuple[DecanterSheet, Paid]:
    """The sheet after the bonus's side costs, or a refusal that names what is missing. Injured is
    the Condition Injured, -1 die on every roll per point (the book's "Injured -1"), kept until
    resolved; a Condition cost is a Condition that costs as many Story Points to resist."""
    kind = data.kind
    injured, hunger = bonus.of("injured"), bonus.of("hunger")
    if injured and kind == "vampire":
        raise UserError("Injured is a cost for mortals and ghouls only; this character is a vampire.")
    if hunger and kind == "mortal":
        raise UserError(
            "Hunger or Craving is a cost for vampires and ghouls only; this character is a mortal."
        )
    xp = bonus.of("xp") * XP_PER_POINT
    if xp > data.xp:
        raise UserError(f"That costs {xp} XP; the sheet has {data.xp}.")
    update: dict[str, object] = {}
    items: list[tuple[str, int, int]] = []
    stains = bonus.of("stain")
    if stains:
        update["stains"] = data.stains + stains
        items.append(("stain", stains, data.stains + stains))
    if hunger:
        update["hunger"] = data.hunger + hunger
        items.append(("craving" if kind == "ghoul" else "hunger", hunger, data.hunger + hunger))
    if xp:
        update["xp"] = data.xp - xp
        items.append(("xp", xp, data.xp - xp))
    conditions = list(data.conditions)
    if injured:
        conditions, total = _grow(conditions, "Injured", channel, now, dice=injured)
        items.append(("injured", injured, total))
    pushed = bonus.of("condition")
    if pushed:
        conditions, total = _grow(conditions, bonus.condition, channel, now, resist=pushed)
        items.append(("condition", pushed, total))
    update["conditions"] = conditions
    return data.model_copy(update=update), Paid(tuple(items))


def _grow(
    conditions: list[Condition], name: str, channel: str, now: str, *, dice: int = 0, resist: int = 0
) -> tuple[list[Condition], int]:
    """Add to a Condition (its dice penalty or its resist cost), or take it new: (list, new total)."""
    for i, c in enumerate(conditions):
        if c.name.casefold() == name.casefold():
            if dice:
                effect = c.effect or Effect()
                total = max(effect.dice - dice, -20)
                grown = c.model_copy(update={"effect": effect.model_copy(update={"dice": total})})
                return [*conditions[:i], grown, *conditions[i + 1 :]], -total
            total = min(c.resist + resist, 100)
            return [*conditions[:i], c.model_copy(update={"resist": total}), *conditions[i + 1 :]], total
    new = Condition(
        name=name,
        duration="resolved",
        channel=channel,
        gained_at=now,
        effect=Effect(dice=-dice) if dice else None,
        resist=resist,
    )
    return [*conditions, new], dice or resist
