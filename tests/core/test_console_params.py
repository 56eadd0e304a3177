"""The console's Tab completion drawn from the commands' typed parameters: the names come from a
real gateway (the registry's declarations, the vault's characters and sheets, the system's house
rules) through ``load_names``, as the prompt reads them."""

from __future__ import annotations

import pytest

from adapters.console.complete import Names, completions
from adapters.console.names import load_names, visible_commands
from gateway import Channel, Identity
from gateway.testing import Chat


@pytest.fixture
async def names(chat: Chat) -> Names:
    await chat.say("char new Mira Vance", as_="mira")
    await chat.say("power add Shadow Step adept physical", as_="mira")
    await chat.say("char new Dorian Gray", as_="ana")
    services = chat.services
    channel = Channel("console", "main")
    sender = Identity("console", "mira", "mira")
    await chat.say("lang en", as_="mira")  # the channel and the person exist
    return await load_names(services, visible_commands(services), channel, sender, True)


def offered(text: str, names: Names) -> list[str]:
    return sorted(text[: len(text) + start] + completion for completion, start in completions(text, names))


async def test_the_loader_reads_the_declarations_and_the_sheet(names: Names) -> None:
    assert names.params["roll"][0].name == "pool" and names.params["+prove"] == names.params["prove"]
    assert names.powers == ("Shadow Step",)
    assert names.own_characters == ("Mira Vance",)
    assert "Dorian Gray" in names.characters
    assert names.house_rules  # Nightcap's switches, read from its house-rules model


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("char set or", ["char set origin"]),  # a choice
        ("lang c", ["lang channel", "lang cs"]),  # a flag and a choice
        ("lang channel r", ["lang channel ru"]),
        ("st roster u", ["st roster unlocked"]),
        ("roll ph", ["roll physical"]),  # a pool: the sheet's traits
        ("roll physical+me", ["roll physical+mental"]),  # its last word
        ("roll 3 s", ["roll 3 secret", "roll 3 social", "roll 3 spirit"]),  # traits, then the unused flag
        ("roll 3 vs Dor", ["roll 3 vs Dorian Gray"]),  # the other side may be a character
        ("power use Sh", ["power use Shadow Step"]),  # the active character's powers
        ("power use Shadow Step ad", ["power use Shadow Step adept", "power use Shadow Step advanced"]),
        ("char use D", []),  # another's character is not one's own
        ("st approve Dorian G", ["st approve Dorian Gray"]),  # a name with a space
        ("init move Dorian Gray ", []),  # a position: no range to offer
        ("stats --s", ["stats --since", "stats --system"]),
        ("st log --limit ", []),
    ],
)
async def test_tab_offers_what_the_parameter_takes(names: Names, typed: str, expected: list[str]) -> None:
    assert offered(typed, names) == expected


async def test_a_house_rule_switch_completes(names: Names) -> None:
    switch = names.house_rules[0]
    assert f"house set {switch}" in offered(f"house set {switch[:2]}", names)
