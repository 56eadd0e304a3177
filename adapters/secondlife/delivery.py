"""Pushes to in-world objects: outbox rows addressed to a route (see ``registry``) are POSTed,
signed, to the object's current URL; fan-out addresses (``st-huds``, ``relays``, ``huds``,
``everyone``, ``region/<name>``) are expanded into one row per route in one transaction, so a dead
HUD holds up only its own rows."""

from __future__ import annotations

import asyncio
import contextlib
import random
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

import aiohttp
import structlog

from adapters.secondlife import registry
from adapters.secondlife.auth import H_SIGNATURE, H_TIMESTAMP, UUID_RE, sign
from adapters.secondlife.common import IDENTITY_PLATFORM, Part, aware
from adapters.secondlife.config import SecondLifeConfig
from adapters.secondlife.registry import PLATFORM, ROLES, Registration
from adapters.secondlife.render import dumps, split_text
from adapters.secondlife.state import hud_state
from gateway import AdapterServices, DeliveryFailed, Outbound, RetryLater, Settled, TargetAbsent, Throttled
from gateway.delivery import queue
from gateway.delivery.pacing import Backoff
from gateway.features.roles import is_storyteller

log = structlog.get_logger(__name__)

FANOUT = ("st-huds", "relays", "relay", "huds", "all-huds", "everyone")


def _retry_after(value: str | None, now: datetime) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    with contextlib.suppress(TypeError, ValueError):
        when = parsedate_to_datetime(value)
        return max(0.0, (when - now).total_seconds())
    return None


# A copy the ``st-huds`` fan-out queued this long ago or less was checked for the Storyteller role in
# the transaction that queued it; an older one (its HUD was away, or busy) is checked again when sent.
FAN_OUT_CHECK_SECONDS = 30.0


def _checked_by_fan_out(message: Outbound, age: float) -> bool:
    return message.payload.get("via") == "st-huds" and age <= FAN_OUT_CHECK_SECONDS


