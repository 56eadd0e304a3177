"""Prometheus metrics of one gateway, at ``GET /metrics``.

Each ``Gateway`` has a registry of its own (several run in one test process). What the hot paths
count stays cheap: the router calls ``Metrics.command`` with label children bound once per (system,
command, outcome); the outbox and the leases keep plain counters (``Outbox.deliveries``,
``Leases.failovers`` / ``losses``, ``Leases.held``) that a collector reads at scrape time. The outbox
depth is one grouped query, run at most every ``DEPTH_TTL`` seconds however often it is scraped.

Access: with ``[metrics] token`` set, a request must bear it (``Authorization: Bearer ...``);
without one, only loopback peers are answered.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import structlog
from aiohttp import web
from aiohttp.typedefs import Handler
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from gateway.delivery import queue

if TYPE_CHECKING:
    from gateway.core.services import Services
    from gateway.delivery.leases import Leases
    from gateway.delivery.outbox import Outbox
    from gateway.vault.engine import Vault

log = structlog.get_logger(__name__)

# Command handling is a unit of work: a millisecond on an idle SQLite vault, up to seconds when busy.
COMMAND_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
DEPTH_TTL = 5.0  # seconds an outbox depth reading is served from cache
DEPTH_TIMEOUT = 2.0


class Metrics:
    """The registry of one gateway and what feeds it."""

    def __init__(self, services: Services) -> None:
        self.registry = CollectorRegistry()
        self._commands = Counter(
            "gateway_commands",
            "Commands handled, by rule system, command and outcome (ok, user_error, denied, internal_error).",
            ("system", "command", "outcome"),
            registry=self.registry,
        )
        self._seconds = Histogram(
            "gateway_command_duration_seconds",
            "Time from a message reaching the router to its replies, by rule system.",
            ("system",),
            buckets=COMMAND_BUCKETS,
            registry=self.registry,
        )
        self._children: dict[tuple[str, str, str], tuple[Counter, Histogram]] = {}
        self.depth = OutboxDepth(services.vault)
        self.registry.register(_Collector(services.outbox, services.leases, self.depth))

    def command(self, system: str, command: str, outcome: str, seconds: float) -> None:
        """One command done (``Router.observe``)."""
        key = (system, command, outcome)
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (self._commands.labels(*key), self._seconds.labels(system))
        children[0].inc()
        children[1].observe(seconds)

    async def render(self) -> bytes:
        """The exposition text, with an outbox depth at most ``DEPTH_TTL`` old."""
        await self.depth.refresh()
        return generate_latest(self.registry)


class OutboxDepth:
    """Pending and dead rows per platform, read by one query shared by the scrapes that come while it
    runs, then cached."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.tallies: dict[str, queue.Tally] = {}
        self.read_at: float | None = None  # time.monotonic() of the last good reading
        self._lock = asyncio.Lock()

    async def refresh(self) -> None:
        async with self._lock:
            if self.read_at is not None and time.monotonic() - self.read_at < DEPTH_TTL:
                return
            try:
                async with asyncio.timeout(DEPTH_TIMEOUT):
                    self.tallies = await queue.depth(self.vault)
                self.read_at = time.monotonic()
            except Exception as exc:  # the scrape still answers, with the last reading
                log.warning("outbox depth not read", error=repr(exc))


class _Collector(Collector):
    """What the outbox and the leases counted, read at scrape time."""

    def __init__(self, outbox: Outbox, leases: Leases, depth: OutboxDepth) -> None:
        self.outbox = outbox
        self.leases = leases
        self.depth = depth
        self._leases_seen: set[str] = set()

    def collect(self) -> Iterator[Metric]:
        deliveries = CounterMetricFamily(
            "gateway_outbox_deliveries",
            "Delivery attempts by platform and result (sent, retry, throttled, absent, dead).",
            labels=("platform", "result"),
        )
        for platform, counts in sorted(self.outbox.deliveries.items()):
            for result, count in sorted(counts.items()):
                deliveries.add_metric((platform, result), count)
        yield deliveries

        rows = GaugeMetricFamily(
            "gateway_outbox_rows",
            "Outbox rows waiting (pending) or given up on (dead), by platform; read every few seconds.",
            labels=("platform", "status"),
        )
        for platform, tally in sorted(self.depth.tallies.items()):
            rows.add_metric((platform, "pending"), tally.pending)
            rows.add_metric((platform, "dead"), tally.dead)
        yield rows
        if self.depth.read_at is not None:
            age = GaugeMetricFamily("gateway_outbox_rows_age_seconds", "How old the outbox_rows reading is.")
            age.add_metric((), time.monotonic() - self.depth.read_at)
            yield age

        held = dict(self.leases.held)
        self._leases_seen.update(held)
        holding = GaugeMetricFamily(
            "gateway_lease_held",
            "1 while this process holds the lease (an IRC network, a Matrix account), else 0.",
            labels=("lease",),
        )
        epochs = GaugeMetricFamily(
            "gateway_lease_epoch", "The epoch of each lease this process holds.", labels=("lease",)
        )
        for name in sorted(self._leases_seen):
            holding.add_metric((name,), 1 if name in held else 0)
            if name in held:
                epochs.add_metric((name,), held[name].epoch)
        yield holding
        yield epochs
        failovers = CounterMetricFamily(
            "gateway_lease_failovers",
            "Leases this process took over from another owner (or an earlier run).",
            labels=("lease",),
        )
        for name, count in sorted(self.leases.failovers.items()):
            failovers.add_metric((name,), count)
        yield failovers
        lost = CounterMetricFamily(
            "gateway_lease_lost", "Leases this process lost while holding them.", labels=("lease",)
        )
        for name, count in sorted(self.leases.losses.items()):
            lost.add_metric((name,), count)
        yield lost


def _loopback(remote: str | None) -> bool:
    try:
        address = ipaddress.ip_address(remote or "")
    except ValueError:
        return False  # not an IP peer (a Unix socket, or unknown): not known to be this machine
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def handler(metrics: Metrics, token: str | None) -> Handler:
    """``GET /metrics``: the bearer ``token`` when one is configured, else loopback peers only."""
    expected = token.encode() if token else None

    async def serve(request: web.Request) -> web.StreamResponse:
        if expected is not None:
            scheme, _, given = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), expected):
                challenge = {"WWW-Authenticate": "Bearer"}
                return web.Response(status=401, text="metrics need the [metrics] token\n", headers=challenge)
        elif not _loopback(request.remote):
            return web.Response(
                status=403, text="metrics answer loopback only: set [metrics] token to scrape from afar\n"
            )
        body = await metrics.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return serve
