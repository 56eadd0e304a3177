"""The Second Life HUDs' menus as the rule system declares them (``decl``): which command rolls a trait and
what it asks after the trait, the fields a player sets and the line that sets each, the line that
picks a character, the sheet's buttons, the power tiers. Read from the ``RuleSystem`` alone (its
commands' ``Param``s and its ``SheetSpec``), so a system the HUD has never seen gets working menus.

The HUD asks for it once per system and language: ``state`` carries its ``decl`` tag, and a HUD whose
copy has another tag sends ``{"decl": true}``. Command lines travel as templates split at their
placeholders, ``["trait ", "key", " ", "value", ""]`` (even items literal, odd items a name), which
the script fills in without string replacement:

    {"tag": "nightcap.en.3f9a", "roll": ["roll", 1, 1], "traits": [["physical", "Physical"], ...],
     "pools": [["willpower", "Willpower"], ...],
     "set": [["Origin", "text", ["char set origin ", "value", ""], 0, 0, []], ...],
     "use": ["char use ", "name", ""], "acts": [["Submit for approval", ["char submit"]], ...],
     "power": {...}, "cmds": ["roll", "checkin", ...],
     "st": {"cmds": ["st approve", ...], "roll": ["st rollstat", 1, 1], "force": 1,
            "set": [["Physical", "typed", ["st trait ", "name", " physical ", "value", ""], 0, 9, []], ...],
            "power": {"add": [...], "remove": [...]}}}

``st`` is the Storyteller HUD's part: the same rows and steps, from the Storyteller's lines and
commands (a ``name`` placeholder for the character).
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Sequence
from typing import Any

import orjson

from gateway import Command, Param, RuleSystem, SheetSpec

PAD_MOST = 10  # a pad of at most this many numbers (+ Back); a wider or open range is typed
WP_POOL = "willpower"  # the pool the ``wp`` word of a dice pool spends (``gateway.core.params``)
_CACHE: dict[tuple[int, str], dict[str, Any]] = {}


def template(line: str, fixed: dict[str, str]) -> list[str]:
    """``line`` with ``fixed`` placeholders filled, split at the others: even items literal, odd
    items a placeholder's name (``"trait {key} {value}"``, key physical -> ``["trait physical ",
    "value", ""]``)."""
    parts: list[str] = [""]
    for literal, name, _spec, _conv in string.Formatter().parse(line):
        parts[-1] += literal
        if name is None:
            continue
        if name in fixed:
            parts[-1] += fixed[name]
        else:
            parts += [name, ""]
    return parts


def _player_commands(system: RuleSystem) -> list[Command]:
    return [c for c in system.commands() if c.role != "storyteller"]


def _first(command: Command) -> Param | None:
    return next((p for p in command.params if not p.keyword), None)


def roll_command(system: RuleSystem) -> Command | None:
    """The command the Roll menu sends with a trait: the system's ``roll`` when its first parameter
    takes a trait or a pool, else its first command whose first parameter is one required trait,
    else one whose first is a pool."""
    ranked: list[tuple[int, int, Command]] = []
    for at, command in enumerate(_player_commands(system)):
        first = _first(command)
        if first is None or first.kind not in ("trait", "pool"):
            continue
        if command.name == "roll":
            ranked.append((0, at, command))
        elif first.kind == "trait" and first.required:
            ranked.append((1, at, command))
        elif first.required:
            ranked.append((2, at, command))
    return min(ranked, key=lambda r: r[:2])[2] if ranked else None


def _asks(params: Sequence[Param], sheet: SheetSpec | None) -> tuple[int, int]:
    """(modifier step, Willpower step) after the trait: a dice pool reads ``+N``/``-N`` and ``wp``
    (the ``pool`` kind's words) or the command declares a modifier or a ``wp`` flag."""
    first = next((p for p in params if not p.keyword), None)
    pool = first is not None and first.kind == "pool"
    mod = pool or any(p.kind == "modifier" for p in params)
    has_pool = sheet is not None and any(
        f.kind == "pool" and (f.pool or f.key) == WP_POOL for f in sheet.fields
    )
    wp = any(p.kind == "flag" and p.keyword == "wp" for p in params) or (pool and has_pool)
    return int(mod), int(wp)


def _field_row(spec: SheetSpec, key: str, locale: str, storyteller: bool = False) -> list[Any] | None:
    """A field's row: label, kind, line, range, choices. A Storyteller's line names the character
    (``name``), sets pools too and takes every choice; a player's takes those a player may pick."""
    f = spec.field_of(key)
    if f is None:
        return None
    line = spec.lines_of(f).of(storyteller)
    kinds = ("rating", "number", "text", "choice", "flag", *(("pool",) if storyteller else ()))
    if line is None or f.edit == "none" or f.kind not in kinds:
        return None
    tpl = template(line, {"key": f.key})
    top = f.maximum if f.maximum is not None else f.minimum + PAD_MOST - 1
    choices = (
        [[c.value, c.label(locale)] for c in f.choices if c.player or storyteller]
        if f.kind in ("choice", "flag")
        else []
    )
    kind: str = "number" if f.kind in ("rating", "number", "pool") else f.kind
    if kind == "number" and (f.maximum is None or top - f.minimum + 1 > PAD_MOST):
        kind = "typed"  # an open or wide range: a pad of the first values and Custom
    return [f.label(locale), kind, tpl, f.minimum, top, choices]


def _power(system: RuleSystem, spec: SheetSpec | None, locale: str) -> dict[str, Any]:
    """Using a power (the first command whose first parameter is a power and that rolls: a pool
    follows), its tiers, and the powers field's add and remove lines."""
    out: dict[str, Any] = {}
    for command in _player_commands(system):
        first = _first(command)
        if first is None or first.kind != "power" or not any(p.kind == "pool" for p in command.params):
            continue
        tier = next((p for p in command.params if p.name == "tier" and p.choices), None)
        mod, wp = _asks(command.params[2 if tier else 1 :], spec)
        out["use"] = [command.name, 1 if tier else 0, mod, wp]
        break
    field = next((f for f in spec.fields if f.kind == "powers"), None) if spec else None
    if spec is not None and field is not None:
        out["tiers"] = [[c.value, c.label(locale), int(c.player)] for c in field.choices]
        out.update(_power_lines(spec, storyteller=False))
    return out


def _power_lines(spec: SheetSpec | None, *, storyteller: bool) -> dict[str, Any]:
    """The powers field's add and remove lines for a player or a Storyteller (``{}``: none)."""
    field = next((f for f in spec.fields if f.kind == "powers"), None) if spec else None
    if spec is None or field is None:
        return {}
    lines = spec.lines_of(field)
    found = {"add": lines.of(storyteller), "remove": lines.remove_of(storyteller)}
    return {k: template(line, {}) for k, line in found.items() if line}


def _rolls(words: Sequence[Param]) -> bool:
    """A dice pool, or a trait nothing required follows (``st trait NAME TRAIT N`` sets one)."""
    return words[0].kind == "pool" or (words[0].kind == "trait" and not any(p.required for p in words[1:]))


def _storyteller(system: RuleSystem, spec: SheetSpec | None, locale: str) -> dict[str, Any]:
    """The Storyteller HUD's part: its commands, the command that rolls a named character's trait
    (a character, then a required trait or pool) with the steps after it, whether ``st approve`` takes
    ``force``, the fields a Storyteller
    sets (pools too, every choice) and the powers lines; the tiers and traits are the player part's."""
    commands = [c for c in system.commands() if c.role == "storyteller"]
    out: dict[str, Any] = {"cmds": sorted(c.name for c in commands), "roll": None, "set": []}
    approve = next((c for c in commands if c.name == "st approve"), None)
    out["force"] = int(approve is not None and any(p.keyword == "force" for p in approve.params))
    for command in commands:
        words = [p for p in command.params if not p.keyword]
        if len(words) > 1 and words[0].kind == "character" and words[1].required and _rolls(words[1:]):
            out["roll"] = [command.name, *_asks(command.params[1:], spec)]
            break
    if spec is not None:
        rows = (_field_row(spec, f.key, locale, storyteller=True) for f in spec.fields)
        out["set"] = [row for row in rows if row is not None]
    out["power"] = _power_lines(spec, storyteller=True)
    return out


def build(system: RuleSystem, locale: str) -> dict[str, Any]:
    """The declaration for ``system`` in ``locale`` (pure: the same objects give the same answer)."""
    spec = system.sheet
    decl: dict[str, Any] = {"roll": None, "traits": [], "pools": [], "set": [], "acts": [], "use": None}
    command = roll_command(system)
    if command is not None:
        decl["roll"] = [command.name, *_asks(command.params, spec)]
    if spec is not None:
        decl["traits"] = [[f.key, f.label(locale)] for f in spec.fields if f.kind == "rating" and f.rolled]
        decl["pools"] = [[f.key, f.label(locale)] for f in spec.fields if f.kind == "pool"]
        rows = (_field_row(spec, f.key, locale) for f in spec.fields if f.edit == "player")
        decl["set"] = [row for row in rows if row is not None]
        decl["use"] = template(spec.use, {})
        decl["acts"] = [
            [a.label(locale), template(a.line, {}), list(a.statuses)]
            for a in spec.actions
            if not a.storyteller
        ]
    decl["power"] = _power(system, spec, locale)
    decl["cmds"] = sorted({c.name for c in _player_commands(system)})
    decl["st"] = _storyteller(system, spec, locale)
    digest = hashlib.blake2s(orjson.dumps(decl), digest_size=4).hexdigest()
    decl["tag"] = f"{system.name}.{locale}.{digest}"
    return decl


def decl_of(system: RuleSystem, locale: str) -> dict[str, Any]:
    """``build``, kept per system object and language (declarations do not change while it runs)."""
    key = (id(system), locale)
    found = _CACHE.get(key)
    if found is None or found["tag"].partition(".")[0] != system.name:
        found = _CACHE[key] = build(system, locale)
    return found
