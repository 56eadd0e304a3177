"""Whole-number (and text) form fields read from a query string: a value, or one short line in the reader's
language naming the field (never an internal error)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gateway.core.web_tool import ToolField, in_locale
from gateway.rules.numbers import read_int

Say = Callable[..., str]


def number(
    query: Mapping[str, str], name: str, label: str, default: int | None, low: int, high: int, say: Say
) -> tuple[int | None, str | None]:
    """(value, None) or (None, the line saying what is wrong); an empty field is ``default``."""
    raw = query.get(name, "").strip()
    if not raw:
        return default, None
    value = read_int(raw[:12], signed=True)
    if value is None:
        return None, say("err.number", field=label)
    if not low <= value <= high:
        return None, say("err.range", field=label, low=low, high=high)
    return value, None


def tool_values(
    fields: Sequence[ToolField], query: Mapping[str, str], locale: str, max_pool: int, say: Say
) -> tuple[dict[str, int | str], list[str]]:
    """Every field's value (its default when left out) and the lines for those that are wrong."""
    values: dict[str, int | str] = {}
    errors: list[str] = []
    for f in fields:
        label = in_locale(f.label, locale)
        if f.text is not None:
            text = " ".join(query.get(f.name, f.text).split())[: f.max_length] or f.text
            problem = f.check_text(text, locale) if f.check_text else None
            if problem:
                errors.append(problem)
            else:
                values[f.name] = text
            continue
        if f.check:
            values[f.name] = 1 if query.get(f.name) in ("1", "on") else 0
            continue
        if f.choices:
            allowed = [v for v, _ in f.choices]
            value, error = number(query, f.name, label, f.default, min(allowed), max(allowed), say)
            if value is not None and value not in allowed:
                value, error = None, say("err.range", field=label, low=min(allowed), high=max(allowed))
        else:
            high = max_pool if f.high is None else f.high
            value, error = number(query, f.name, label, f.default, f.low, high, say)
            if error and f.high is None and value is None and _above(query.get(f.name, ""), high):
                error = say("err.pool", n=read_int(query[f.name].strip()[:12], signed=True), max=max_pool)
        if error:
            errors.append(error)
        elif value is not None:
            values[f.name] = value
    return values, errors


def _above(raw: str, high: int) -> bool:
    value = read_int(raw.strip()[:12], signed=True)
    return value is not None and value > high
