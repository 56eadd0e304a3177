"""A rule system's character sheet, declared once (``RuleSystem(sheet=SheetSpec(...))``).

A ``SheetSpec`` names each field (``key``: the word the commands take), its kind (a ``rating`` drawn
as dots, a ``pool`` drawn as boxes, ``text``, a ``choice``, a ``flag``, a list of ``powers``), the
book's heading it sits under (``SheetGroup``), its range, who may edit it and its label in every
language the system ships. Every platform draws from it: the core derives the ``SheetSummary``
(``summarise``: a Discord embed, a Second Life HUD's state) and the web draws the sheet page and
its editor, whose every change is the field's declared command line (``EditLines``), so the rules,
ranges and refusals stay the commands'.

A leaf: it imports only ``gateway.core.summary`` (itself a leaf) and reads plain dicts, no vault.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait, SheetSummary

FieldKind = Literal["rating", "pool", "number", "text", "choice", "flag", "powers"]
# "player": the owner edits it before approval (a Storyteller always); "storyteller": only a
# Storyteller; "none": shown, set by play (Conditions, experience spent by commands).
Editor = Literal["player", "storyteller", "none"]
Labels = Mapping[str, str]  # locale -> text


def label_in(labels: Labels, locale: str, default: str = "") -> str:
    """The text for ``locale``: that language's, else English, else the first given."""
    if locale in labels:
        return labels[locale]
    if "en" in labels:
        return labels["en"]
    return next(iter(labels.values()), default)


@dataclass(frozen=True)
class Choice:
    """One value of a ``choice`` field or a power's tier: ``value`` is the command's word.
    ``player``: a player may pick it (a creation editor offers the creation tiers only)."""

    value: str
    labels: Labels
    player: bool = True

    def label(self, locale: str) -> str:
        return label_in(self.labels, locale, self.value)


@dataclass(frozen=True)
class EditLines:
    """The command lines that set a field, as ``str.format`` templates: ``{key}`` is the field's
    word, ``{value}`` the new value, ``{name}`` the character's name (a Storyteller's commands name
    it; a player's act on the active character). A powers field adds ``{power}``, ``{tier}`` and
    ``{trait}`` (``add``) and removes with ``remove``. None: that role has no such command."""

    player: str | None = None
    storyteller: str | None = None
    player_remove: str | None = None
    storyteller_remove: str | None = None

    def of(self, storyteller: bool) -> str | None:
        return self.storyteller if storyteller else self.player

    def remove_of(self, storyteller: bool) -> str | None:
        return self.storyteller_remove if storyteller else self.player_remove


@dataclass(frozen=True)
class SheetGroup:
    """A heading of the book's sheet (``Attributes``, ``Трюки``), in the order the sheet has them."""

    key: str
    labels: Labels

    def label(self, locale: str) -> str:
        return label_in(self.labels, locale, self.key)


@dataclass(frozen=True)
class SheetField:
    """One field of a sheet.

    ``path``: where ``Character.sheet`` keeps it (``("traits", "physical")``; default ``(key,)``);
    ``read`` a pure function of the sheet dict where a path is not enough (a boosted rating, a list
    joined into text). A ``pool`` is the character's ``Pool`` row named ``pool`` (default ``key``).
    ``minimum``/``maximum``: the range (a rating's ``maximum`` is its scale, ``of 10``, where the
    book prints one; the command checks, the web's inputs only offer it). ``hide_zero``:
    a rating of 0 is left out of the summary (the dozens of Skills a character lacks); ``rolled``
    False: a rating no roll names (Humanity), which the summary lists as text, not as a trait that
    adapters offer to roll. ``power``: a
    choice or flag the summary lists among the powers when held (Celerity, the Hunting Instinct).
    ``end``: a pool's last box's name (Health's Incapacitated). ``traits``: a powers field's keyed
    traits (rating keys), ``choices`` its tiers. ``lines``: the field's own command lines, else the
    sheet's for its kind (``SheetSpec.lines``).
    """

    key: str
    kind: FieldKind
    labels: Labels
    group: str | None = None
    edit: Editor = "player"
    minimum: int = 0
    maximum: int | None = None
    default: Any = None
    path: tuple[str, ...] = ()
    read: Callable[[Mapping[str, Any]], Any] | None = field(default=None, compare=False)
    pool: str | None = None
    choices: tuple[Choice, ...] = ()
    hide_zero: bool = False
    rolled: bool = True
    power: bool = False
    end: Labels = field(default_factory=dict)
    traits: tuple[str, ...] = ()
    lines: EditLines | None = None
    multiline: bool = False
    max_length: int = 200

    def label(self, locale: str) -> str:
        return label_in(self.labels, locale, self.key)

    def value(self, sheet: Mapping[str, Any]) -> Any:
        """The field's value as the sheet shows it (not a pool's: those are rows)."""
        if self.read is not None:
            return self.read(sheet)
        return self.stored(sheet)

    def stored(self, sheet: Mapping[str, Any]) -> Any:
        """The value as kept, which an edit replaces (a rating without a blood boost); ``read``'s
        where the field declares no ``path``."""
        if self.read is not None and not self.path:
            return self.read(sheet)
        found: Any = sheet
        for step in self.path or (self.key,):
            # ``type() is dict`` first: a sheet is a plain dict, and an ABC check costs on every HUD refresh
            found = found.get(step) if type(found) is dict or isinstance(found, Mapping) else None
        return self.default if found is None else found

    def choice(self, value: Any) -> Choice | None:
        wanted = str(value).casefold() if not isinstance(value, bool) else ("1" if value else "0")
        return next((c for c in self.choices if c.value.casefold() == wanted), None)

    def shown(self, value: Any, locale: str) -> str:
        """A text, choice or flag value as the sheet shows it."""
        if self.kind in ("choice", "flag"):
            found = self.choice(value)
            if found is not None:
                return found.label(locale)
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return "" if value is None else str(value)