class Delivery(Part):
    """``deliver`` for the outbox worker: one row, to one object or fanned out to many."""

    def __init__(self, services: AdapterServices, config: SecondLifeConfig) -> None:
        super().__init__(services)
        self.config = config
        self._http: aiohttp.ClientSession | None = None
        self._sem = asyncio.Semaphore(config.push_concurrency)
        self._progress: dict[int, int] = {}
        self._rng = random.Random()

    async def open(self) -> None:
        self._http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.config.push_timeout),
            headers={"User-Agent": "nightcap-gateway (Second Life adapter)"},
        )

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def deliver(self, message: Outbound) -> None:
        target = message.target
        if target in FANOUT or target.startswith("region/"):
            await self._fan_out(message)
            return
        now = self._now()
        age = (now - aware(message.created_at)).total_seconds() if message.created_at else 0.0
        forget = self.config.forget_after_hours * 3600
        owner = self._owner
        state, allowed = None, True
        async with self.services.vault.transaction() as session:
            route = await self._route(session, target)
            reg = await registry.get(session, route) if route else None
            if reg is not None and not reg.dead_since:
                kind = message.payload.get("kind")
                identity_key = f"{IDENTITY_PLATFORM}:{reg.owner}"
                if reg.role == "st-hud" and kind == "stlog" and not _checked_by_fan_out(message, age):
                    allowed = await is_storyteller(session, identity_key, owner)
                if kind == "refresh":
                    state = await hud_state(session, self.services, identity_key, owner, self._system)
        if reg is None:
            if age > forget:
                raise DeliveryFailed(f"no object has registered for {target} in {age / 3600:.0f} hours")
            raise TargetAbsent(f"no object registered for {target}", self.config.dead_retry)
        if reg.dead_since:
            if (now - datetime.fromisoformat(reg.dead_since)).total_seconds() > forget:
                async with self.services.vault.transaction() as session:
                    await registry.forget(session, reg)
                raise DeliveryFailed(f"{reg.route} has been dead since {reg.dead_since}")
            raise TargetAbsent(f"{reg.route} answered 404 at {reg.dead_since}", self.config.dead_retry)
        if not allowed:
            raise DeliveryFailed(f"{reg.owner} is no longer a Storyteller")
        bodies = self._bodies(message, reg, state)
        # Parts already accepted are not sent again when a later part is retried (kept in memory:
        # after a restart a half-sent row starts over, and the scripts drop the repeats by id/part).
        try:
            for index in range(self._progress.get(message.id, 0), len(bodies)):
                await self._post(reg, bodies[index])
                self._progress[message.id] = index + 1
        except DeliveryFailed:
            self._progress.pop(message.id, None)
            raise
        self._progress.pop(message.id, None)

    async def _route(self, session: Any, target: str) -> str | None:
        kind, _, key = target.partition("/")
        if kind == "object" and UUID_RE.match(key):
            return await registry.route_of_object(session, key)
        if kind == "avatar" and UUID_RE.match(key):
            return f"player-hud/{key}"
        if kind in ROLES and UUID_RE.match(key):
            return target
        raise DeliveryFailed(f"unknown Second Life target {target!r} (see adapters/secondlife/README.md)")

    async def _members(self, unit: queue.Unit, target: str, now: datetime) -> list[Registration]:
        forget = timedelta(hours=self.config.forget_after_hours)

        def usable(reg: Registration) -> bool:
            return not reg.dead_since or now - datetime.fromisoformat(reg.dead_since) <= forget

        relays = [r for r in await registry.by_prefix(unit, "relay/") if usable(r)]
        if target in ("relays", "relay"):
            return relays
        if target == "st-huds":
            owner = self._owner
            members = []
            for reg in await registry.by_prefix(unit, "st-hud/"):
                if usable(reg) and await is_storyteller(unit, f"{IDENTITY_PLATFORM}:{reg.owner}", owner):
                    members.append(reg)
            return members
        huds = [r for r in await registry.by_prefix(unit, "player-hud/") if usable(r)]
        if target in ("huds", "all-huds"):
            return huds
        if target == "everyone":
            covered = {r.region.casefold() for r in relays if not r.dead_since}
            return relays + [h for h in huds if h.region.casefold() not in covered]
        region = target.partition("/")[2].casefold()
        here = [r for r in relays if r.region.casefold() == region]
        return here or [h for h in huds if h.region.casefold() == region]

    async def _fan_out(self, message: Outbound) -> None:
        """Expand this row, and the rows queued behind it for the same address, into one row per
        member route, in the transaction that marks them delivered (so a crash repeats nothing)."""
        now = self._now()
        async with self.services.vault.unit() as unit:
            batch = await queue.fan_out_batch(unit, PLATFORM, message.target, message.id)
            if not batch or batch[0] != message.id:
                raise Settled  # another worker expanded it already
            members = await self._members(unit, message.target, now)
            # Payloads only when someone gets copies (no Storyteller HUD online: no JSON decoded).
            payloads = await queue.take_batch(
                unit, PLATFORM, message.target, batch, now, payloads=bool(members)
            )
            for payload in payloads:
                for reg in members:
                    await queue.enqueue(
                        unit, PLATFORM, reg.route, {**payload, "via": message.target}, now=now
                    )
            if len(batch) == queue.FANOUT_BATCH:  # rows are left behind it: the worker's next round
                unit.queued.add(PLATFORM)
        log.debug("second life fan-out", target=message.target, rows=len(batch), routes=len(members))
        raise Settled

    def _bodies(self, message: Outbound, reg: Registration, state: dict[str, Any] | None) -> list[bytes]:
        """The push bodies for one row: one per chat line of text, each within the size limit."""
        payload = message.payload
        kind = str(payload.get("kind") or "notice")
        base: dict[str, Any] = {"kind": kind, "id": message.id}
        for key in ("who", "char", "private"):
            value = payload.get(key)
            if value is not None:
                base[key] = value[:64] if isinstance(value, str) else value
        if state is not None:
            base["state"] = state
        max_bytes = self.config.relay_max_bytes if reg.role == "relay" else self.config.push_max_bytes
        text = str(payload.get("text") or "")
        limit = 1023
        while True:
            pieces = split_text(text, limit) if text else [""]
            bodies = []
            for i, piece in enumerate(pieces):
                body = {**base, "text": piece}
                if len(pieces) > 1:
                    body.update(part=i + 1, parts=len(pieces))
                bodies.append(dumps(body))
            over = max(len(b) for b in bodies) - max_bytes
            if over <= 0:
                return bodies
            if "state" in base:
                base.pop("state")
            elif limit > 64:
                limit = max(64, limit - over - 8)
            else:
                raise DeliveryFailed("push body cannot be made small enough")

    def _backoff(self) -> Backoff:
        """The outbox's backoff under the lower ceiling ``[secondlife] retry_max_delay`` (a lagging
        region comes back within seconds), jittered 0.5 to 1 so it never waits past that ceiling."""
        s = self.services.settings.outbox
        return Backoff(s.base_delay, min(s.max_delay, self.config.retry_max_delay), (0.5, 1.0), self._rng)

    async def _post(self, reg: Registration, body: bytes) -> None:
        assert self._http is not None, "the adapter is not started"
        timestamp = str(int(self._now().timestamp()))
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            H_TIMESTAMP: timestamp,
            H_SIGNATURE: sign(self.config.secret, timestamp, reg.object, reg.owner, body),
        }
        async with self._sem:
            try:
                async with self._http.post(reg.url, data=body, headers=headers) as response:
                    status = response.status
                    retry_after = response.headers.get("Retry-After")
                    await response.read()
            except (TimeoutError, aiohttp.ClientError) as exc:
                raise RetryLater(
                    f"push to {reg.route} failed: {type(exc).__name__}", backoff=self._backoff()
                ) from exc
        if 200 <= status < 300:
            return
        if status in (404, 410):
            async with self.services.vault.transaction() as session:
                marked = await registry.mark_dead(session, reg.route, reg.url, self._now())
                current = None if marked else await registry.get(session, reg.route)
            if current is not None and current.url != reg.url and not current.dead_since:
                # Registered anew while this push was out: its wake found the row claimed, so go now.
                raise TargetAbsent(f"{reg.route} answered {status}; registered anew since", 0.0)
            log.info("second life URL dead", route=reg.route, status=status)
            raise TargetAbsent(f"{reg.route} answered {status}: URL dead", self.config.dead_retry)
        if status in (429, 503) or status >= 500 or status in (408, 499):
            delay = _retry_after(retry_after, self._now())
            if delay is not None:
                raise Throttled(f"{reg.route} answered {status}, Retry-After {delay:g} s", delay)
            raise RetryLater(f"{reg.route} answered {status}", backoff=self._backoff())
        raise DeliveryFailed(f"{reg.route} refused the push with {status}")
