"""Tallies as JSON text for the vault's ``stats_tally`` rows, and back. Pure.

A kind of roll (``tally.Group``) is named in the text by a digest of its labels and exact odds, the
same in every process (the in-process ``signature`` numbers are not). The scope's whole tally carries
each kind's labels and odds once; a day's tally names its kinds only, read with the whole one's."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import orjson

from gateway.features.stats.tally import Group, Tally, signature

Kind = tuple[tuple[str, ...], Mapping[str, Fraction]]  # labels, exact odds
MAX_KINDS = 4096

_KEYS: dict[int, str] = {}  # signature -> the kind's stable key
_KINDS: dict[str, Kind] = {}  # stable key -> the kind, its odds parsed once per process


def kind_key(group: Group) -> str:
    number = signature(group.labels, group.odds)
    key = _KEYS.get(number)
    if key is None:
        text = orjson.dumps([list(group.labels), [[k, str(p)] for k, p in sorted(group.odds.items())]])
        key = _KEYS[number] = hashlib.sha256(text).hexdigest()[:20]
    return key


def copy(tally: Tally) -> Tally:
    out = Tally()
    out.merge(tally)
    return out


def encode(tally: Tally, *, kinds: bool) -> str:
    """``kinds``: with each kind's labels and odds (the scope's whole tally)."""
    groups: dict[str, Any] = {}
    table: dict[str, Any] = {}
    for group in tally.groups.values():
        key = kind_key(group)
        groups[key] = [group.rolls, dict(group.observed)]
        if kinds:
            table[key] = [list(group.labels), {k: str(p) for k, p in group.odds.items()}]
    data: dict[str, Any] = {
        "rolls": tally.rolls,
        "other": tally.other,
        "impossible": tally.impossible,
        "faces": {str(sides): {str(f): n for f, n in c.items()} for sides, c in tally.faces.items()},
        "groups": groups,
    }
    if kinds:
        data["kinds"] = table
    return orjson.dumps(data).decode()


def _kind(key: str, value: Any) -> Kind:
    known = _KINDS.get(key)
    if known is None:
        labels, odds = value
        if len(_KINDS) >= MAX_KINDS:
            _KINDS.clear()
        known = _KINDS[key] = (tuple(labels), {k: Fraction(p) for k, p in odds.items()})
    return known


def decode(text: str, kinds: Mapping[str, Kind] | None = None) -> tuple[Tally, dict[str, Kind]]:
    """The tally and the kinds it names: its own (the whole tally's), else ``kinds``."""
    data = orjson.loads(text)
    table = {key: _kind(key, value) for key, value in data.get("kinds", {}).items()}
    known = table if kinds is None else kinds
    tally = Tally(rolls=data["rolls"], other=data["other"], impossible=data["impossible"])
    for sides, counted in data["faces"].items():
        tally.faces[int(sides)] = Counter({int(f): n for f, n in counted.items()})
    for key, (rolls, observed) in data["groups"].items():
        labels, odds = known[key]
        tally.groups[signature(labels, odds)] = Group(labels, odds, rolls, Counter(observed))
    return tally, table
