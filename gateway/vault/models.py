"""The vault's tables. One vault holds every person, character, pool, roll and audit record.

Rule systems keep their own fields in ``Character.sheet`` (a JSON document validated by the system's
sheet schema) and their spendable resources in ``Pool`` rows, which are spent with conditional updates.
Plugin-owned tables live in the plugin and get their own Alembic branch.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary, UniqueConstraint, literal_column, text
from sqlmodel import Field, SQLModel

from gateway.vault.columns import UTCDateTime


def utcnow() -> datetime:
    return datetime.now(UTC)


def _ts(**kw: Any) -> Any:
    return Field(default_factory=utcnow, sa_column=Column(UTCDateTime(), nullable=False, **kw))


def _json(default: Any = dict) -> Any:
    return Field(default_factory=default, sa_column=Column(JSON, nullable=False))


class Person(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    display_name: str
    storyteller: bool = False
    locale: str | None = None
    active_character_id: int | None = Field(default=None, index=True)
    created_at: datetime = _ts()


class IdentityLink(SQLModel, table=True):
    """A platform identity (``discord:123``) joined to a person."""

    __tablename__ = "identity"
    key: str = Field(primary_key=True, max_length=300)
    person_id: int = Field(foreign_key="person.id", index=True)
    platform: str = Field(max_length=40)
    display_name: str
    verified: bool = True
    created_at: datetime = _ts()


class ChannelRow(SQLModel, table=True):
    __tablename__ = "channel"
    key: str = Field(primary_key=True, max_length=300)
    platform: str = Field(max_length=40)
    system: str | None = None
    locale: str | None = None
    settings: dict[str, Any] = _json()
    created_at: datetime = _ts()


class ProcessedMessage(SQLModel, table=True):
    """Platform message ids already handled, so a redelivered message is not run twice.

    Ids longer than the column are stored as ``sha256:<hex>`` of the whole id (``repo.message_key``).
    ``response``: ``{"request": <digest of channel and text>, "replies": [Reply.as_json(), ...]}`` for
    a request answered on the spot, returned again to a retry that asks the same (revision 0004);
    None for queued replies, refused commands, replay marks and older rows."""

    __tablename__ = "processed_message"
    platform: str = Field(primary_key=True, max_length=40)
    message_id: str = Field(primary_key=True, max_length=200)
    created_at: datetime = _ts()
    response: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class Character(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("system", "name_key"),)
    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="person.id", index=True)
    system: str = Field(max_length=40)
    name: str
    # The casefolded name, unique per system; a retired character's is moved out of the names'
    # space (``gateway.features.characters.retired_key``), which frees the name (revision 0008).
    name_key: str = Field(max_length=200)
    status: str = Field(default="creation", max_length=20)  # creation | approved
    sheet: dict[str, Any] = _json()
    created_at: datetime = _ts()
    updated_at: datetime = _ts()
    # Set by ``char retire`` / ``st retire``: hidden from every list, rolls and logs kept.
    retired_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime(), nullable=True))


class Pool(SQLModel, table=True):
    """A spendable resource (Willpower, Essence, damage, blood). Spends are conditional updates."""

    character_id: int = Field(foreign_key="character.id", primary_key=True)
    name: str = Field(primary_key=True, max_length=40)
    current: int = 0
    maximum: int = 0


class RollLog(SQLModel, table=True):
    """Every roll. ``text`` and ``stlog_kind`` hold the roll's Storyteller-log line (the line as
    posted, and its log kind), so a roll is recorded once: ``st log`` reads these rows beside
    ``StlogEntry`` (see ``repo.stlog_entries``). Rows from before revision 0002 have neither."""

    __tablename__ = "roll_log"
    # A character's rolls newest first (``st log NAME``), without sorting them all: see 0007.
    __table_args__ = (Index("ix_roll_log_character_created", "character_id", "created_at", "id"),)
    id: int | None = Field(default=None, primary_key=True)
    public_id: str = Field(max_length=16, unique=True)
    person_id: int | None = Field(default=None, foreign_key="person.id", index=True)
    identity_key: str = Field(max_length=300)
    display_name: str
    channel_key: str = Field(max_length=300)
    system: str = Field(max_length=40)
    character_id: int | None = Field(default=None, index=True)
    kind: str = Field(max_length=40)
    pool: int | None = None
    dice: list[int] = _json(list)
    total: int | None = None
    degree: str | None = None
    result: dict[str, Any] = _json()
    created_at: datetime = _ts(index=True)
    text: str | None = None
    stlog_kind: str | None = Field(default=None, max_length=40)


class StlogEntry(SQLModel, table=True):
    """The Storyteller log's other entries: check-ins without a roll, heals, approvals, ST edits.
    A roll's own line lives on its ``RollLog`` row."""

    __tablename__ = "stlog"
    __table_args__ = (Index("ix_stlog_character_created", "character_id", "created_at", "id"),)  # st log NAME
    id: int | None = Field(default=None, primary_key=True)
    person_id: int | None = Field(default=None, index=True)
    character_id: int | None = Field(default=None, index=True)
    channel_key: str = Field(max_length=300)
    kind: str = Field(max_length=40)
    text: str
    result: dict[str, Any] = _json()
    created_at: datetime = _ts(index=True)


