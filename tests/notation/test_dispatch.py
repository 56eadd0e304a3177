"""The registry's ``claims``: notation lines go to the core's ``roll``/``r``/``odds`` in every
channel, everything else to the system's own command, and ``r`` without notation to nothing (a
macro may be called so)."""

from __future__ import annotations

from gateway.core.registry import Registry
from gateway.core.spec import Command, RuleSystem
from gateway.features.notation.command import claims


async def _handler(*_: object) -> None:
    return None


def registry() -> Registry:
    found = Registry()
    found.add_system(RuleSystem("nightcap", "Nightcap", "d10"))
    found.add_system(RuleSystem("bare", "Bare", "d6"))
    found.add_command(Command("roll", _handler, "a pool", system="nightcap"))
    found.add_command(Command("roll", _handler, "notation", aliases=("r",), claims=claims))
    found.add_command(Command("help", _handler, "help"))
    return found


def test_notation_is_the_core_s_and_the_rest_the_system_s() -> None:
    found = registry()
    core = found.commands[(None, "roll")]
    own = found.commands[("nightcap", "roll")]
    assert found.find("nightcap", ["roll", "2d6+3"]) == (core, 1)
    assert found.find("nightcap", ["ROLL", "d20", "adv"]) == (core, 1)
    assert found.find("nightcap", ["r", "4d6kh3"]) == (core, 1)
    assert found.find("nightcap", ["roll", "3", "+1"]) == (own, 1)
    assert found.find("nightcap", ["roll", "physical"]) == (own, 1)
    assert found.find("nightcap", ["roll"]) == (own, 1)
    assert found.find("nightcap", ["r", "3"]) is None  # not notation: a macro named r may run
    # A system without a roll of its own: every roll line is the core's (which explains notation).
    assert found.find("bare", ["roll", "3"]) == (core, 1)
    assert found.find("bare", ["r", "3"]) is None
    assert found.find("nightcap", ["help", "roll"]) == (found.commands[(None, "help")], 1)
