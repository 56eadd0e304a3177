"""Discord message bodies: roll lines as compact embeds, sheets as one embed with fields, replies as text.

A sheet is drawn from the rule system's ``SheetSummary``, a roll in the colour its system gives its
degree (any system, no rules known here).
Everything a user typed (names, sheet fields, command text) is sanitised: control and bidi characters
go, Markdown is escaped, mentions are defused, and every body carries ``allowed_mentions: {"parse": []}``
so nothing we post can ping anyone. Every body is cut to Discord's limits here, before it leaves.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adapters.discord.texts import t
from gateway import (
    ContestResult,
    DegreeColour,
    Power,
    RatedTrait,
    Reply,
    RollResult,
    RuleSystem,
    SheetSummary,
    read_result,
)
from gateway.rules.charts import Picture, chart_from_result

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
FIELDS = 25
TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EPHEMERAL = 1 << 6
NO_MENTIONS: dict[str, list[str]] = {"parse": []}
ELLIPSIS = "…"

PLATFORMS = {
    "discord": "Discord",
    "secondlife": "Second Life",
    "sl": "Second Life",
    "irc": "IRC",
    "matrix": "Matrix",
    "console": "Console",
    "http": "HTTP API",
}
# The one scale every rule system colours its degree words on (``RuleSystem.degree_colours``).
RED, GREY, AMBER = DegreeColour.BOTCH, DegreeColour.FAILURE, DegreeColour.PARTIAL
GREEN, BLUE, GOLD = DegreeColour.SUCCESS, DegreeColour.STRONG, DegreeColour.BEST
OUTCOME_COLOURS = {"deadlock": GREY, "both_botch": RED}
CONTEST_COLOUR = GREEN  # a contest someone won
SHEET_COLOUR = 0x5865F2
REASONS = {"approve": "approved", "export": "exported by a Storyteller", "sync": "Force Web Sync"}
TEXT_COLOUR = 0x99AAB5


@dataclass(frozen=True)
class Colours:
    """Each rule system's degree words and their colours, as the systems declare them: a roll takes
    the colour its own system gives its degree (a result naming no system: the first system's that
    knows the word); a word no system colours is drawn in the text colour."""

    by_system: Mapping[str, Mapping[str, int]] = dataclasses.field(default_factory=dict)

    @classmethod
    def of_systems(cls, systems: Iterable[RuleSystem]) -> Colours:
        return cls({system.name: system.degree_colours for system in systems})

    def of(self, roll: RollResult | Mapping[str, Any]) -> int:
        if isinstance(roll, Mapping):
            roll = RollResult(roll.get("system"), None, (), None, roll.get("degree"))
        degree = roll.degree or ""
        own = self.by_system.get(roll.system or "")
        if own is not None and degree in own:
            return own[degree]
        return next((c[degree] for c in self.by_system.values() if degree in c), TEXT_COLOUR)


NO_COLOURS = Colours()

_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
_MARKDOWN = re.compile(r"([\\*_~`|\[\]<>])")
_LINE_START = re.compile(r"^(\s*)([#\-])", re.MULTILINE)
_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)


# --------------------------------------------------------------------------- text


def clean(text: Any) -> str:
    """Plain, printable text: no control, format or bidi characters except newlines (tabs become spaces)."""
    out = []
    for ch in str(text):
        if ch == "\n":
            out.append(ch)
        elif ch == "\t":
            out.append(" ")
        elif ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(ch)
    return "".join(out)


def escape(text: Any) -> str:
    """User text made inert: Markdown escaped, ``@everyone``/``@here`` broken with a zero-width space."""
    value = _MARKDOWN.sub(r"\\\1", clean(text))
    value = _LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", value)
    return _MENTION.sub("@\u200b\\1", value)


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in an ellipsis when shortened (never mid-escape)."""
    if len(text) <= limit:
        return text
    head = text[: max(0, limit - 1)]
    trailing = len(head) - len(head.rstrip("\\"))
    if trailing % 2:  # do not leave a lone backslash escaping the ellipsis
        head = head[:-1]
    return head + ELLIPSIS


def safe(text: Any, limit: int) -> str:
    return cut(escape(text), limit)


# --------------------------------------------------------------------------- limits


def embed_length(embed: Mapping[str, Any]) -> int:
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += len(embed.get("footer", {}).get("text", "")) + len(embed.get("author", {}).get("name", ""))
    for f in embed.get("fields", []):
        total += len(f.get("name", "")) + len(f.get("value", ""))
    return total


