"""The Matrix adapter's pure parts: rendering, size limits, settings, Retry-After. No homeserver."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from adapters.matrix import build
from adapters.matrix.account import MatrixAccount
from adapters.matrix.http import retry_after_seconds
from adapters.matrix.render import (
    MAX_CONTENT_BYTES,
    content_size,
    render_content,
    strip_reply_fallback,
    to_html,
)
from adapters.matrix.settings import MatrixSettings
from gateway.testing import Chat


def roll(dice: list[int], total: int, degree: str, **extra: object) -> dict[str, object]:
    return {"kind": "roll", "system": "nightcap", "dice": dice, "total": total, "degree": degree, **extra}


def test_roll_line_puts_faces_total_and_degree_in_bold() -> None:
    text = "Mira rolls 3 dice: 9 5 10 → 3 (Solid) #k3f9m"
    assert to_html(text, roll([9, 5, 10], 3, "solid")) == (
        "Mira rolls 3 dice: <b>9 5 10</b> → <b>3</b> (<b>Solid</b>) #k3f9m"
    )


def test_single_die_equal_to_the_pool_is_found_after_the_colon() -> None:
    text = "Mira rolls 1 die: 1 → -1 (Botch) #aaaaa"
    assert (
        to_html(text, roll([1], -1, "botch"))
        == "Mira rolls 1 die: <b>1</b> → <b>-1</b> (<b>Botch</b>) #aaaaa"
    )


def test_willpower_bonus_is_not_taken_for_the_total() -> None:
    text = "Mira rolls Physical 3: 1 2 3 +1 WP → 1 (Marginal) #bbbbb"
    assert to_html(text, roll([1, 2, 3], 1, "marginal", willpower=True)) == (
        "Mira rolls Physical 3: <b>1 2 3</b> +1 WP → <b>1</b> (<b>Marginal</b>) #bbbbb"
    )


def test_contest_marks_both_sides_and_the_outcome() -> None:
    text = (
        "Dorian rolls 4 dice: 7 8 3 1 → 2 (Solid) vs NPC 4 dice: 8 6 4 2 → 2 (Solid): Deadlock, margin 0"
        " #ccccc"
    )
    result = {
        "kind": "contest",
        "sides": [roll([7, 8, 3, 1], 2, "solid"), roll([8, 6, 4, 2], 2, "solid")],
        "margin": 0,
        "winner": None,
        "outcome": "deadlock",
    }
    assert to_html(text, result) == (
        "Dorian rolls 4 dice: <b>7 8 3 1</b> → <b>2</b> (<b>Solid</b>) vs NPC 4 dice: <b>8 6 4 2</b> →"
        " <b>2</b> (<b>Solid</b>): <b>Deadlock</b>, margin 0 #ccccc"
    )


def test_text_is_escaped_and_unknown_parts_stay_plain() -> None:
    assert to_html("<b>x</b> & 1\n2", None) == "&lt;b&gt;x&lt;/b&gt; &amp; 1<br>2"
    assert to_html("no dice shown here", roll([4, 4], 0, "failure")) == "no dice shown here"


async def test_sheet_becomes_a_small_table(chat: Chat) -> None:
    for line in (
        "char new Mira Vey",
        "trait physical 3",
        "power add Veil basic social",
        "char set origin A&B",
    ):
        assert (await chat.one(line, as_="mira")).error is None
    sheet = await chat.one("sheet", as_="mira")
    assert to_html(sheet.text, sheet.result) == (
        "<table><caption>Mira Vey (Nightcap, creation; player Mira)</caption><tbody>"
        "<tr><th>Origin:</th><td>A&amp;B</td></tr><tr><th>Subgroup:</th><td>—</td></tr>"
        "<tr><th>Aptitude:</th><td>—</td></tr><tr><th>Advantage:</th><td>—</td></tr>"
        "<tr><th>Weakness:</th><td>—</td></tr>"
        "<tr><th>Traits:</th><td>Physical 3, Mental 1, Social 1, Spirit 1</td></tr>"
        "<tr><th>Powers:</th><td>Veil (Basic, Social)</td></tr></tbody></table>"
        "<p>Willpower max 2, Essence max 10 (pools fill on approval)</p>"
        "<p>Budget: 4 of 6 trait points left, 2 of 3 power dots left; at 4: none yet (one allowed)."
        " Before submitting: 4 trait points still to place; 2 power dots still to spend.</p>"
    )


def test_one_line_prove_stays_the_line_it_is() -> None:
    result = {
        "kind": "prove",
        "name": "Mira <Vey>",
        "traits": {"physical": 2, "mental": 3},
        "willpower": {"current": 4, "max": 5},
        "essence": {"current": 1, "max": 10},
    }
    assert to_html("Mira <Vey>: Physical 2, Mental 3 · Willpower 4/5 · Essence 1/10", result) == (
        "Mira &lt;Vey&gt;: Physical 2, Mental 3 · Willpower 4/5 · Essence 1/10"
    )


def test_content_always_has_mentions_and_a_reply_relation_when_asked() -> None:
    plain = render_content({"text": "hello"})
    assert plain == {
        "msgtype": "m.notice",
        "body": "hello",
        "format": "org.matrix.custom.html",
        "formatted_body": "hello",
        "m.mentions": {},
    }
    reply = render_content({"text": "hi"}, in_reply_to="$ev", mentions=["@a:x", "@a:x"])
    assert reply["m.mentions"] == {"user_ids": ["@a:x"]}
    assert reply["m.relates_to"] == {"m.in_reply_to": {"event_id": "$ev"}}


def test_huge_text_stays_far_below_the_event_limit() -> None:
    text = "&<" * 40_000 + "é" * 10_000
    content = render_content({"text": text}, in_reply_to="$ev", mentions=["@a:x"])
    assert content_size(content) <= MAX_CONTENT_BYTES < 65536 // 2 + 1
    assert "formatted_body" not in content and "format" not in content
    assert content["body"].endswith(" … (cut)")
    assert content["m.mentions"] == {"user_ids": ["@a:x"]}
    assert content["m.relates_to"] == {"m.in_reply_to": {"event_id": "$ev"}}
    json.dumps(content).encode()  # valid, whole characters only


def test_reply_fallback_is_stripped() -> None:
    assert strip_reply_fallback("> <@a:x> !roll 9\n> more\n\n!roll 2") == "!roll 2"
    assert strip_reply_fallback("!roll 2") == "!roll 2"


def test_retry_after_prefers_the_header_then_the_body() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("3", {"retry_after_ms": 500}) == 3.0
    assert retry_after_seconds(None, {"retry_after_ms": 1500}) == 1.5
    assert retry_after_seconds("Mon, 30 Nov 2026 12:00:07 GMT", None, now=now) == 7.0
    assert retry_after_seconds("garbage", {"retry_after_ms": 250}) == 0.25
    assert retry_after_seconds(None, {}) is None
    assert retry_after_seconds(None, {"retry_after_ms": True}) is None


def test_settings_accounts_are_sub_tables() -> None:
    settings = MatrixSettings.from_section(
        {
            "main": {"homeserver": "https://hs.example/", "user_id": "@bot:hs.example", "password": "pw"},
            "alt": {"homeserver": "http://127.0.0.1:8008", "user_id": "@b2:x", "access_token": "t"},
        }
    )
    assert list(settings.accounts) == ["main", "alt"]
    assert settings.accounts["main"].homeserver == "https://hs.example"
    assert settings.accounts["main"].prefix is None
    assert settings.enabled


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"a": {"homeserver": "https://h", "user_id": "@b:h"}}, "set password"),
        ({"a": {"homeserver": "https://h", "user_id": "bot", "password": "p"}}, "full Matrix id"),
        ({"a": {"homeserver": "h.example", "user_id": "@b:h", "password": "p"}}, r"http\(s\) URL"),
        ({"a": {"homeserver": "https://h", "user_id": "@b:h", "password": "p", "colour": 1}}, "Extra inputs"),
        ({"bad name": {"homeserver": "https://h", "user_id": "@b:h", "password": "p"}}, "account names"),
    ],
)
def test_settings_refuse_mistakes(section: dict[str, object], message: str) -> None:
    with pytest.raises((ValidationError, ValueError), match=message):
        MatrixSettings.from_section(section)


def test_secrets_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_PW", "s3cret")
    account = {"homeserver": "https://h", "user_id": "@b:h", "password_env": "BOT_PW"}
    assert MatrixSettings.from_section({"a": account}).accounts["a"].password == "s3cret"
    monkeypatch.delenv("BOT_PW")
    with pytest.raises(ValidationError, match="set password"):
        MatrixSettings.from_section({"a": account})


def test_no_accounts_means_no_adapter() -> None:
    assert build(None, {}) is None  # type: ignore[arg-type]
    assert (
        build(None, {"enabled": False, "a": {"homeserver": "https://h", "user_id": "@b:h", "password": "p"}})
        is None
    )  # type: ignore[arg-type]


async def test_real_nightcap_lines_get_every_part_in_bold(chat: Chat) -> None:
    chat.dice.extend([7, 8, 3, 1, 8, 6, 4, 2, 1])
    contest = await chat.one("roll 4 vs 4", as_="dorian")
    html = to_html(contest.text, contest.result)
    assert html.count("<b>") == 7  # faces, total, degree on each side, and the outcome
    assert re.sub(r"</?b>", "", html) == contest.text.replace("&", "&amp;")
    chance = await chat.one("roll 0", as_="dorian")
    assert to_html(chance.text, chance.result) == (
        f"Dorian rolls a chance die: <b>1</b> → <b>-1</b> (<b>Botch</b>) #{chance.result['id']}"
    )


def test_a_profile_change_is_not_a_join() -> None:
    me = SimpleNamespace(user_id="@bot:x")

    def member(prev: str | None) -> dict[str, object]:
        unsigned = {"prev_content": {"membership": prev}} if prev else {}
        return {
            "type": "m.room.member",
            "state_key": "@bot:x",
            "content": {"membership": "join"},
            "unsigned": unsigned,
        }

    text = {"type": "m.room.message", "content": {"msgtype": "m.text", "body": "!roll 1"}}
    assert MatrixAccount._own_join(me, [text, member(None), text]) == 1  # type: ignore[arg-type]
    assert MatrixAccount._own_join(me, [member("invite"), text, member("join"), text]) == 0  # type: ignore[arg-type]
    assert MatrixAccount._own_join(me, [text, member("join"), text]) is None  # type: ignore[arg-type]
