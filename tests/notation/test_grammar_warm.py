"""The notation grammar (Lark) is built when a serving gateway starts, and on the first parse
anywhere else: the console's `roll 1` never imports Lark (tests/core/test_cli_start.py)."""

from __future__ import annotations

from gateway.features.notation import command, parse


def test_a_serving_gateway_builds_the_grammar_as_it_starts() -> None:
    parse._parser.cache_clear()
    command.gateway_startup(app=None)  # the console, a CLI command's gateway: not yet
    assert parse._parser.cache_info().currsize == 0
    command.gateway_startup(app=object())  # `gateway serve` hands its aiohttp application
    assert parse._parser.cache_info().currsize == 1


def test_the_first_parse_builds_it_elsewhere() -> None:
    parse._parser.cache_clear()
    assert parse.parse("2d6+3").text == "2d6+3"
    assert parse._parser.cache_info().currsize == 1
