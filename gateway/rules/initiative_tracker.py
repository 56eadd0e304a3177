"""Initiative kept per channel (a ``SceneState`` document ``initiative``): who joined, with the
powers they switched on, and once a Storyteller rolls it, the order. The ranking is the system's
(``rank``); the words are the plugin's catalogue (keys ``init.*``, ``power.*``, ``err.init_usage``,
``err.init_missing_power``, ``err.init_not_in``, ``err.stalemate``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from gateway.core import scene
from gateway.core.commands import Command, CommandContext
from gateway.core.dice import faces
from gateway.core.i18n import Catalogue
from gateway.core.spec import UNDECLARED
from gateway.core.types import Invocation, Reply
from gateway.rules import sheet_params as P
from gateway.rules.power_words import NotPowerWords, PowerWords
from gateway.rules.ties import Stalemate

INIT = "initiative"
# (ctx, the entries in joining order) -> the order's result (``Order.as_result()``)
Rank = Callable[[CommandContext, list[dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True)
class InitiativeTracker:
    system: str
    catalogue: Catalogue
    powers: PowerWords
    rank: Rank

    def t(self, ctx: CommandContext, key: str, /, **params: Any) -> str:
        return self.catalogue.say(ctx, key, **params)

    def commands(self, join: Any, add: Any, add_usage: str, roll_summary: str) -> list[Command]:
        """``init``, ``init join`` / ``init add`` (the plugin's handlers, whose parameters the plugin
        declares), ``init roll``, ``init remove`` and ``init clear``."""

        command = partial(Command, system=self.system, params=P.NONE)

        return [
            command("init", self.show, "show the initiative order", "init"),
            command(
                "init join",
                join,
                "join the initiative with your active character",
                "init join [hunting] [celerity basic|advanced]",
                params=UNDECLARED,
            ),
            command(
                "init add",
                add,
                "Storyteller: add someone to the initiative",
                add_usage,
                role="storyteller",
                params=UNDECLARED,
            ),
            command("init roll", self.roll, roll_summary, "init roll", role="storyteller"),
            command(
                "init remove",
                self.remove,
                "Storyteller: take someone out of the initiative",
                "init remove NAME",
                role="storyteller",
                params=P.INIT_REMOVE,
            ),
            command(
                "init clear",
                self.clear,
                "Storyteller: clear the initiative",
                "init clear",
                role="storyteller",
            ),
        ]

    # --- powers ---------------------------------------------------------------------------------

    def read_powers(self, ctx: CommandContext, words: Sequence[str]) -> dict[str, Any]:
        try:
            return self.powers.read(words)
        except NotPowerWords:
            raise self.catalogue.refusal(ctx, "err.init_usage") from None

    def power_name(self, ctx: CommandContext, power: str, level: Any) -> str:
        return self.t(ctx, f"power.{power}" if power in self.powers.flags else f"power.{power}.{level}")

    def require_powers(self, ctx: CommandContext, name: str, wanted: dict[str, Any], sheet: Any) -> None:
        """Refuse powers the character's sheet does not have."""
        missing = self.powers.missing(wanted, sheet)
        if missing is not None:
            power = self.power_name(ctx, *missing)
            raise self.catalogue.refusal(ctx, "err.init_missing_power", name=name, power=power)

    def powers_text(self, ctx: CommandContext, entry: dict[str, Any]) -> str:
        names = [
            self.power_name(ctx, p, entry[p]) for p in (*self.powers.flags, *self.powers.levelled) if entry[p]
        ]
        return self.t(ctx, "init.powers", powers=", ".join(names)) if names else ""

    # --- the document ---------------------------------------------------------------------------

    async def join(self, ctx: CommandContext, entry: dict[str, Any]) -> Reply:
        """Put ``entry`` in (in the place of an entry of the same name); the order is rolled again."""
        data = await scene.load(ctx, INIT) or {"entries": [], "order": None}
        entries = [e for e in data["entries"] if e["name"].casefold() != entry["name"].casefold()]
        position = next(
            (i for i, e in enumerate(data["entries"]) if e["name"].casefold() == entry["name"].casefold()),
            len(entries),
        )
        entries.insert(position, entry)
        await scene.save(ctx, INIT, {"entries": entries, "order": None})
        text = self.t(ctx, "init.joined", **entry, powers=self.powers_text(ctx, entry))
        return Reply(text=text, result={"kind": "initiative", "system": self.system, "entries": entries})

    def order_text(self, ctx: CommandContext, order: dict[str, Any]) -> str:
        ranks = ", ".join(f"{i}. {n}" for i, n in enumerate(order["order"], 1))
        lines = [self.t(ctx, "init.order", order=ranks)]
        if order["extra"]:
            passes = "; ".join(", ".join(p) for p in order["extra"])
            lines.append(self.t(ctx, "init.extra", passes=passes))
        if order["rolls"]:
            rolls = ", ".join(f"{n} {faces(d)}" for n, d in order["rolls"].items())
            lines.append(self.t(ctx, "init.dice", rolls=rolls))
        return " ".join(lines)

    # --- commands -------------------------------------------------------------------------------

    async def show(self, ctx: CommandContext, inv: Invocation) -> Reply:
        if inv.words:
            raise self.catalogue.refusal(ctx, "err.init_usage")
        data = await scene.load(ctx, INIT)
        if not data or not data["entries"]:
            return Reply(
                text=self.t(ctx, "init.empty"),
                result={"kind": "initiative", "system": self.system, "order": None},
            )
        if data.get("order"):
            return Reply(text=self.order_text(ctx, data["order"]), result=data["order"])
        names = ", ".join(e["name"] for e in data["entries"])
        return Reply(
            text=self.t(ctx, "init.waiting", names=names),
            result={"kind": "initiative", "system": self.system, "entries": data["entries"], "order": None},
        )

    async def roll(self, ctx: CommandContext, inv: Invocation) -> Reply:
        data = await scene.load(ctx, INIT)
        if not data or not data["entries"]:
            raise self.catalogue.refusal(ctx, "init.empty")
        try:
            result = self.rank(ctx, data["entries"])
        except Stalemate as exc:
            raise self.catalogue.refusal(ctx, "err.stalemate", n=exc.args[0]) from None
        text = self.order_text(ctx, result)
        if result["dice"]:  # ties went to the dice: the roll log keeps them, verify shows them
            text = f"{text} #{await ctx.log_roll(result)}"
        await scene.save(ctx, INIT, {**data, "order": result})
        await ctx.stlog(text, kind="initiative", result=result)
        return Reply(text=text, result=result)

    async def remove(self, ctx: CommandContext, inv: Invocation) -> Reply:
        name = " ".join(inv.words)
        data = await scene.load(ctx, INIT)
        entries = (data or {}).get("entries", [])
        kept = [e for e in entries if e["name"].casefold() != name.casefold()]
        if not name or len(kept) == len(entries):
            raise self.catalogue.refusal(ctx, "err.init_not_in", name=name[:60] or "?")
        await scene.save(ctx, INIT, {"entries": kept, "order": None})
        return Reply(
            text=self.t(ctx, "init.removed", name=name), result={"kind": "initiative", "entries": kept}
        )

    async def clear(self, ctx: CommandContext, inv: Invocation) -> Reply:
        await scene.drop(ctx, INIT)
        return Reply(
            text=self.t(ctx, "init.cleared"),
            result={"kind": "initiative", "system": self.system, "order": None},
        )
