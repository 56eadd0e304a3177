"""The client's address for the sign-in rate limit, behind ``[web] trusted_proxies``.

A few lines rather than aiohttp-remotes: its ``XForwardedStrict`` rewrites ``request.remote`` for
the whole app and refuses (400) a request whose chain holds an untrusted hop before the proxy,
where only the rate-limit key needs the address; and it is one more dependency for twenty lines.

Each proxy appends the peer it saw, so the header's right end is the part our own proxies wrote;
the right-most address that is not one of them is the client (anything left of it, the client
could have typed). A peer that is not a trusted proxy is the client, whatever its header says.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

Network = IPv4Network | IPv6Network


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ip_network(entry.strip(), strict=False) for entry in entries)


def _trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        parsed = ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(parsed in network for network in trusted)


def client_address(peer: str | None, forwarded_for: list[str], trusted: tuple[Network, ...]) -> str:
    """``peer`` (the TCP peer), or when it is a trusted proxy the right-most untrusted address of
    the ``X-Forwarded-For`` headers (all of them, in order)."""
    if not peer or not trusted or not _trusted(peer, trusted):
        return peer or "?"
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer  # every hop is ours: the left-most is the nearest to a client