@dataclass(frozen=True)
class SheetAction:
    """A button on the sheet that runs one command line for the whole sheet: a player's ``char
    submit``, a Storyteller's ``st approve {name}``. ``statuses``: the sheet statuses it is offered
    in (empty: any). The key ``approve`` marks a system whose sheets are approved."""

    key: str
    labels: Labels
    line: str
    storyteller: bool = True
    statuses: tuple[str, ...] = ()

    def label(self, locale: str) -> str:
        return label_in(self.labels, locale, self.key)

    def offered(self, *, storyteller: bool, status: str) -> bool:
        return self.storyteller == storyteller and (not self.statuses or status in self.statuses)


@dataclass(frozen=True)
class BudgetPool:
    """One pool of creation points, as the book spends it: each dot of the ``ratings`` above
    ``base`` costs ``cost``; each power of the ``powers`` field costs its tier's ``tiers`` price."""

    key: str
    labels: Labels
    total: int
    ratings: tuple[str, ...] = ()
    base: int = 0
    cost: int = 1
    powers: str | None = None
    tiers: Mapping[str, int] = field(default_factory=dict)

    def label(self, locale: str) -> str:
        return label_in(self.labels, locale, self.key)

    def spent(self, spec: SheetSpec, sheet: Mapping[str, Any]) -> int:
        total = 0
        for key in self.ratings:
            found = spec.field_of(key)
            value = as_int(found.stored(sheet)) if found is not None else self.base
            total += (value - self.base) * self.cost
        if self.powers is not None and (held := spec.field_of(self.powers)) is not None:
            total += sum(self.tiers.get(str(p.tier), 0) for p in powers_of(held.stored(sheet)))
        return total

    def left(self, spec: SheetSpec, sheet: Mapping[str, Any]) -> int:
        """What is left to spend (negative: over budget)."""
        return self.total - self.spent(spec, sheet)


@dataclass(frozen=True)
class CreationBudget:
    """The points a player spends on a new sheet (in the sheet ``statuses``), pool by pool: one
    declaration that the system's own checks and the web's counter both read."""

    pools: tuple[BudgetPool, ...]
    statuses: tuple[str, ...] = ("creation",)


