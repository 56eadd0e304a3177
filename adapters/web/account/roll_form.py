"""Rolling from the player's page: a form drawn from the system's declared ``roll`` command
(``Command.params``; a plain pool field where a system declares none), its values turned back into
the words a person types (``gateway.core.params.render``) and run through the router as the player's
own identity, in a channel where they play. The roll is logged there like a roll typed in chat; its
public reply is queued through the outbox to that channel's platform."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.web.account.store import Signed
from adapters.web.people import platform_label
from gateway import AdapterServices, Channel, Identity, InboundMessage, Reply
from gateway.core.params import Param, render
from gateway.core.payloads import reply_payload
from gateway.delivery.queue import enqueue
from gateway.features import records

POOL = (Param("pool", "pool", "the dice pool: a trait or a number, and +N or -N"),)
CHANNELS_SHOWN = 20
WEB_ONLY = ""  # the form's value for "only the Storyteller log": the player's own web channel


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # text, number, flag, choice
    label: str
    description: str
    required: bool
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


def roll_params(services: AdapterServices, system: str) -> Sequence[Param]:
    found = services.systems().get(system)
    for command in found.commands() if found is not None else ():
        if command.name == "roll" and getattr(command, "params", None):
            return tuple(command.params)
    return POOL


def fields(params: Sequence[Param], locale: str) -> list[Field]:
    shown = []
    for p in params:
        kind = {"flag": "flag", "choice": "choice", "integer": "number", "modifier": "number"}.get(
            p.kind, "text"
        )
        label = p.label_in(locale)
        shown.append(
            Field(
                p.name,
                kind,
                label if label != p.name else p.name.replace("_", " ").capitalize(),
                p.description_in(locale),
                # The roll's own dice are always asked for (a system may leave its pool optional so
                # its handler words a missing one); the other side after ``vs`` is optional.
                p.required or (p.kind == "pool" and p.keyword is None),
                p.choices,
                p.minimum,
                p.maximum,
            )
        )
    return shown


def line(params: Sequence[Param], form: Mapping[str, str]) -> str:
    values: dict[str, Any] = {}
    for p in params:
        raw = " ".join(str(form.get(p.name, "")).split())[:200]
        if p.kind == "flag":
            values[p.name] = bool(raw)
        elif p.kind in ("integer", "modifier") and raw:
            try:
                values[p.name] = int(raw)
            except ValueError:
                values[p.name] = raw  # the router's own refusal says what is wrong
        else:
            values[p.name] = raw
    return " ".join(["roll", *render(params, values)])


async def channels_played(
    services: AdapterServices, signed: Signed, system: str, locale: str
) -> list[tuple[str, str]]:
    """The channels of ``system`` the person has rolled in, newest first, as (key, label)."""
    keys = await records.channels_rolled_in(services.vault, signed.person_id, system, CHANNELS_SHOWN)
    return [
        (key, f"{key.partition(':')[2]} · {platform_label(key.partition(':')[0], locale)}") for key in keys
    ]


async def roll(
    services: AdapterServices, signed: Signed, channel_key: str, text: str, web: Channel
) -> list[Reply]:
    """``text`` run as the player in ``channel_key`` (one of theirs) or, for ``WEB_ONLY``, their web
    channel; in a chat channel the public replies go to it through the outbox."""
    sender = Identity(signed.platform, signed.id, signed.display_name, verified=True)
    if channel_key == WEB_ONLY:
        return await services.handle(InboundMessage(sender=sender, channel=web, text=text))
    platform, _, target = channel_key.partition(":")
    replies = await services.handle(
        InboundMessage(sender=sender, channel=Channel(platform, target), text=text)
    )
    posted = [r for r in replies if not r.private and r.error is None]
    for reply in posted:
        await enqueue(
            services.vault, platform, target, reply_payload(reply, recipient=None), now=services.clock()
        )
    if posted:
        services.outbox.wake([platform])
    return replies


@dataclass(frozen=True)
class RollForm:
    """What the layout draws under a player's own sheet."""

    action: str
    fields: list[Field]
    channels: list[tuple[str, str]]
