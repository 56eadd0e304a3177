"""The HUD state's text fields within its byte budget, for every installed rule system at its worst:
every text field full of 4-byte characters, every choice at its longest label, the longest names
(60 characters of 4 bytes). ``fields`` never makes a state that fitted too big: it takes only the
room the rest of the state leaves under ``STATE_BYTES``, and then a 2048-byte answer still carries
the state beside a reply line of 200 bytes (``fit_response``)."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.secondlife.render import dumps, fit_response
from adapters.secondlife.state import FIELD_BYTES, STATE_BYTES, _with_sheet
from gateway import RuleSystem
from gateway.core.plugins import Plugins, build_plugin_manager

WIDE = "\U0001f3b2"  # 4 UTF-8 bytes
NAME = WIDE * 60


def systems() -> list[RuleSystem]:
    found = Plugins(build_plugin_manager()).systems()
    return [found[name] for name in sorted(found)]


def worst_sheet(system: RuleSystem) -> dict[str, Any]:
    """Every stored text field at its longest, every choice at its longest label."""
    assert system.sheet is not None
    sheet: dict[str, Any] = {}
    for f in system.sheet.fields:
        if f.kind == "text":
            value: Any = WIDE * f.max_length
        elif f.kind == "choice" and f.choices:
            value = max(f.choices, key=lambda c: max(len(x.encode()) for x in c.labels.values())).value
        elif f.kind == "rating":
            value = f.maximum or 5
        else:
            continue
        at = sheet
        path = f.path or (f.key,)
        for step in path[:-1]:
            at = at.setdefault(step, {})
        at[path[-1]] = value
    return sheet


@pytest.mark.parametrize("system", systems(), ids=lambda s: s.name)
def test_the_fields_fit_the_state_budget_at_their_worst(system: RuleSystem) -> None:
    if system.sheet is None:
        pytest.skip("no declared sheet")
    for locale in system.locales:
        pools = {(f.pool or f.key): (99, 99) for f in system.sheet.fields if f.kind == "pool"}
        summary = system.sheet.summarise(NAME, system.name, "approved", worst_sheet(system), pools, locale)
        base = {
            "mode": "gameplay",
            "st": True,
            "chars": [NAME[:40]] * 3,
            "decl": f"{system.name}.xx.01234567",
        }
        state = _with_sheet(dict(base), NAME, "approved", system.name, summary)
        size = len(dumps(state))
        fields = state.get("fields", [])
        print(f"{system.name} {locale}: {len(summary.fields)} fields, {len(fields)} sent, state {size} bytes")
        assert size <= STATE_BYTES, (system.name, size)
        assert all(len(text.encode()) <= FIELD_BYTES for _label, text in fields)
        if summary.fields:
            assert fields, "no field fits beside this state"  # the budget leaves them room
        body, rest = fit_response([{"text": "x" * 200, "private": False}], {"state": state}, 2048)
        assert "state" in body and rest == []
