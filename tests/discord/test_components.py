"""Issue 14, Discord: buttons where the next step is obvious (roll again, the odds, answer a
challenge), over the same signed interactions endpoint; a click runs the line as the one who clicked."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey
from sqlmodel import col, select

from adapters.discord import components
from gateway.vault.models import RollLog
from tests.discord.conftest import USER, DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord, response_problems

pytestmark = pytest.mark.both_modes

EPHEMERAL = 64
BOB, STORYTELLER, STRANGER = "510000000000000051", "600000000000000006", "520000000000000052"


def buttons(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rows = answer["data"].get("components") or []
    return {b["label"]: b for row in rows for b in row["components"]}


def click_payload(env: DiscordEnv, custom_id: str, *, user: str = USER, username: str = "mira") -> bytes:
    payload = env.interaction("", user=user, username=username)
    payload["type"] = 3
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    payload["message"] = {"id": "9" * 18, "channel_id": payload["channel_id"], "content": ""}
    return json.dumps(payload).encode()


async def click(env: DiscordEnv, custom_id: str, **kw: Any) -> dict[str, Any]:
    body = click_payload(env, custom_id, **kw)
    response = await env.post(body, env.sign(body))
    if response.status == 202:  # an answer with an odds picture went to the callback endpoint
        answer = env.fake.callbacks[json.loads(body)["id"]].body
    else:
        assert response.status == 200, await response.text()
        answer = await response.json()
    assert response_problems(answer, interaction_type=3) == []
    return answer


async def final_answer(env: DiscordEnv, answer: dict[str, Any]) -> dict[str, Any]:
    """The message an interaction was answered with: on the response itself or, when the command
    took longer than ``reply_timeout`` (the odds start the offload pool on first use), the
    deferral's first follow-up, with the deferral's flags."""
    if answer["type"] != 5:
        return answer
    seen = len([r for r in env.fake.received if r.follow_up])
    await env.until(lambda: len([r for r in env.fake.received if r.follow_up]) > seen)
    body = dict(next(r for r in env.fake.received[::-1] if r.follow_up).body)
    return {"type": 4, "data": body}


async def gw(env: DiscordEnv, line: str, **kw: Any) -> dict[str, Any]:
    answer = await env.command("gw", [{"name": "text", "type": 3, "value": line}], **kw)
    assert response_problems(answer) == []
    return answer


async def rolls(env: DiscordEnv) -> list[RollLog]:
    async with env.gateway.services.vault.transaction() as session:
        return list((await session.exec(select(RollLog).order_by(col(RollLog.id)))).all())


async def test_a_roll_offers_roll_again_and_odds(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    answer = await gw(env, "roll 3")
    offered = buttons(answer)
    assert set(offered) == {"Roll again", "Odds"}
    assert offered["Roll again"]["custom_id"] == "gw:1:roll 3"
    assert offered["Odds"]["custom_id"] == "gw:p:odds 3"


async def test_roll_again_runs_the_same_line_as_the_clicker(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    first = await gw(env, "roll 3")
    env.dice.extend([2, 2, 7])
    again = await click(env, buttons(first)["Roll again"]["custom_id"], user=STRANGER, username="kai")
    assert again["type"] == 4
    assert again["data"]["content"].startswith("Kai rolls 3 dice: 2 2 7 → 1 (Marginal)")
    assert again["data"]["embeds"][0]["fields"][0]["value"] == "`2 2 7`"
    assert "Roll again" in buttons(again)  # the new roll offers the same next steps
    logged = await rolls(env)
    assert [r.identity_key for r in logged] == [f"discord:{USER}", f"discord:{STRANGER}"]


async def test_the_odds_button_answers_the_clicker_only(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    first = await gw(env, "roll 3")
    odds = await final_answer(env, await click(env, buttons(first)["Odds"]["custom_id"]))
    assert odds["data"]["flags"] == EPHEMERAL
    assert "%" in odds["data"]["content"]
    assert len(await rolls(env)) == 1  # the odds throw no dice


@pytest.mark.endpoint_only
async def test_a_click_is_signed_like_every_interaction(env: DiscordEnv) -> None:
    body = click_payload(env, "gw:1:roll 3")
    other = SigningKey.generate()
    timestamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": other.sign(timestamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": timestamp,
    }
    assert (await env.post(body, headers)).status == 401
    tampered = body.replace(b"roll 3", b"roll 9")
    assert (await env.post(tampered, env.sign(body))).status == 401
    assert await rolls(env) == []


async def test_a_long_line_is_kept_in_the_vault_and_still_runs(env: DiscordEnv) -> None:
    line = "roll 2 " + " ".join(["+1", "-1"] * 30)
    env.dice.extend([7, 7])
    first = await gw(env, line)
    custom_id = buttons(first)["Roll again"]["custom_id"]
    assert custom_id.startswith("gw:k:") and len(custom_id) <= components.CUSTOM_ID
    env.dice.extend([10, 10])
    again = await click(env, custom_id)
    assert again["data"]["content"].startswith("Mira rolls 2")
    assert len(await rolls(env)) == 2


async def test_unknown_and_foreign_buttons_get_a_short_private_line(env: DiscordEnv) -> None:
    for custom_id in ("gw:k:" + "0" * 24, "someone-else:42", "gw:1:"):
        answer = await click(env, custom_id)
        assert answer["data"]["flags"] == EPHEMERAL
        assert answer["data"]["content"].startswith("This button is no longer known here")
    assert await rolls(env) == []


def test_custom_ids_round_trip_and_stay_within_100() -> None:
    for action in (
        components.Action("Odds", "odds 3 vs Bob mental", private=True),
        components.Action("Roll again", "roll " + "x" * 200),
    ):
        custom_id, key = components.encode(action)
        assert 1 <= len(custom_id) <= components.CUSTOM_ID
        click_ = components.decode(custom_id)
        assert click_ is not None
        if key is None:
            assert (click_.line, click_.private) == (action.line, action.private)
        else:
            assert click_.key == key


# --------------------------------------------------------------------------- challenges


@pytest.fixture
async def chars_env(
    tmp_path: Path, fake: FakeDiscord, key: SigningKey, mode: str
) -> AsyncIterator[DiscordEnv]:
    hooks = {"stlog": fake.add_webhook("200")}
    sections = {"vault": {"owner": f"discord:{STORYTELLER}"}}
    env = await start_env(
        f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, hooks, sections, mode=mode
    )
    yield env
    await env.client.close()


async def build(env: DiscordEnv, name: str, user: str, username: str) -> None:
    for line in (
        f"char new {name}",
        "trait physical 3",
        "trait mental 3",
        "trait social 2",
        "trait spirit 2",
        "char set origin Mage",
        "char submit",
    ):
        answer = await gw(env, line, user=user, username=username)
        assert answer["data"].get("flags") != EPHEMERAL or "error" not in answer, answer
    # Only an approved sheet plays (challenges included); the budget is left unspent, so by force.
    approved = await gw(env, f"st approve {name} force", user=STORYTELLER, username="ana")
    assert name in approved["data"]["content"] and "flags" not in approved["data"], approved


async def test_a_challenge_offers_defend_and_concede_to_the_challenged_only(chars_env: DiscordEnv) -> None:
    env = chars_env
    await build(env, "Mira", USER, "mira")
    await build(env, "Bob", BOB, "bob")
    challenge = await gw(env, "challenge Bob social")
    offered = buttons(challenge)
    assert list(offered) == [
        "Defend: Physical",
        "Defend: Mental",
        "Defend: Social",
        "Defend: Spirit",
        "Concede",
    ]
    assert offered["Defend: Mental"]["custom_id"] == "gw:1:defend mental"
    # No privilege through a button: the challenger clicking Defend is refused, nothing is rolled.
    refused = await click(env, offered["Defend: Mental"]["custom_id"])
    assert refused["data"]["flags"] == EPHEMERAL
    assert await rolls(env) == []
    env.dice.extend([8, 8, 3, 7, 7, 2])
    answered = await click(env, offered["Defend: Mental"]["custom_id"], user=BOB, username="bob")
    assert "flags" not in answered["data"], answered
    [embed] = answered["data"]["embeds"]
    assert [f["name"].split(" · ")[0] for f in embed["fields"][:2]] == ["Mira", "Bob"]
    assert len(await rolls(env)) == 1


async def test_concede_by_button(chars_env: DiscordEnv) -> None:
    env = chars_env
    await build(env, "Mira", USER, "mira")
    await build(env, "Bob", BOB, "bob")
    challenge = await gw(env, "challenge Bob social")
    conceded = await click(env, buttons(challenge)["Concede"]["custom_id"], user=BOB, username="bob")
    assert "concede" in conceded["data"]["content"].lower(), conceded
    assert "flags" not in conceded["data"]
