"""How a rule system declares its house rules: a pydantic model whose fields are the switches.

Each field's default is the book's rule; ``switch`` records its one-line meaning in English, Czech
and Russian and where the book says it (``book``). A setting of the system's settings table may
stand in for a default (Nightcap's ``wound_penalties``): the model's ``configured`` names those.
Pure: no I/O.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class HouseRules(BaseModel):
    """The base of a system's ``house_rules`` model: frozen, and no switch it does not declare."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def configured(cls, settings: BaseModel | None) -> dict[str, Any]:
        """Defaults the system's validated settings table gives in place of the book's (none here)."""
        return {}

    def changed(self, book: HouseRules) -> dict[str, Any]:
        """The switches whose value differs from ``book``'s, by name."""
        return {n: v for n, v in self if getattr(book, n) != v}

    def away_from_book(self) -> dict[str, Any]:
        """``changed`` against the book's own rules, kept per instance: every roll asks it, and the
        router hands a channel the same (frozen) instance for as long as its rows are the same.
        Do not change the dict returned."""
        found = _AWAY.get(id(self))
        if found is not None and found[0] is self:
            return found[1]
        if len(_AWAY) >= _MAX_AWAY:
            _AWAY.clear()
        away = self.changed(book_rules(type(self)))
        _AWAY[id(self)] = (self, away)  # the instance itself is kept, so its id is not reused
        return away


_AWAY: dict[int, tuple[HouseRules, dict[str, Any]]] = {}
_MAX_AWAY = 4096
_BOOKS: dict[type[HouseRules], HouseRules] = {}


def book_rules(model: type[HouseRules]) -> HouseRules:
    """The book's own switches of ``model`` (its defaults), built once."""
    book = _BOOKS.get(model)
    if book is None:
        book = _BOOKS[model] = model()
    return book


def from_settings(settings: BaseModel | None, model: type[BaseModel], **names: str) -> dict[str, Any]:
    """For ``configured``: switch -> the value of the setting it names, when ``settings`` is a
    ``model`` (``from_settings(s, DramaticSettings, default_difficulty="default_difficulty")``)."""
    if not isinstance(settings, model):
        return {}
    return {switch_name: getattr(settings, setting) for switch_name, setting in names.items()}


def switch(default: Any, *, en: str, cs: str, ru: str, book: str, **limits: Any) -> Any:
    """A house-rule field: ``default`` is the book's rule, ``book`` names where it says so."""
    return Field(default, description=en, json_schema_extra={"cs": cs, "ru": ru, "book": book}, **limits)


@dataclass(frozen=True)
class Switch:
    """One declared switch, as ``house`` shows it."""

    name: str
    kind: str  # "bool", "int" or "choice"
    choices: tuple[str, ...]
    low: int | None
    high: int | None
    default: Any
    meaning: Mapping[str, str]
    book: str

    def meaning_in(self, locale: str) -> str:
        return self.meaning.get(locale) or self.meaning["en"]


def _bound(metadata: list[Any], name: str) -> int | None:
    for item in metadata:
        value = getattr(item, name, None)
        if value is not None:
            return int(value)
    return None


def switches(model: type[BaseModel]) -> dict[str, Switch]:
    """The model's switches in declaration order."""
    out: dict[str, Switch] = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if get_origin(annotation) in (Union, types.UnionType):
            annotation = next(a for a in get_args(annotation) if a is not type(None))
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        choices: tuple[str, ...] = ()
        if annotation is bool:
            kind = "bool"
        elif annotation is int:
            kind = "int"
        elif get_origin(annotation) is Literal:
            kind, choices = "choice", tuple(str(a) for a in get_args(annotation))
        else:
            raise TypeError(f"house rule {name}: a switch is a bool, an int or a Literal of words")
        meaning = {
            "en": info.description or "",
            "cs": str(extra.get("cs", "")),
            "ru": str(extra.get("ru", "")),
        }
        low = _bound(info.metadata, "ge")
        high = _bound(info.metadata, "le")
        out[name] = Switch(name, kind, choices, low, high, info.default, meaning, str(extra.get("book", "")))
    return out


# What ``house`` shows in each language reads back too (``zapnuto``, ``вкл.``).
TRUE = frozenset({"on", "yes", "true", "1", "ano", "zap", "zapnuto", "да", "вкл", "вкл."})
FALSE = frozenset({"off", "no", "false", "0", "ne", "vyp", "vypnuto", "нет", "выкл", "выкл."})


class WrongValue(ValueError):
    """A value a switch cannot take; ``kind`` says what it takes (for the refusal)."""


def parse_value(spec: Switch, text: str) -> Any:
    """``text`` as ``spec``'s value, or ``WrongValue``."""
    word = text.strip().casefold()
    if spec.kind == "bool":
        if word in TRUE:
            return True
        if word in FALSE:
            return False
        raise WrongValue(spec.kind)
    if spec.kind == "int":
        signed = word[1:] if word[:1] in "+-" else word
        if not signed.isascii() or not signed.isdigit() or len(signed) > 6:
            raise WrongValue(spec.kind)
        value = int(word)
        if (spec.low is not None and value < spec.low) or (spec.high is not None and value > spec.high):
            raise WrongValue(spec.kind)
        return value
    if word not in spec.choices:
        raise WrongValue(spec.kind)
    return word


def defaults(model: type[HouseRules], settings: BaseModel | None) -> HouseRules:
    """The switches with no house rule set: the book's, or the settings table's where it names one."""
    return model(**model.configured(settings))


def build(model: type[HouseRules], settings: BaseModel | None, stored: Mapping[str, Any]) -> HouseRules:
    """The switches with ``stored`` (name -> value) over the defaults. A stored switch the model no
    longer declares, or a value it no longer takes (a plugin upgraded), is left out."""
    base = model.configured(settings)
    known = {n: v for n, v in stored.items() if n in model.model_fields}
    try:
        return model(**{**base, **known})
    except ValidationError:
        kept = dict(base)
        for name, value in known.items():
            try:
                model(**{**kept, name: value})
            except ValidationError:
                continue
            kept[name] = value
        return model(**kept)