def fit_embed(embed: dict[str, Any], budget: int = EMBED_TOTAL) -> dict[str, Any]:
    """One embed within every per-embed limit and within ``budget`` characters in all."""
    out = dict(embed)
    if "title" in out:
        out["title"] = cut(out["title"], TITLE)
    if "description" in out:
        out["description"] = cut(out["description"], DESCRIPTION)
    if "footer" in out:
        out["footer"] = {**out["footer"], "text": cut(out["footer"].get("text", ""), FOOTER)}
    if "author" in out:
        out["author"] = {**out["author"], "name": cut(out["author"].get("name", ""), AUTHOR)}
    fields = [
        {
            "name": cut(f.get("name") or "\u200b", FIELD_NAME),
            "value": cut(f.get("value") or "-", FIELD_VALUE),
            "inline": bool(f.get("inline", False)),
        }
        for f in out.get("fields", [])
    ]
    if len(fields) > FIELDS:
        rest = fields[FIELDS - 1 :]
        more = "\n".join(f"{f['name']}: {f['value']}" for f in rest)
        fields = [*fields[: FIELDS - 1], {"name": "More", "value": cut(more, FIELD_VALUE), "inline": False}]
    if fields or "fields" in out:
        out["fields"] = fields
    # Over budget: drop fields from the end, then shorten the description, then the title.
    while embed_length(out) > budget and out.get("fields"):
        excess = embed_length(out) - budget
        last = out["fields"][-1]
        keep = len(last["value"]) - excess
        if keep >= 20:
            out["fields"][-1] = {**last, "value": cut(last["value"], keep)}
        else:
            out["fields"] = out["fields"][:-1]
    for key in ("description", "title"):
        excess = embed_length(out) - budget
        if excess > 0 and out.get(key):
            out[key] = cut(out[key], max(1, len(out[key]) - excess))
    return out


def fit_message(message: dict[str, Any]) -> dict[str, Any]:
    """A whole message within the content, embed-count and 6000-character limits, never pinging anyone."""
    out = dict(message)
    if "content" in out:
        out["content"] = cut(out["content"], CONTENT)
    embeds = []
    budget = EMBED_TOTAL
    for embed in out.get("embeds", [])[:EMBEDS]:
        if budget <= 0:
            break
        fitted = fit_embed(embed, budget)
        budget -= embed_length(fitted)
        embeds.append(fitted)
    if embeds or "embeds" in out:
        out["embeds"] = embeds
    out["allowed_mentions"] = dict(NO_MENTIONS)
    return out


# --------------------------------------------------------------------------- replies


def text_message(text: str, *, private: bool = False, allow_flags: bool = True) -> dict[str, Any]:
    """A plain reply: the text as content, or as embed descriptions when it is longer than 2000."""
    body = escape(text).strip() or "(no text)"
    message: dict[str, Any]
    if len(body) <= CONTENT:
        message = {"content": body}
    else:
        chunks: list[str] = []
        rest = body
        while rest and len(chunks) < 2:  # 2 x 4096 stays under the 6000 budget once cut
            chunks.append(rest[:DESCRIPTION])
            rest = rest[DESCRIPTION:]
        if rest:
            chunks[-1] = chunks[-1] + rest
        message = {"embeds": [{"description": c, "color": TEXT_COLOUR} for c in chunks]}
    if private and allow_flags:
        message["flags"] = EPHEMERAL
    return fit_message(message)


# --------------------------------------------------------------------------- replies with a result


def _pool_words(roll: RollResult, locale: str = "en") -> str:
    if roll.details.get("chance_die"):
        words = t(locale, "embed.chance_die")
    elif roll.pool is not None:
        words = t(locale, "embed.pool", n=roll.pool)
    else:
        words = t(locale, "embed.roll")
    trait = roll.details.get("trait")
    return f"{str(trait).title()} · {words}" if trait else words


def _degree(roll: RollResult) -> str:
    return (roll.degree or "").replace("_", " ").title() or "-"


def _side_value(roll: RollResult) -> str:
    wp = " +1 WP" if roll.willpower else ""
    return f"`{_faces(roll)}`{wp} → **{roll.total}** ({escape(_degree(roll))})"


