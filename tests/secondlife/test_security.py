"""Every way an unauthenticated or replayed request can arrive is refused, and nothing is written."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest

from tests.secondlife.conftest import World, table_counts
from tests.secondlife.harness import Hud, new_key, reference_hmac

BODY = json.dumps({"text": "roll 3"}).encode()


async def refused(world: World, hud: Hud, headers: dict[str, str], body: bytes = BODY) -> tuple[int, str]:
    before = await table_counts(world)
    response = await hud.post("/sl/v1/command", body, headers)
    assert await table_counts(world) == before, "a refused request wrote to the vault"
    assert world.dice.remaining == 3, "a refused request rolled dice"
    return response.status, response.text


@pytest.fixture
def hud(world: World) -> Hud:
    world.dice.extend([9, 5, 10])
    return world.hud("Mira Vance")


async def test_no_signature(world: World, hud: Hud) -> None:
    headers = hud.sim_headers("application/json")
    assert await refused(world, hud, headers) == (401, "missing signature")


async def test_timestamp_without_signature(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    del headers["X-Gateway-Signature"]
    assert await refused(world, hud, headers) == (401, "missing signature")


async def test_wrong_signature(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-Gateway-Signature"] = reference_hmac("another secret entirely!", "1", "a", "b", BODY)
    assert await refused(world, hud, headers) == (401, "bad signature")


async def test_signature_of_another_body(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    other = json.dumps({"text": "roll 9"}).encode()
    assert await refused(world, hud, headers, other) == (401, "bad signature")


# Whole seconds and the time the request takes eat into a future skew (int(time.time()) + 121 can be
# 120 s ahead by the time the gateway reads it): stay well clear of the 120 s window's edge.
@pytest.mark.parametrize("skew", [-121, 130, -100000])
async def test_stale_timestamp(world: World, hud: Hud, skew: int) -> None:
    headers = hud.signed_headers(BODY, "application/json", timestamp=int(time.time()) + skew)
    assert await refused(world, hud, headers) == (401, "stale timestamp")


async def test_timestamp_inside_the_window_is_accepted(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json", timestamp=int(time.time()) - 100)
    response = await hud.post("/sl/v1/command", BODY, headers)
    assert response.status == 200
    assert response.json["replies"][0]["text"].startswith("Mira Vance rolls 3 dice: 9 5 10 → 3 (Solid)")


async def test_malformed_timestamp(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-Gateway-Timestamp"] = "17e8"
    assert await refused(world, hud, headers) == (401, "bad timestamp")


async def test_replay_is_refused(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    first = await hud.post("/sl/v1/command", BODY, headers)
    assert first.status == 200
    world.dice.extend([1, 1, 1])
    before = await table_counts(world)
    again = await hud.post("/sl/v1/command", BODY, headers)
    assert (again.status, again.text) == (401, "replayed signature")
    assert await table_counts(world) == before
    assert world.dice.remaining == 3


async def test_forged_owner_key_with_a_valid_signature_for_another_owner(world: World, hud: Hud) -> None:
    # A request signed for Mira's owner key, with the owner header swapped for a victim's key.
    victim = new_key()
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-SecondLife-Owner-Key"] = victim
    assert await refused(world, hud, headers) == (401, "bad signature")
    # And the other way round: signed for the victim, sent with Mira's headers.
    headers = hud.signed_headers(BODY, "application/json", owner_key=victim)
    assert await refused(world, hud, headers) == (401, "bad signature")


async def test_forged_object_key(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-SecondLife-Object-Key"] = new_key()
    assert await refused(world, hud, headers) == (401, "bad signature")


@pytest.mark.parametrize("bad", ["", "not-a-key", "00000000-0000-0000-0000-000000000000"])
async def test_missing_or_malformed_owner_key(world: World, hud: Hud, bad: str) -> None:
    headers = hud.signed_headers(BODY, "application/json", owner_key=bad)
    headers["X-SecondLife-Owner-Key"] = bad
    assert await refused(world, hud, headers) == (401, "missing or malformed object or owner key")


@pytest.mark.parametrize("shard", ["Testing", "OpenSim", ""])
async def test_wrong_shard(world: World, hud: Hud, shard: str) -> None:
    hud.shard = shard
    headers = hud.signed_headers(BODY, "application/json")
    assert await refused(world, hud, headers) == (401, "wrong shard")


async def test_missing_shard_header(world: World, hud: Hud) -> None:
    headers = hud.signed_headers(BODY, "application/json")
    del headers["X-SecondLife-Shard"]
    assert await refused(world, hud, headers) == (401, "wrong shard")


async def test_a_beta_grid_request_relabelled_production_fails_the_signature(world: World, hud: Hud) -> None:
    """The simulator sets X-SecondLife-Shard and the script cannot sign a header, but it signs
    llGetEnv("grid"), which the gateway derives from the shard header: changing it breaks the MAC.
    (A HUD copied to the beta grid carries the real secret.)"""
    hud.shard = "Testing"
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-SecondLife-Shard"] = "Production"
    assert await refused(world, hud, headers) == (401, "bad signature")


async def test_a_changed_region_header_fails_the_signature(world: World, hud: Hud) -> None:
    """The region names the command's channel and a registration's region: it is signed too
    (llGetRegionName(); the header's grid coordinates are not part of it)."""
    headers = hud.signed_headers(BODY, "application/json")
    headers["X-SecondLife-Region"] = "Elsewhere (512000, 256000)"
    assert await refused(world, hud, headers) == (401, "bad signature")
    headers["X-SecondLife-Region"] = hud.region.replace("256000, 256000", "1, 2")
    response = await hud.post("/sl/v1/command", BODY, headers)
    assert response.status == 200, response.text  # only the coordinates differ: the same region


async def test_oversized_body(world: World, hud: Hud) -> None:
    body = json.dumps({"text": "roll 3", "pad": "x" * 9000}).encode()
    headers = hud.signed_headers(body, "application/json")
    assert await refused(world, hud, headers, body) == (413, "body too large")


async def test_oversized_chunked_body(world: World, hud: Hud) -> None:
    body = json.dumps({"text": "roll 3", "pad": "x" * 70000}).encode()
    headers = hud.signed_headers(body, "application/json")

    async def chunks():  # no Content-Length: the limit must hold while reading
        for i in range(0, len(body), 4096):
            yield body[i : i + 4096]

    before = await table_counts(world)
    url = world.url + "/sl/v1/command"
    async with aiohttp.ClientSession() as s, s.post(url, data=chunks(), headers=headers) as r:
        assert r.status == 413
    assert await table_counts(world) == before


async def test_register_is_signed_too(world: World, hud: Hud) -> None:
    body = json.dumps({"url": "http://127.0.0.1:9/cap/x", "role": "player-hud"}).encode()
    headers = hud.signed_headers(body, "application/json")
    headers["X-Gateway-Signature"] = reference_hmac("wrong secret wrong secret", "0", "a", "b", body)
    before = await table_counts(world)
    response = await hud.post("/sl/v1/register", body, headers)
    assert (response.status, response.text) == (401, "bad signature")
    assert await table_counts(world) == before


async def test_st_hud_registration_needs_the_storyteller_role(world: World, hud: Hud) -> None:
    response = await hud.register("http://127.0.0.1:9/cap/x", "st-hud")
    assert (response.status, response.text) == (403, "an st-hud needs the Storyteller role")
    counts = await table_counts(world)
    assert counts["KeyValue"] == 0  # no registration


async def test_header_names_are_matched_case_insensitively(world: World, hud: Hud) -> None:
    headers = {k.lower(): v for k, v in hud.signed_headers(BODY, "application/json").items()}
    headers = {(k.upper() if "secondlife" in k else k): v for k, v in headers.items()}
    response = await hud.post("/sl/v1/command", BODY, headers)
    assert response.status == 200, response.text
    assert response.json["replies"][0]["text"].startswith("Mira Vance rolls 3 dice")
