"""What ``verify ID`` answers for a logged roll: chat's ``verify`` command and the web's ``/r/ID``
page both tell a roll with these functions, so the two never disagree.

A secret roll (``roll 4 secret``) is shown only to its roller and to Storytellers (``may_see``); anyone
else who has its id learns that the roll exists and is secret (``secret_answer``), nothing more: no
dice, no name, no channel, no comment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from gateway.core.core_messages import say
from gateway.core.spec import RuleSystem
from gateway.core.types import Reply
from gateway.features.house_rules.notes import logged_note
from gateway.rules.roll_text import roll_text, with_comment
from gateway.vault import repo
from gateway.vault.models import RollLog
from gateway.vault.repo import Db, within

ID_SHOWN = 20  # ids are 1 to 16 letters; a refusal quotes no more of what was typed


class RollTeller(Protocol):
    """The running gateway's ``roll_text`` and rule systems (``Services`` and ``AdapterServices``
    have them)."""

    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None: ...
    def systems(self) -> Mapping[str, RuleSystem]: ...


async def find_roll(db: Db, public_id: str) -> RollLog | None:
    """The logged roll with this public id (any case, a leading ``#`` allowed), or None."""
    async with within(db) as unit:
        return await repo.find_roll(unit.session, public_id)


def not_found(locale: str, public_id: str) -> str:
    """The one line for an id no roll has."""
    return say(locale, "verify.none", id=public_id[:ID_SHOWN])


def is_secret(row: RollLog) -> bool:
    return bool((row.result or {}).get("secret"))


def may_see(row: RollLog, *, person_id: int | None, identity_key: str | None, storyteller: bool) -> bool:
    """Whether this reader may see the roll's content: anyone for an open roll; for a secret one, a
    Storyteller, or its roller (the same person, through any linked identity, or the same identity)."""
    if storyteller or not is_secret(row):
        return True
    if person_id is not None and row.person_id == person_id:
        return True
    return identity_key is not None and row.identity_key == identity_key


def secret_answer(row: RollLog, locale: str) -> Reply:
    """What a reader who may not see a secret roll is told: its id exists, and it is secret."""
    text = say(locale, "verify.secret", id=row.public_id)
    return Reply(text=text, result={"kind": "verify", "id": row.public_id, "secret": True})


def verify_answer(teller: RollTeller, row: RollLog, locale: str) -> Reply:
    """What ``verify ID`` answers for a logged roll, in ``locale`` (chat and the web's ``/r/ID``)."""
    detail = roll_detail(teller, row, locale)
    system = teller.systems().get(row.system)  # its name ("Pravidla"), not its key; a removed one's key
    text = say(
        locale,
        "verify.line",
        id=row.public_id,
        who=row.display_name,
        identity=row.identity_key,
        system=system.title_in(locale) if system is not None else row.system,
        where=row.channel_key,
        when=row.created_at.strftime("%Y-%m-%d %H:%M:%S UTC"),
        detail=detail,
    )
    result = {
        "kind": "verify",
        "id": row.public_id,
        "who": row.display_name,
        "identity": row.identity_key,
        "where": row.channel_key,
        "when": row.created_at.isoformat(),
        "roll": row.result,
    }
    return Reply(text=text, result=result)


def roll_detail(teller: RollTeller, row: RollLog, locale: str) -> str:
    """The dice part of ``verify``'s line: the roll's own plugin tells it in its book's terms; the
    core's rendering covers the rest."""
    roll = row.result or {}
    detail = teller.roll_text({"system": row.system, **roll}, locale)
    if detail is None:
        detail = roll_text(locale, roll, row.dice, row.total, row.degree)
    # The house rules that changed the result, as the roll line named them (``[house: ...]``).
    house = logged_note(locale, roll.get("house_rules"))
    if house and house not in detail:
        detail += house
    comment = roll.get("comment")
    return with_comment(detail, comment if isinstance(comment, str) else None)