def result_embed(
    result: Mapping[str, Any] | None, locale: str = "en", colours: Colours = NO_COLOURS
) -> dict[str, Any] | None:
    """The embed for a reply's roll or contest (Inconnu's and Tzimisce's shape): the roller and pool in
    the title, dice, total and degree as fields, the colour of the degree (``colours``: the rule
    systems'), the roll id in the footer; its labels in ``locale``. None for any other result: that
    reply stays text."""
    found = read_result(result)
    embed: dict[str, Any]
    if isinstance(found, RollResult) and found.kind == "roll":
        roll = found
        who = roll.who
        secret = f"{t(locale, 'embed.secret_roll')} · " if roll.secret else ""
        pool = _pool_words(roll, locale)
        title = f"{secret}{who} · {pool}" if who else f"{secret}{pool}"
        wp = " +1 WP" if roll.willpower else ""
        embed = {
            "title": escape(title),
            "color": colours.of(roll),
            "fields": [
                {"name": t(locale, "embed.dice"), "value": f"`{_faces(roll)}`{wp}", "inline": True},
                {"name": t(locale, "embed.total"), "value": f"**{roll.total}**", "inline": True},
                {"name": t(locale, "embed.degree"), "value": escape(_degree(roll)), "inline": True},
            ],
        }
    elif isinstance(found, ContestResult):
        sides = found.sides
        labels = [
            label or t(locale, "embed.opposition" if i else "embed.roller")
            for i, label in enumerate(found.names)
        ]
        outcome = found.outcome or ""
        versus = f" {t(locale, 'embed.vs')} "
        embed = {
            "title": escape(versus.join(labels[:2]) + f" · {outcome.replace('_', ' ').title()}"),
            "color": OUTCOME_COLOURS.get(outcome, CONTEST_COLOUR),
            "fields": [
                {
                    "name": escape(f"{label} · {_pool_words(side, locale)}"),
                    "value": _side_value(side),
                    "inline": False,
                }
                for label, side in zip(labels, sides, strict=False)
            ]
            + [
                {
                    "name": t(locale, "embed.margin"),
                    "value": str(found.details.get("margin", "-")),
                    "inline": True,
                }
            ],
        }
    else:
        return None
    if found.roll_id:
        embed["footer"] = {"text": f"#{clean(found.roll_id)}"}
    return embed


CHART = (
    "_chart"  # a body's chart (``gateway.rules.charts``), drawn and attached when it is sent; not Discord's
)


def with_chart(body: dict[str, Any], result: Mapping[str, Any] | None) -> dict[str, Any]:
    """``body`` noting the result's chart, if it has one: the picture is drawn when the body is sent
    (``attach``), so an outbox row or a kept answer holds the chart, never the PNG."""
    if chart_from_result(result) is None or result is None:
        return body
    return {**body, CHART: result["chart"]}


def attach(body: Mapping[str, Any], picture: Picture | None) -> dict[str, Any]:
    """The body to send: without the chart note, and with the picture (when there is one) as an
    embed's image that references the uploaded file (``attachment://odds.png``)."""
    out = {k: v for k, v in body.items() if k != CHART}
    if picture is None:
        return out
    raw = body.get(CHART)
    chart: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    embed: dict[str, Any] = {
        "title": safe(chart.get("title") or "", 256),
        "color": TEXT_COLOUR,
        "image": {"url": f"attachment://{picture.filename}"},
    }
    if not embed["title"]:
        del embed["title"]
    out["embeds"] = [*out.get("embeds", [])[: EMBEDS - 1], embed]
    out["attachments"] = [
        {"id": 0, "filename": picture.filename, "description": safe(chart.get("title") or "odds", 1024)}
    ]
    return fit_message(out)


def reply_message(
    text: str,
    private: bool,
    result: Mapping[str, Any] | None = None,
    locale: str = "en",
    colours: Colours = NO_COLOURS,
) -> dict[str, Any]:
    """A reply: its text as content (what notifications, search and screen readers show) and, for a
    roll or a contest, the result's embed under it (labels in ``locale``). Private replies and
    mistakes are ephemeral."""
    message = text_message(text, private=private)
    embed = result_embed(result, locale, colours)
    if embed is not None:
        message = fit_message({**message, "embeds": [embed, *message.get("embeds", [])]})
    return with_chart(message, result)


@dataclass(frozen=True)
class ReplyText:
    """One Discord message for a run of replies: its text, whether only the caller sees it, and the
    result it draws as an embed (a roll's or a contest's), if any."""

    text: str
    private: bool
    result: Mapping[str, Any] | None = None


