"""Commands and the context a handler runs in: one unit of work, the caller, the dice, the services."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import insert
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.dice import DiceSource
from gateway.core.events import RollLogged
from gateway.core.payloads import Payload
from gateway.core.spec import Command, Handler, Role
from gateway.core.types import InboundMessage, Reply
from gateway.rules.roll_text import with_comment
from gateway.vault import repo
from gateway.vault.models import ChannelRow, IdentityLink, Person, RollLog
from gateway.vault.prepared import Prepared
from gateway.vault.sender import Sender
from gateway.vault.unit import Unit

if TYPE_CHECKING:
    from gateway.core.services import Services
    from gateway.core.spec import RuleSystem

# Re-exported for code that imported them from here before ``gateway.core.spec`` held them.
__all__ = ["Command", "CommandContext", "Handler", "Role", "new_public_id"]
M = TypeVar("M")

# No 0/o, 1/l/i: ids are read aloud and typed on another platform.
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
# Prepared once: per-roll statement construction and execution through the ORM cost more than the
# insert itself (see ``gateway.vault.prepared``).
ROLL_INSERT = Prepared(insert(RollLog.__table__))  # type: ignore[attr-defined]


@dataclass
class CommandContext:
    """Everything a handler may touch. All writes go through ``unit`` (or its ``session``): one
    transaction per message."""

    message: InboundMessage
    unit: Unit
    sender: Sender
    system: RuleSystem
    locale: str
    storyteller: bool
    dice: DiceSource
    services: Services
    now: datetime
    extra: dict[str, Any] = field(default_factory=dict)
    # What followed a lone ``#`` on the command line: kept with every roll this unit logs.
    comment: str | None = None
    # The channel's house rules: the system's ``house_rules`` model, read once by the router.
    house: Any = None
    # Ids of the rolls logged in this unit, in order (the router marks their replies with the comment).
    logged: list[str] = field(default_factory=list, init=False, repr=False)
    # Rolls logged in this unit whose Storyteller-log line has not been written yet.
    _rolls_without_line: set[str] = field(default_factory=set, init=False, repr=False)
    _reserved_ids: set[str] = field(default_factory=set, init=False, repr=False)

    @property
    def session(self) -> AsyncSession:
        """The unit's ORM session, opened on first use."""
        return self.unit.session

    # The sender's rows as ORM objects, built on first use (see ``gateway.vault.sender``).
    @property
    def person(self) -> Person:
        return self.sender.person

    @property
    def identity(self) -> IdentityLink:
        return self.sender.identity

    @property
    def channel(self) -> ChannelRow:
        return self.sender.channel

    @property
    def settings(self) -> Any:
        return self.services.settings

    def settings_for(self, model: type[M]) -> M:
        """The validated settings table of the rule system whose ``settings_model`` is ``model``
        (the channel's system first), parsed once at start."""
        validated = self.services.plugins.system_settings
        mine = validated.get(self.system.name)
        if isinstance(mine, model):
            return mine
        for value in validated.values():
            if isinstance(value, model):
                return value
        raise LookupError(f"no rule system has the settings model {model.__name__}")

    def house_rules(self, model: type[M]) -> M:
        """The channel's switches as ``model`` (the system's ``house_rules``); the book's rules
        when the router read none (a context built by hand)."""
        return self.house if isinstance(self.house, model) else model()

    @property
    def name(self) -> str:
        return self.message.sender.display_name

    def reserve_roll_id(self, result: dict[str, Any]) -> str:
        """A public id for a roll about to be logged, set as ``result["id"]`` now, so that the line
        showing it can go to ``log_roll(..., stlog=line)``: one row written instead of two steps."""
        public_id = new_public_id()
        result["id"] = public_id
        self._reserved_ids.add(public_id)
        return public_id

    async def log_roll(
        self,
        result: dict[str, Any],
        *,
        character_id: int | None = None,
        name: str | None = None,
        stlog: str | None = None,
        stlog_kind: str = "roll",
    ) -> str:
        """Write ``result`` to the roll log, set ``result["id"]`` (a fresh id, or the one
        ``reserve_roll_id`` gave) and return the id. With ``stlog``, that line is the roll's
        Storyteller-log line, written with the row and queued as ``stlog()`` would."""
        # Ids are random; a clash (about 1 in 27 billion per roll, times rolls logged) fails the
        # unit on the unique index and the router runs the message again.
        public_id = result.get("id")
        if public_id in self._reserved_ids:
            self._reserved_ids.discard(public_id)
        else:
            public_id = new_public_id()
            result["id"] = public_id
        self.logged.append(public_id)
        if self.comment:
            result["comment"] = self.comment
            if stlog is not None:
                stlog = with_comment(stlog, self.comment)
        if stlog is None:
            self._rolls_without_line.add(public_id)
        sides = result.get("sides") or []
        system = str(result.get("system", self.system.name))
        await self.unit.execute(
            ROLL_INSERT,
            dict(
                public_id=public_id,
                person_id=self.sender.person_id,
                identity_key=self.sender.identity_key,
                display_name=name or self.name,
                channel_key=self.sender.channel_key,
                system=system,
                character_id=character_id,
                kind=str(result.get("kind", "roll")),
                pool=result.get("pool") if isinstance(result.get("pool"), int) else None,
                dice=list(result.get("dice") or [d for s in sides for d in s.get("dice", [])]),
                total=result.get("total") if isinstance(result.get("total"), int) else None,
                degree=result.get("degree") or result.get("outcome"),
                result=result,
                created_at=self.now,
                text=stlog,
                stlog_kind=None if stlog is None else stlog_kind,
            ),
        )
        self.unit.record(
            RollLogged(public_id, self.sender.channel_key, system, character_id, self.sender.person_id)
        )
        if stlog is not None:
            await repo.queue_stlog(
                self.unit,
                targets=self.services.settings.stlog.targets,
                kind=stlog_kind,
                text=stlog,
                result=result,
                now=self.now,
                who=self.name,
                where=self.sender.channel_key,
            )
        return public_id

    async def stlog(
        self,
        text: str,
        *,
        kind: str,
        result: dict[str, Any] | None = None,
        character_id: int | None = None,
    ) -> None:
        """Record ``text`` in the Storyteller log and queue it for every configured Storyteller target.

        The first line written with the ``result`` of a roll logged in this unit is that roll's line:
        it is kept on the roll's own row (see ``RollLog``)."""
        roll_id = (result or {}).get("id")
        if roll_id in self._rolls_without_line:
            self._rolls_without_line.discard(roll_id)
            if self.comment:
                text = with_comment(text, self.comment)
        else:
            roll_id = None
        await repo.write_stlog(
            self.unit,
            roll_id=roll_id,
            targets=self.services.settings.stlog.targets,
            person_id=self.sender.person_id,
            character_id=character_id,
            channel_key=self.sender.channel_key,
            kind=kind,
            text=text,
            result=result or {},
            now=self.now,
            who=self.name,
            where=self.sender.channel_key,
        )

    def commented(self, replies: list[Reply]) -> list[Reply]:
        """``replies`` with the comment after the line of each roll this unit logged (the reply
        whose result is that roll's; failing that, the first reply), when the line has a comment."""
        if not self.comment or not self.logged or not replies:
            return replies
        ids = set(self.logged)
        marked = [i for i, r in enumerate(replies) if r.result is not None and r.result.get("id") in ids]
        return [
            replace(r, text=with_comment(r.text, self.comment)) if i in (marked or [0]) else r
            for i, r in enumerate(replies)
        ]

    async def enqueue(self, platform: str, target: str, payload: Payload) -> None:
        """Queue ``payload`` for ``platform``/``target``, in this unit (sent once it commits); nothing
        for a target the platform's adapter says it cannot post to (``Adapter.can_post``: a Discord
        channel without a webhook), which would only make a dead row."""
        if not self.services.outbox.can_post(platform, target):
            return
        await repo.enqueue(self.unit, platform, target, payload, now=self.now)

    async def audit(
        self,
        action: str,
        *,
        character_id: int | None = None,
        field_name: str | None = None,
        old: Any = None,
        new: Any = None,
    ) -> None:
        await repo.audit(
            self.session,
            actor_id=self.sender.person_id,
            actor_key=self.sender.identity_key,
            action=action,
            character_id=character_id,
            field_name=field_name,
            old=old,
            new=new,
            now=self.now,
        )


# Seven letters: 31**7 is about 2.75e10 ids, so at 10 million rolls logged a new id clashes 0.04% of
# the time (five letters, 31**5, clashed 35% of the time there). Ids handed out before keep their five
# letters and verify as ever: a lookup is by the whole id, whatever its length.
PUBLIC_ID_LENGTH = 7


def new_public_id(length: int = PUBLIC_ID_LENGTH) -> str:
    # One read of the CSPRNG for the whole id; 64 bits spread over 31**7 ids leave a bias below 2e-9.
    number = int.from_bytes(secrets.token_bytes(8))
    letters = []
    for _ in range(length):
        number, digit = divmod(number, len(ID_ALPHABET))
        letters.append(ID_ALPHABET[digit])
    return "".join(letters)