class Audit(SQLModel, table=True):
    # ``st history NAME`` newest first; SQLite's ix_audit_character_id has the id (its rowid) already.
    __table_args__ = (Index("ix_audit_character_history", "character_id", "id"),)
    id: int | None = Field(default=None, primary_key=True)
    actor_id: int | None = Field(default=None, index=True)
    actor_key: str = Field(max_length=300)
    character_id: int | None = Field(default=None, index=True)
    action: str = Field(max_length=60)
    field_name: str | None = None
    old_value: str | None = None
    new_value: str | None = None
    created_at: datetime = _ts()


class LinkCode(SQLModel, table=True):
    __tablename__ = "link_code"
    code: str = Field(primary_key=True, max_length=32)
    person_id: int = Field(index=True)
    identity_key: str = Field(max_length=300)
    expires_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    used: bool = False
    created_at: datetime = _ts()


class OutboxRow(SQLModel, table=True):
    """A message waiting for delivery. Written in the same transaction as whatever caused it."""

    __tablename__ = "outbox"
    __table_args__ = (
        # Queue heads: see gateway/delivery/outbox.py and migration 0003.
        Index(
            "ix_outbox_queue",
            "platform",
            "target",
            "id",
            sqlite_where=text("status = 'pending'"),
            postgresql_where=text("status = 'pending'"),
        ),
        Index(
            "ix_outbox_delivered",
            "delivered_at",
            sqlite_where=text("status = 'delivered'"),
            postgresql_where=text("status = 'delivered'"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(max_length=40)
    target: str = Field(max_length=400)
    payload: dict[str, Any] = _json()
    status: str = Field(default="pending", max_length=20)  # pending | delivered | dead
    attempts: int = 0
    next_attempt_at: datetime = _ts()
    claimed_until: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))
    last_error: str | None = None
    created_at: datetime = _ts()
    delivered_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime()))


# ``status = 'pending'`` as SQL text, not a bound value: only then can SQLite (and PostgreSQL's generic
# plans) tell that the partial index ``ix_outbox_queue`` answers a query. Use it in every outbox query.
OUTBOX_PENDING = OutboxRow.__table__.c.status == literal_column("'pending'")  # type: ignore[attr-defined]


class KeyValue(SQLModel, table=True):
    """Small durable state owned by one component: a sync token, an access token, a registered URL."""

    __tablename__ = "kv"
    scope: str = Field(primary_key=True, max_length=100)
    key: str = Field(primary_key=True, max_length=300)
    value: dict[str, Any] = _json()
    updated_at: datetime = _ts()


class SceneState(SQLModel, table=True):
    """Per-channel, per-system state (combat order, a pending challenge, a tug of war), as a document."""

    __tablename__ = "scene_state"
    channel_key: str = Field(primary_key=True, max_length=300)
    system: str = Field(primary_key=True, max_length=40)
    kind: str = Field(primary_key=True, max_length=60)
    data: dict[str, Any] = _json()
    updated_at: datetime = _ts()


class LeaseRow(SQLModel, table=True):
    """Who runs a piece of work that must run once per deployment (an IRC connection, a Matrix sync
    loop): claimed and renewed by one upsert on the database's clock (see ``gateway/delivery/leases.py``).
    ``epoch`` grows every time the lease changes hands (or is taken again after it ran out)."""

    __tablename__ = "lease"
    name: str = Field(primary_key=True, max_length=200)
    owner: str = Field(max_length=200)
    epoch: int = 1
    expires_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))


