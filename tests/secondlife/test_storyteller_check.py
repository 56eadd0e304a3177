"""A Storyteller-log copy for a Storyteller HUD is checked for the role once: in the fan-out that
queued it; only a copy that waited (its HUD away or busy) is checked again when it is sent."""

from __future__ import annotations

from adapters.secondlife.delivery import FAN_OUT_CHECK_SECONDS, _checked_by_fan_out
from gateway import Outbound


def row(payload: dict[str, object]) -> Outbound:
    return Outbound(id=1, platform="secondlife", target="st-hud/x", payload=payload)


def test_a_fresh_fanned_out_copy_is_not_checked_again() -> None:
    copy = row({"kind": "stlog", "text": "x", "via": "st-huds"})
    assert _checked_by_fan_out(copy, age=0.5)
    assert not _checked_by_fan_out(copy, age=FAN_OUT_CHECK_SECONDS + 1)  # it waited: check again
    assert not _checked_by_fan_out(row({"kind": "stlog", "text": "x"}), age=0.5)  # queued to one HUD
