"""``house``, ``house set NAME VALUE`` and ``house reset NAME``: a channel's house rules.

Every rule system that declares ``house_rules`` gets them. A change is audited (``house_rule.set``,
the field ``<channel key>/<system>/<name>``), written to the Storyteller log and announced in the
channel (the reply is public).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gateway.core.commands import Command, CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.errors import UserError
from gateway.core.hookspecs import hookimpl
from gateway.core.spec import Role
from gateway.core.types import Invocation, Reply
from gateway.features.house_rules import store
from gateway.features.house_rules.declare import (
    HouseRules,
    Switch,
    WrongValue,
    defaults,
    parse_value,
    switches,
)
from gateway.features.house_rules.messages import shown, t
from gateway.rules.closest import closest


def _model(ctx: CommandContext) -> type[HouseRules]:
    model = ctx.system.house_rules
    if model is None or not issubclass(model, HouseRules):
        raise UserError(t(ctx.locale, "none", system=ctx.system.title))
    return model


def _settings(ctx: CommandContext) -> Any:
    return ctx.services.plugins.system_settings.get(ctx.system.name)


def _switch(ctx: CommandContext, model: type[HouseRules], word: str) -> Switch:
    declared = switches(model)
    name = word.casefold().replace("-", "_")
    if name in declared:
        return declared[name]
    shown_word = word[:40]
    near = closest(name, declared)
    if near is None:
        raise UserError(
            t(ctx.locale, "unknown", system=ctx.system.title, name=shown_word), code="unknown_rule"
        )
    raise UserError(
        t(ctx.locale, "unknown.suggest", system=ctx.system.title, name=shown_word, suggestion=near),
        code="unknown_rule",
    )


def _value(ctx: CommandContext, spec: Switch, text: str) -> Any:
    try:
        return parse_value(spec, text)
    except WrongValue:
        raise UserError(
            t(
                ctx.locale,
                f"wrong.{spec.kind}",
                name=spec.name,
                value=text[:40],
                low=spec.low,
                high=spec.high,
                choices=", ".join(spec.choices),
            ),
            code="wrong_value",
        ) from None


def _result(
    ctx: CommandContext, kind: str, current: HouseRules, book: HouseRules, **more: Any
) -> dict[str, Any]:
    return {
        "kind": kind,
        "system": ctx.system.name,
        "channel": ctx.sender.channel_key,
        "rules": current.model_dump(mode="json"),
        "changed": sorted(current.changed(book)),
        **more,
    }


async def house_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise UserError(t(ctx.locale, "usage"))
    model = _model(ctx)
    current = ctx.house if isinstance(ctx.house, model) else await _current(ctx, model)
    book = model()
    changed = current.changed(book)
    locale = ctx.locale
    lines = [
        t(locale, "header", system=ctx.system.title, n=len(changed))
        if changed
        else t(locale, "header.book", system=ctx.system.title)
    ]
    for name, spec in switches(model).items():
        lines.append(
            t(
                locale,
                "line",
                mark=t(locale, "line.changed") if name in changed else "",
                name=name,
                value=shown(locale, getattr(current, name)),
                book=shown(locale, getattr(book, name)),
                where=spec.book,
                meaning=spec.meaning_in(locale),
            )
        )
    lines.append(t(locale, "footer"))
    return Reply(text="\n".join(lines), result=_result(ctx, "house_rules", current, book))


async def _current(ctx: CommandContext, model: type[HouseRules]) -> HouseRules:
    return await store.load(ctx.unit, model, _settings(ctx), ctx.sender.channel_key, ctx.system.name)


async def _change(ctx: CommandContext, spec: Switch, model: type[HouseRules], value: Any | None) -> Reply:
    """Set ``spec`` to ``value`` (None: back to its default), audited, logged and announced."""
    channel, system = ctx.sender.channel_key, ctx.system.name
    before = await _current(ctx, model)
    old = getattr(before, spec.name)
    fallback = getattr(defaults(model, _settings(ctx)), spec.name)
    new = fallback if value is None else value
    rows = await store.stored(ctx.unit, channel, system)
    if value is None and spec.name not in rows:
        raise UserError(t(ctx.locale, "reset.none", name=spec.name, value=shown(ctx.locale, old)))
    if value is not None and spec.name in rows and old == new:
        raise UserError(t(ctx.locale, "same", name=spec.name, value=shown(ctx.locale, old)))
    if value is None:
        await store.remove(ctx.unit, channel, system, spec.name)
    else:
        await store.put(ctx.unit, channel, system, spec.name, new, ctx.now)
    rows = (
        {**rows, spec.name: new} if value is not None else {k: v for k, v in rows.items() if k != spec.name}
    )
    after = store.built(model, _settings(ctx), rows)
    ctx.house = after
    field = f"{channel}/{system}/{spec.name}"
    action = "house_rule.set" if value is not None else "house_rule.reset"
    await ctx.audit(action, field_name=field[:300], old=json.dumps(old), new=json.dumps(new))
    locale = ctx.locale
    if value is None:
        text = t(locale, "reset", name=spec.name, value=shown(locale, new), who=ctx.name)
    else:
        text = t(
            locale,
            "set",
            name=spec.name,
            value=shown(locale, new),
            old=shown(locale, old),
            book=shown(locale, spec.default),
            who=ctx.name,
        )
    result = _result(ctx, action, after, model(), name=spec.name, old=old, new=new)
    await ctx.stlog(text, kind="house_rule", result=result)
    return Reply(text=text, result=result)


async def house_set_command(ctx: CommandContext, inv: Invocation) -> Reply:
    model = _model(ctx)
    spec = _switch(ctx, model, inv.args["name"])
    return await _change(ctx, spec, model, _value(ctx, spec, inv.args["value"]))


async def house_reset_command(ctx: CommandContext, inv: Invocation) -> Reply:
    model = _model(ctx)
    return await _change(ctx, _switch(ctx, model, inv.args["name"]), model, None)


TEXTS = {
    "house": (
        ("show this channel's house rules: each switch, its value and the book's", "house"),
        {
            "cs": ("ukáže domácí pravidla kanálu: každý přepínač, jeho hodnotu a tu z knihy", "house"),
            "ru": ("показать домашние правила канала: каждый переключатель, его значение и книжное", "house"),
        },
    ),
    "house set": (
        ("set a house rule in this channel (Storytellers)", "house set NAME VALUE"),
        {
            "cs": ("nastaví domácí pravidlo v tomto kanálu (vypravěči)", "house set JMÉNO HODNOTA"),
            "ru": ("установить домашнее правило в этом канале (рассказчики)", "house set ИМЯ ЗНАЧЕНИЕ"),
        },
    ),
    "house reset": (
        ("put a house rule back to its default in this channel (Storytellers)", "house reset NAME"),
        {
            "cs": ("vrátí domácí pravidlo v tomto kanálu na výchozí (vypravěči)", "house reset JMÉNO"),
            "ru": ("вернуть домашнее правило в этом канале к умолчанию (рассказчики)", "house reset ИМЯ"),
        },
    ),
}
HANDLERS = {"house": house_command, "house set": house_set_command, "house reset": house_reset_command}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    for name, ((summary, usage), texts) in TEXTS.items():
        role: Role = "anyone" if name == "house" else "storyteller"
        register(Command(name, HANDLERS[name], summary, usage, role=role, texts=texts, params=PARAMS[name]))
