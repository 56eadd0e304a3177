"""Sign-in rate limiting behind a reverse proxy (``[web] trusted_proxies``), over real HTTP on both
vaults: a forged X-Forwarded-For from an untrusted peer is ignored; through a trusted proxy each
client has its own bucket."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from pydantic import ValidationError

from adapters.web.client_address import client_address, networks
from adapters.web.config import WebSettings
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT

SiteMaker = Callable[..., Awaitable[Site]]
ATTEMPTS = 20  # signin.ATTEMPTS_BURST


async def _statuses(served: Site, forwarded: str, n: int) -> list[int]:
    headers = {"X-Forwarded-For": forwarded}
    return [
        (await served.client.post(f"/login/guess{i}", headers=headers, allow_redirects=False)).status
        for i in range(n)
    ]


async def test_a_forged_header_from_an_untrusted_peer_is_ignored(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, web={"trusted_proxies": ["10.0.0.0/8"]})  # not loopback
    spoofed = [f"203.0.113.{i}" for i in range(ATTEMPTS + 1)]
    statuses = [(await _statuses(served, address, 1))[0] for address in spoofed]
    assert statuses[:ATTEMPTS] == [410] * ATTEMPTS and statuses[ATTEMPTS] == 429  # one bucket: the peer's


async def test_through_a_trusted_proxy_two_clients_have_separate_buckets(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, web={"trusted_proxies": ["127.0.0.1"]})
    first = await _statuses(served, "198.51.100.7", ATTEMPTS + 1)
    assert first[:ATTEMPTS] == [410] * ATTEMPTS and first[ATTEMPTS] == 429
    # Another client behind the same proxy is not limited, even when it forges a left-hand hop.
    assert await _statuses(served, "198.51.100.7, 198.51.100.8", 1) == [410]
    assert (await _statuses(served, "198.51.100.7", 1)) == [429]


def test_the_right_most_untrusted_hop_is_the_client() -> None:
    trusted = networks(["127.0.0.1", "10.0.0.0/8", "::1"])
    assert client_address("127.0.0.1", ["1.2.3.4, 10.1.1.1"], trusted) == "1.2.3.4"
    assert client_address("127.0.0.1", ["6.6.6.6, 1.2.3.4"], trusted) == "1.2.3.4"
    assert client_address("127.0.0.1", ["6.6.6.6", "1.2.3.4"], trusted) == "1.2.3.4"  # two headers
    assert client_address("::1", ["10.0.0.2, 10.0.0.3"], trusted) == "10.0.0.2"  # all ours
    assert client_address("127.0.0.1", [], trusted) == "127.0.0.1"
    assert client_address("5.5.5.5", ["1.2.3.4"], trusted) == "5.5.5.5"
    assert client_address("127.0.0.1", ["1.2.3.4"], ()) == "127.0.0.1"  # the default: nobody trusted


def test_a_wrong_proxy_address_is_a_settings_error() -> None:
    with pytest.raises(ValidationError, match="not-an-address"):
        WebSettings(trusted_proxies=["not-an-address"])
