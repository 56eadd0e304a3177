"""Pieces of the adapter on their own: signatures, splitting, fitting, settings, replay memory."""

from __future__ import annotations

import base64
import gc
import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from adapters.secondlife.auth import ReplayCache, grid_of, region_name, sign, sign_request
from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.render import cut_bytes, dumps, fit_response, split_text
from tests.secondlife.conftest import World
from tests.secondlife.harness import reference_hmac, reference_request_hmac


def test_the_wiki_example_of_llhmac() -> None:
    # wiki.secondlife.com/wiki/LlHMAC: llHMAC("secret key", "Hello, Avatar!", "sha1")
    digest = hmac.new(b"secret key", b"Hello, Avatar!", hashlib.sha1).digest()
    assert base64.b64encode(digest).decode() == "ffCDntkagRO5mIEtd2tYzM2Bg8I="


def test_sign_matches_the_reference_and_binds_every_part() -> None:
    secret, ts, obj, owner = "s" * 20, "1764547200", "a" * 8, "b" * 8
    body = json.dumps({"text": "roll 3 — Míra"}, ensure_ascii=False).encode()
    signature = sign(secret.encode(), ts, obj, owner, body)
    assert signature == reference_hmac(secret, ts, obj, owner, body)
    assert len(base64.b64decode(signature)) == 32
    variants = [
        sign(secret.encode(), "1764547201", obj, owner, body),
        sign(secret.encode(), ts, "c" * 8, owner, body),
        sign(secret.encode(), ts, obj, "c" * 8, body),
        sign(secret.encode(), ts, obj, owner, body + b" "),
        sign(b"t" * 20, ts, obj, owner, body),
        # The separators matter: moving a character across a newline changes the MAC.
        sign(secret.encode(), ts + "a", obj[1:], owner, body),
    ]
    assert signature not in variants and len(set(variants)) == len(variants)


def test_request_signature_binds_the_grid_and_the_region() -> None:
    secret, ts, obj, owner = "s" * 20, "1764547200", "a" * 8, "b" * 8
    body = b'{"text": "roll 3"}'
    signature = sign_request(secret.encode(), ts, obj, owner, "agni", "Nightcap Sim", body)
    assert signature == reference_request_hmac(secret, ts, obj, owner, "agni", "Nightcap Sim", body)
    assert signature != sign(secret.encode(), ts, obj, owner, body)  # not the push message
    variants = [
        sign_request(secret.encode(), ts, obj, owner, "aditi", "Nightcap Sim", body),
        sign_request(secret.encode(), ts, obj, owner, "agni", "Elsewhere", body),
        sign_request(secret.encode(), ts, obj, owner, "agni", "Nightcap Sim\nx", body[1:]),
    ]
    assert signature not in variants and len(set(variants)) == len(variants)
    assert (grid_of("Production"), grid_of("Testing"), grid_of("OpenSim")) == ("agni", "aditi", "opensim")


def test_region_header() -> None:
    assert region_name("Nightcap Sim (256000, 256000)") == "Nightcap Sim"
    assert region_name("Plain") == "Plain"
    assert region_name("") == "unknown"


def test_replay_cache_forgets_after_expiry() -> None:
    cache = ReplayCache()
    cache.add("a", 100.0)
    cache.add("b", 200.0)
    cache.prune(150.0)
    assert "a" not in cache and "b" in cache and len(cache) == 1


@given(st.text(max_size=3000), st.integers(min_value=8, max_value=1100))
def test_split_text_keeps_every_word_within_the_limit(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(len(p.encode()) <= limit for p in pieces)
    # Only white space at a split point may go; every other character stays, in order.
    assert "".join("".join(pieces).split()) == "".join(text.split())


def test_split_text_prefers_line_breaks_then_spaces() -> None:
    assert split_text("aaaaaa\nbbb cccc", 10) == ["aaaaaa", "bbb cccc"]
    assert split_text("aaaa\nbbbb cccc", 10) == ["aaaa\nbbbb", "cccc"]  # break too early: the space
    assert split_text("aaaa bbbb cccc", 10) == ["aaaa bbbb", "cccc"]
    assert split_text("a" * 25, 10) == ["a" * 10, "a" * 10, "a" * 5]
    assert split_text("", 10) == [""]


def test_cut_bytes_never_splits_a_character() -> None:
    assert cut_bytes("🎲🎲🎲", 9) == "🎲🎲"
    assert cut_bytes("Míra", 2) == "M"


def test_fit_response_drops_state_before_replies_and_pushes_the_rest() -> None:
    items = [{"text": "x" * 1000, "private": True}, {"text": "y" * 1000, "private": True}]
    body, rest = fit_response(items, {"state": {"mode": "none"}}, 2048)
    assert body["dropped"] == ["state"] and "state" not in body
    assert body["replies"] == items[:1] and body["more"] == 1 and rest == items[1:]
    assert len(dumps(body)) <= 2048
    body, rest = fit_response(items[:1], {"state": {"mode": "none"}}, 2048)
    assert body == {"replies": items[:1], "state": {"mode": "none"}} and rest == []


def test_settings_need_a_usable_secret() -> None:
    with pytest.raises(ValidationError, match="shared_secret"):
        SecondLifeConfig.model_validate({})
    with pytest.raises(ValidationError, match="at least 16"):
        SecondLifeConfig.model_validate({"shared_secret": "short"})
    with pytest.raises(ValidationError, match="NUL"):
        SecondLifeConfig.model_validate({"shared_secret": "x" * 16 + "\x00"})
    with pytest.raises(ValidationError, match="extra"):
        SecondLifeConfig.model_validate({"shared_secret": "x" * 16, "shard": "Testing"})
    config = SecondLifeConfig.model_validate({"shared_secret": "x" * 16})
    assert config.shards == ["Production"] and config.timestamp_window == 120
    assert "x" * 16 not in repr(config)  # the secret never shows in logs or tracebacks


def test_the_adapter_is_off_without_its_table() -> None:
    from adapters.secondlife import build

    assert build(None, {}) is None  # type: ignore[arg-type]
    assert build(None, {"enabled": False, "shared_secret": "x" * 16}) is None  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        build(None, {"shards": ["Production"]})  # type: ignore[arg-type]


async def test_a_started_gateway_leaves_its_startup_heap_to_no_full_collection(world: World) -> None:
    assert gc.get_freeze_count() > 0