@dataclass(frozen=True)
class SheetSpec:
    """A rule system's sheet. ``lines``: the default command lines by field kind; ``actions`` the
    sheet's buttons (approval, submission). ``use``: the line that makes a character the player's
    active one (a player's lines act on it). ``budget``: its creation budget under the system's
    settings (its settings section's model, None for the defaults); None: the book has none."""

    fields: tuple[SheetField, ...]
    groups: tuple[SheetGroup, ...] = ()
    lines: Mapping[str, EditLines] = field(default_factory=dict)
    actions: tuple[SheetAction, ...] = ()
    use: str = "char use {name}"
    budget: Callable[[Any], CreationBudget] | None = field(default=None, compare=False)

    @property
    def approved(self) -> bool:
        """Whether the system's sheets go from creation to approved (its status means something)."""
        return any(a.key == "approve" for a in self.actions)

    def action(self, key: str) -> SheetAction | None:
        return next((a for a in self.actions if a.key == key), None)

    def __post_init__(self) -> None:
        keys = [f.key for f in self.fields]
        doubled = {k for k in keys if keys.count(k) > 1}
        if doubled:
            raise ValueError(f"sheet fields declared twice: {sorted(doubled)}")
        groups = {g.key for g in self.groups}
        unknown = {f.group for f in self.fields if f.group is not None and f.group not in groups}
        if unknown:
            raise ValueError(f"sheet fields in undeclared groups: {sorted(unknown)}")

    def field_of(self, key: str) -> SheetField | None:
        return next((f for f in self.fields if f.key == key), None)

    def group(self, key: str | None) -> SheetGroup | None:
        return next((g for g in self.groups if g.key == key), None)

    def _labelled(self, locale: str) -> tuple[tuple[SheetField, str, str | None], ...]:
        """Each field with its label and its heading's in ``locale``, worked out once per language:
        the summary runs for every HUD refresh."""
        cache: dict[str, tuple[tuple[SheetField, str, str | None], ...]] = self.__dict__.setdefault(
            "_labels", {}
        )
        found = cache.get(locale)
        if found is None:
            headings = {g.key: g.label(locale) for g in self.groups}
            found = tuple((f, f.label(locale), headings.get(f.group or "")) for f in self.fields)
            cache[locale] = found
        return found

    def lines_of(self, sheet_field: SheetField) -> EditLines:
        return sheet_field.lines or self.lines.get(sheet_field.kind) or EditLines()

    def editable(self, sheet_field: SheetField, *, storyteller: bool, status: str) -> bool:
        """Whether this viewer may change the field: a Storyteller any field with a Storyteller's
        line; the owner a ``player`` field with a player's line, until the sheet is approved."""
        lines = self.lines_of(sheet_field)
        if storyteller:
            return sheet_field.edit != "none" and lines.storyteller is not None
        return sheet_field.edit == "player" and lines.player is not None and status != "approved"

    def players_edit(self) -> bool:
        return any(f.edit == "player" and self.lines_of(f).player for f in self.fields)

    def summarise(
        self,
        name: str,
        system: str,
        status: str,
        sheet: Mapping[str, Any],
        pools: Mapping[str, tuple[int, int]],
        locale: str,
    ) -> SheetSummary:
        """The ``SheetSummary`` the declaration gives: ratings under their headings, the pools the
        character has, powers (a powers list, and choices and flags declared as powers when held),
        and the filled text and choice fields, each in the declared order and in ``locale``."""
        sheet = sheet if isinstance(sheet, Mapping) else {}
        traits: list[RatedTrait] = []
        meters: list[PoolMeter] = []
        powers: list[Power] = []
        texts: list[FreeField] = []
        for f, label, heading in self._labelled(locale):
            if f.kind == "pool":
                if (f.pool or f.key) in pools:
                    current, maximum = pools[f.pool or f.key]
                    meters.append(PoolMeter(f.key, label, current, maximum))
                continue
            value = f.value(sheet)
            if f.kind == "rating" and f.rolled:
                rating = as_int(value)
                if rating or not f.hide_zero:
                    traits.append(RatedTrait(f.key, label, rating, f.maximum, heading))
            elif f.kind == "powers":
                powers.extend(powers_of(value))
            elif f.power:
                if value and value != "0":
                    tier = None if isinstance(value, bool) or f.kind == "flag" else value
                    power = f.choice(value) if f.kind == "choice" else None
                    powers.append(Power(power.label(locale) if power else label, tier))
            elif not (f.hide_zero and (not value or value == "0")):
                text = f.shown(value, locale)
                if text:
                    texts.append(FreeField(label, text))
        return SheetSummary(
            name=name,
            system=system,
            status=status,
            traits=tuple(traits),
            pools=tuple(meters),
            powers=tuple(powers),
            fields=tuple(texts),
        )


def as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def powers_of(value: Any) -> list[Power]:
    """A powers list as stored: ``[{"name", "tier", "trait"}, ...]`` (anything else left out)."""
    found = value if isinstance(value, Sequence) and not isinstance(value, str) else ()
    return [
        Power(str(p["name"]), p.get("tier"), p.get("trait"))
        for p in found
        if isinstance(p, Mapping) and p.get("name")
    ]