class ProcessRow(SQLModel, table=True):
    """A running gateway process, as it last reported itself (``gateway status``): written by its
    heartbeat every few seconds, so a row whose ``seen_at`` is old is a process that died. ``state``
    holds what it reports: the leases it holds and each adapter's connection state."""

    __tablename__ = "gateway_process"
    id: str = Field(primary_key=True, max_length=200)
    host: str = Field(max_length=200)
    pid: int
    version: str = Field(max_length=40)
    started_at: datetime = _ts()
    seen_at: datetime = _ts(index=True)
    state: dict[str, Any] = _json()


class RateBucket(SQLModel, table=True):
    """A token bucket shared by every process on the vault (a Second Life object's inbound limit):
    ``tokens`` left at ``updated_at`` (the database's clock), refilled and spent by one upsert."""

    __tablename__ = "rate_bucket"
    key: str = Field(primary_key=True, max_length=300)
    tokens: float
    updated_at: datetime = _ts(index=True)


class HouseRule(SQLModel, table=True):
    """A channel's house rule: one switch of its rule system set away from the book's default
    (``house set``). A switch at its default has no row; ``house reset`` deletes it."""

    __tablename__ = "house_rule"
    channel_key: str = Field(primary_key=True, max_length=300)
    system: str = Field(primary_key=True, max_length=40)
    name: str = Field(primary_key=True, max_length=60)
    # The value as JSON text: a JSON column would come back from SQLite as a number for ``8``.
    value: str = Field(max_length=200)
    updated_at: datetime = _ts()


class WebLink(SQLModel, table=True):
    """A one-time sign-in link the ``web`` command gave (``adapters/web/account``): only the SHA-256 of
    its token is kept, so a copy of the vault signs nobody in. ``used_at`` is set once, when redeemed."""

    __tablename__ = "web_link"
    token_hash: str = Field(primary_key=True, max_length=64)
    identity_key: str = Field(max_length=300, index=True)
    expires_at: datetime = Field(sa_column=Column(UTCDateTime(), nullable=False))
    used_at: datetime | None = Field(default=None, sa_column=Column(UTCDateTime(), nullable=True))
    created_at: datetime = _ts()


class WebSession(SQLModel, table=True):
    """A signed-in browser: the cookie holds a random token, this row its SHA-256, so every gateway
    process on the vault knows the session. It acts as ``identity_key`` (the person behind it, through
    linking); it ends ``session_days`` after ``seen_at``, on ``web logout`` or when revoked."""

    __tablename__ = "web_session"
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    identity_key: str = Field(max_length=300, index=True)
    agent: str = Field(default="", max_length=200)
    created_at: datetime = _ts()
    seen_at: datetime = _ts()


class Macro(SQLModel, table=True):
    """A saved command line (``gateway.features.macros``). ``owner`` is ``person:<id>`` (a person's own, seen
    on every identity linked to them) or ``channel:<channel key>`` (a Storyteller's, for everyone in
    that channel); a macro belongs to one rule system (revision 0009)."""

    __tablename__ = "macro"
    __table_args__ = (UniqueConstraint("owner", "system", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    owner: str = Field(max_length=320)
    system: str = Field(max_length=40)
    name: str = Field(max_length=40)
    body: str
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class StatsTally(SQLModel, table=True):
    """``stats``'s tallies of the roll log, kept in the vault so that every gateway process on it
    reads old rows once (``gateway.features.stats.store``): one row per scope (a channel's, a person's or a
    character's rolls of one system) and UTC day, and one with ``day`` empty holding the scope's
    whole tally and ``through``, the id of the last roll folded in (moved forward by a guarded
    update: two folds at once never both count a row). ``data`` is the tally as JSON text."""

    __tablename__ = "stats_tally"
    kind: str = Field(primary_key=True, max_length=20)  # channel | person | character
    scope: str = Field(primary_key=True, max_length=300)
    system: str = Field(primary_key=True, max_length=40)
    day: str = Field(primary_key=True, max_length=10)  # YYYY-MM-DD; "" for the whole scope's row
    through: int = 0
    data: str
    updated_at: datetime = _ts()


class CharacterProfile(SQLModel, table=True):
    """A character's flavour, the same for every rule system (``gateway.features.profiles``): the
    biography its owner writes (``char bio``) and the portrait uploaded on its web sheet, its bytes,
    their checked type (``image/png``) and their SHA-256 (the page's ETag). No row: neither is set
    (revision 0013)."""

    __tablename__ = "character_profile"
    character_id: int = Field(foreign_key="character.id", primary_key=True)
    biography: str = ""
    portrait: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    portrait_type: str = Field(default="", max_length=20)
    portrait_hash: str = Field(default="", max_length=64)
    updated_at: datetime = _ts()