def group_replies(
    replies: Sequence[Reply], alone: Callable[[Mapping[str, Any] | None], bool] | None = None
) -> list[ReplyText]:
    """Replies as messages: a reply with a roll or contest (or one ``alone`` picks: it has buttons)
    is a message of its own, its embed and buttons about it alone; other consecutive replies of the
    same privacy are joined while they fit. Private replies and mistakes are ephemeral (nobody else
    needs to read those)."""
    messages: list[ReplyText] = []
    for reply in replies:
        private = reply.private or reply.error is not None
        drawn = (
            result_embed(reply.result) is not None
            or chart_from_result(reply.result) is not None
            or (alone is not None and alone(reply.result))
        )
        last = messages[-1] if messages else None
        if not drawn and last is not None and last.result is None and last.private == private:
            joined = f"{last.text}\n{reply.text}"
            if len(escape(joined)) <= CONTENT:
                messages[-1] = ReplyText(joined, private)
                continue
        messages.append(ReplyText(reply.text, private, reply.result if drawn else None))
    return messages


# --------------------------------------------------------------------------- rolls (Storyteller log)


def platform_of(where: str) -> str:
    platform = where.partition(":")[0]
    return PLATFORMS.get(platform, platform.title() or "unknown")


def _faces(roll: RollResult) -> str:
    return " ".join(str(d) for d in roll.dice) or "no dice"


def _roll_line(roll: RollResult, label: str = "") -> str:
    what = escape(_pool_words(roll))
    wp = " +1 WP" if roll.willpower else ""
    degree = (roll.degree or "").title()
    total = roll.total
    prefix = f"{label}: " if label else ""
    return f"{prefix}{what}: `{_faces(roll)}`{wp} → **{total}** ({escape(degree)})"


def roll_embed(
    payload: Mapping[str, Any], when: datetime | None = None, colours: Colours = NO_COLOURS
) -> dict[str, Any]:
    """A compact embed for a Storyteller-log line: faces, total, degree, who, where, which platform."""
    result = payload.get("result") or {}
    who = str(payload.get("who") or result.get("who") or "someone")
    where = str(payload.get("where") or "")
    kind = str(result.get("kind") or payload.get("stlog_kind") or "")
    secret = bool(result.get("secret"))
    # The author is the character who rolled; the payload's ``who`` (the person) only when none did.
    who = str(result.get("who") or who)
    embed: dict[str, Any] = {"author": {"name": clean(who)}}
    roll_id = result.get("id")
    found = read_result(result)
    if kind == "roll" and isinstance(found, RollResult):
        degree = found.degree or ""
        embed["title"] = ("Secret roll · " if secret else "") + f"{degree.title()} · total {found.total}"
        embed["description"] = _roll_line(found)
        embed["color"] = colours.of(found)
    elif kind == "contest" and isinstance(found, ContestResult):
        outcome = (found.outcome or "").replace("_", " ")
        embed["title"] = (
            "Secret contest · " if secret else ""
        ) + f"{outcome.title()} · margin {found.details.get('margin')}"
        labels = [escape(who), "Opposition"]
        embed["description"] = "\n".join(
            _roll_line(side, labels[i] if i < 2 else f"Side {i + 1}") for i, side in enumerate(found.sides)
        )
        embed["color"] = OUTCOME_COLOURS.get(str(found.outcome), CONTEST_COLOUR)
    else:
        title = str(payload.get("stlog_kind") or kind or "Storyteller log").replace("_", " ")
        embed["title"] = escape(title.title())
        embed["description"] = escape(payload.get("text", ""))
        embed["color"] = TEXT_COLOUR
    embed.update(where_parts(where))
    footer = [embed.pop("_where"), platform_of(where)]
    if roll_id:
        footer.append(f"#{roll_id}")
    embed["footer"] = {"text": " · ".join(f for f in footer if f)}
    if when is not None:
        embed["timestamp"] = when.isoformat()
    return embed


