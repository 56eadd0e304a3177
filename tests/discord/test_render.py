"""Rendering within Discord's limits, sanitising, and slash command lines."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.discord import render, slash
from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait, SheetSummary
from tests.discord import kit
from tests.discord.fake_discord import command_problems, message_problems


def sheet_payload(
    name: str = "Mira Vance",
    fields: dict[str, str] | None = None,
    powers: list[Power] | None = None,
    owner: str = "Alice",
) -> dict[str, object]:
    """The payload the Nightcap characters plugin queues (plugins/nightcap/export_commands.py)."""
    if fields is None:
        fields = {"Origin": "Human", "Subgroup": "Virtual Adepts", "Aptitude": "Locks", "Weakness": "Debts"}
    summary = SheetSummary(
        name=name,
        system="nightcap",
        status="approved",
        fields=tuple(FreeField(label, text) for label, text in fields.items()),
        traits=tuple(
            RatedTrait(key, key.title(), rating)
            for key, rating in {"physical": 3, "mental": 2, "social": 2, "spirit": 3}.items()
        ),
        powers=tuple(powers if powers is not None else [Power("Ward", "adept", "spirit")]),
        pools=(
            PoolMeter("willpower", "Willpower", 5, 5),
            PoolMeter("essence", "Essence", 10, 10),
            PoolMeter("damage", "Damage", 0, 10),
        ),
    )
    return {
        "kind": "sheet",
        "text": f"{name} ...",
        "summary": summary.as_json(),
        "owner": owner,
        "reason": "approve",
        "character_id": 7,
    }


def test_sheet_is_one_embed_with_fields() -> None:
    body = render.outbox_message(sheet_payload(), datetime(2026, 11, 30, tzinfo=UTC))
    assert message_problems(body) == []
    assert body["allowed_mentions"] == {"parse": []}
    [embed] = body["embeds"]
    assert embed["title"] == "Mira Vance"
    assert embed["description"] == "Approved · played by Alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields == {
        "Origin": "Human",
        "Subgroup": "Virtual Adepts",
        "Aptitude": "Locks",
        "Weakness": "Debts",
        "Traits": "Physical **3** · Mental **2** · Social **2** · Spirit **3**",
        "Willpower": "5/5",
        "Essence": "10/10",
        "Damage": "0/10",
        "Powers": "• **Ward** — Adept, Spirit",
    }
    assert embed["footer"] == {"text": "approved · character 7"}
    assert embed["timestamp"] == "2026-11-30T00:00:00+00:00"


def test_an_enormous_sheet_still_fits_every_limit() -> None:
    fields = {f"Field {i} " + "n" * 300: "v" * 3000 for i in range(40)}
    powers = [Power("P" * 200, "legendary", "spirit") for _ in range(80)]
    payload = sheet_payload(name="N" * 500, fields=fields, powers=powers, owner="o" * 5000)
    body = render.outbox_message(payload)
    assert message_problems(body) == []
    [embed] = body["embeds"]
    assert len(embed["fields"]) <= 25
    assert render.embed_length(embed) <= 6000
    assert embed["title"].endswith("…")


def test_roll_embed_is_compact_and_complete() -> None:
    payload = {
        "kind": "stlog",
        "text": "Mira rolls ...",
        "who": "Mira",
        "where": "secondlife:region/abc",
        "result": {
            "kind": "roll",
            "pool": 4,
            "dice": [9, 1, 10, 3],
            "total": 3,
            "degree": "solid",
            "willpower": True,
            "id": "k3f9m",
            "trait": "physical",
        },
    }
    [embed] = render.outbox_message(payload, colours=render.Colours({"nightcap": {"solid": render.GREEN}}))[
        "embeds"
    ]
    assert embed == {
        "author": {"name": "Mira"},
        "title": "Solid · total 3",
        "description": "Physical · 4 dice: `9 1 10 3` +1 WP → **3** (Solid)",
        "color": render.GREEN,
        "footer": {"text": "region/abc · Second Life · #k3f9m"},
    }


def test_contest_and_plain_stlog_lines() -> None:
    contest = {
        "kind": "stlog",
        "who": "Dorian",
        "where": "irc:libera/#night",
        "result": {
            "kind": "contest",
            "margin": 0,
            "outcome": "deadlock",
            "id": "aaaaa",
            "sides": [
                {"pool": 4, "dice": [7, 8, 3, 1], "total": 1, "degree": "marginal"},
                {"pool": 4, "dice": [8, 6, 4, 2], "total": 1, "degree": "marginal"},
            ],
        },
    }
    [embed] = render.outbox_message(contest)["embeds"]
    assert embed["title"] == "Deadlock · margin 0"
    assert embed["description"].splitlines() == [
        "Dorian: 4 dice: `7 8 3 1` → **1** (Marginal)",
        "Opposition: 4 dice: `8 6 4 2` → **1** (Marginal)",
    ]
    assert embed["footer"]["text"] == "libera/#night · IRC · #aaaaa"
    plain = {
        "kind": "stlog",
        "stlog_kind": "st_edit",
        "text": "@everyone set *Mira* trait",
        "where": "console:main",
    }
    [embed] = render.outbox_message(plain)["embeds"]
    assert embed["title"] == "St Edit"
    assert embed["description"] == "@\u200beveryone set \\*Mira\\* trait"


def test_long_text_moves_into_embeds_and_fits() -> None:
    body = render.text_message("x" * 9000)
    assert message_problems(body) == []
    assert "content" not in body
    assert sum(len(e["description"]) for e in body["embeds"]) <= 6000
    assert render.text_message("hi", private=True) == {
        "content": "hi",
        "flags": 64,
        "allowed_mentions": {"parse": []},
    }


def test_sanitising() -> None:
    assert render.escape("a\x00b\u202ec\td") == "abc d"
    assert render.escape("# title\n- item\n> quote") == "\\# title\n\\- item\n\\> quote"
    assert render.escape("<@123> @here [x](http://e)") == "\\<@123\\> @\u200bhere \\[x\\](http://e)"
    assert render.cut("abc\\*", 5) == "abc\\*"
    assert render.cut("abcd\\*xyz", 6) == "abcd…"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=7000), st.text(max_size=400), st.lists(st.text(max_size=1500), max_size=30))
def test_any_text_renders_within_limits(text: str, name: str, values: list[str]) -> None:
    payload = sheet_payload(name=name, fields={f"f{i}{v[:5]}": v for i, v in enumerate(values)})
    for body in (
        render.outbox_message(payload),
        render.text_message(text),
        render.outbox_message({"text": text}),
    ):
        assert message_problems(body) == [] or (not text.strip() and "content" in body)
        assert body["allowed_mentions"] == {"parse": []}
        assert "@everyone" not in str(body) and "@here" not in str(body)


# --------------------------------------------------------------------------- slash commands


def test_command_definitions_are_valid() -> None:
    """The generated commands (here from the kit's declarations, tests/discord/kit.py) are what
    Discord takes; the generator's own tests are in test_slash_typed.py."""
    slashes = slash.build(kit.commands())
    assert command_problems(slashes.definitions()) == []
    team = line(
        slashes, "team", [{"type": 1, "name": "roll", "options": [{"name": "wp", "type": 5, "value": True}]}]
    )
    assert team is not None and team.line == "team roll wp"
    options = [{"name": "name", "value": "Mira"}, {"name": "position", "value": 1}]
    move = line(slashes, "init", [{"type": 1, "name": "move", "options": options}])
    assert move is not None and move.line == "init move Mira 1"


def line(slashes: slash.Slashes, name: str, options: list[dict[str, object]]) -> slash.Parsed | None:
    return slash.command_line({"name": name, "options": options}, slashes)


def test_command_lines() -> None:
    slashes = slash.build(kit.commands())
    assert line(slashes, "roll", [{"name": "pool", "type": 3, "value": "physical +1 wp  vs mental"}]) == (
        slash.Parsed(
            line="roll physical +1 wp vs mental", private=False, options={"pool": "physical +1 wp  vs mental"}
        )
    )
    assert line(slashes, "nope", []) is None
    assert line(slashes, "st", [{"type": 1, "name": "nope"}]) is None