def where_parts(where: str) -> dict[str, Any]:
    """Where a log line happened, for people: a Discord channel as a link (footers render no links,
    so the title links to it and a field mentions it), another platform's channel by its name."""
    platform, _, address = where.partition(":")
    if platform == "discord":
        guild, _, channel_id = address.partition("/")
        if guild == "@me":
            return {"_where": "direct message"}
        if guild.isdigit() and channel_id.isdigit():
            return {
                "_where": "",
                "url": f"https://discord.com/channels/{guild}/{channel_id}",
                "fields": [{"name": "Channel", "value": f"<#{channel_id}>", "inline": True}],
            }
    return {"_where": clean(address) or "unknown channel"}


# --------------------------------------------------------------------------- sheets


def _power_text(power: Power) -> str:
    details = [str(d).title() for d in (power.tier, power.trait) if d not in (None, "")]
    return f"• **{escape(power.name)}**" + (f" — {escape(', '.join(details))}" if details else "")


def _trait_fields(traits: Iterable[RatedTrait]) -> list[dict[str, Any]]:
    """One field per group of the sheet (Attributes, Skills), or one "Traits" field."""
    groups: dict[str, list[str]] = {}
    for trait in traits:
        rating = f"{trait.rating}/{trait.max}" if trait.max is not None else str(trait.rating)
        groups.setdefault(trait.group or "Traits", []).append(f"{escape(trait.label)} **{rating}**")
    return [
        {"name": safe(group, FIELD_NAME), "value": " · ".join(items), "inline": False}
        for group, items in groups.items()
    ]


def _chunks(lines: list[str], limit: int) -> list[str]:
    out: list[str] = []
    current = ""
    for line in lines:
        line = cut(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def sheet_embed(
    summary: SheetSummary,
    *,
    owner: str | None = None,
    reason: str = "",
    character_id: int | None = None,
    when: datetime | None = None,
) -> dict[str, Any]:
    """One embed for a character sheet of any rule system: free fields, traits, pools and powers."""
    embed: dict[str, Any] = {"title": safe(summary.name or "Unnamed character", TITLE), "color": SHEET_COLOUR}
    about = [summary.status.title()] if summary.status else []
    if owner:
        about.append(f"played by {owner}")
    if about:
        embed["description"] = escape(" · ".join(about))
    fields: list[dict[str, Any]] = []
    for field in summary.fields:
        if field.label.casefold() == "name" or not field.text:
            continue
        text = escape(field.text)
        fields.append({"name": safe(field.label, FIELD_NAME), "value": text, "inline": len(text) <= 40})
    fields.extend(_trait_fields(summary.traits))
    for pool in summary.pools:
        fields.append(
            {"name": safe(pool.label, FIELD_NAME), "value": f"{pool.current}/{pool.max}", "inline": True}
        )
    powers = [_power_text(p) for p in summary.powers]
    for i, chunk in enumerate(_chunks(powers, FIELD_VALUE)):
        fields.append({"name": "Powers" if i == 0 else "Powers (cont.)", "value": chunk, "inline": False})
    embed["fields"] = fields
    footer = [REASONS.get(reason, reason)]
    if character_id is not None:
        footer.append(f"character {character_id}")
    footer = [f for f in footer if f]
    if footer:
        embed["footer"] = {"text": clean(" · ".join(footer))}
    if when is not None:
        embed["timestamp"] = when.isoformat()
    return embed


def payload_sheet_embed(payload: Mapping[str, Any], when: datetime | None = None) -> dict[str, Any]:
    """The embed for a ``sheet`` outbox row: its ``summary`` (``SheetSummary.as_json``)."""
    character_id = payload.get("character_id")
    return sheet_embed(
        SheetSummary.from_json(payload["summary"]),
        owner=str(payload["owner"]) if payload.get("owner") else None,
        reason=str(payload.get("reason") or ""),
        character_id=character_id if isinstance(character_id, int) else None,
        when=when,
    )


# --------------------------------------------------------------------------- outbox rows


def outbox_message(
    payload: Mapping[str, Any], when: datetime | None = None, colours: Colours = NO_COLOURS
) -> dict[str, Any]:
    """The webhook body for one outbox row (a Storyteller-log line, a sheet, or any text); a roll's
    embed in its system's degree colour (``colours``)."""
    kind = payload.get("kind")
    if kind == "sheet" and isinstance(payload.get("summary"), Mapping):
        return fit_message({"embeds": [payload_sheet_embed(payload, when)]})
    if kind == "stlog":
        return fit_message({"embeds": [roll_embed(payload, when, colours)]})
    result = payload.get("result")
    return with_chart(text_message(str(payload.get("text", "")), allow_flags=False), result)
