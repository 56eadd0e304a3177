"""A fake Discord API on loopback that behaves as the documentation says, for the adapter tests.

- ``POST /api/v10/webhooks/{id}/{token}``: Execute Webhook, and interaction follow-ups (``id`` is the
  application id and ``token`` an interaction token the test registered). Checks the path and token
  (404 ``Unknown Webhook`` otherwise), validates the body against the message and embed limits (400
  ``Invalid Form Body``), and enforces two fixed windows: ``webhook_limit`` per ``webhook_window`` per
  webhook and ``channel_limit`` per ``channel_window`` per channel. A window starts with the first
  request that finds none running. Every answer carries the ``X-RateLimit-*`` headers of the bucket
  closest to running out (fewest left; on a tie the one that resets later), each bucket with its own
  ``X-RateLimit-Bucket`` id; a request over a limit gets 429 with ``retry_after`` and is counted.
- ``PUT /api/v10/applications/{app}/commands`` and ``.../guilds/{guild}/commands``: bulk overwrite,
  checks the bot token and validates every command; ids stay the same for the same names.
- ``invocation_problems``: what a Discord client refuses to send for a registered command (unknown or
  missing options, wrong types, integers out of ``min_value``/``max_value``); ``answer_problems``: an
  interaction answer Discord drops (late, or an autocomplete answer of the wrong shape).
- Faults on demand: ``fail(key, status, times)``, ``hang(key, seconds, times)``, ``slow(key, seconds,
  times)``, ``delete(webhook)``.
- ``headers=False`` hides the limits (429 is then the only signal), for the safety-cap tests.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

API = "/api/v10"
# CHAT_INPUT names: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where a lowercase form
# exists (application-commands.mdx "Application Command Naming"); ``\w`` is letters, digits and ``_``.
NAME = re.compile(r"^[-_'\w]{1,32}$")
# developers/reference.mdx "Locales": the keys name_localizations/description_localizations accept.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
INTEGER_LIMIT = 2**53  # INTEGER option values lie strictly between -2^53 and 2^53
DEADLINE = (
    3.0  # seconds: an interaction not answered in time is shown as failed (receiving-and-responding.mdx)
)


@dataclass
class FakeWebhook:
    id: str
    token: str
    channel_id: str
    deleted: bool = False


@dataclass
class Received:
    webhook_id: str
    channel_id: str
    body: dict[str, Any]
    at: float
    follow_up: bool = False
    files: dict[str, bytes] = field(default_factory=dict)  # filename -> bytes, from a multipart upload


class FixedWindow:
    def __init__(self, bucket: str, limit: int, seconds: float) -> None:
        self.bucket = bucket
        self.limit = limit
        self.seconds = seconds
        self.start: float | None = None
        self.count = 0

    def _roll(self, now: float) -> None:
        if self.start is None or now >= self.start + self.seconds:
            self.start, self.count = None, 0

    def allows(self, now: float) -> bool:
        self._roll(now)
        return self.count < self.limit

    def take(self, now: float) -> None:
        self._roll(now)
        if self.start is None:
            self.start = now
        self.count += 1

    def remaining(self, now: float) -> int:
        self._roll(now)
        return self.limit - self.count

    def reset_after(self, now: float) -> float:
        self._roll(now)
        return self.seconds if self.start is None else max(0.0, self.start + self.seconds - now)


def _ceil_ms(value: float) -> float:
    return math.ceil(value * 1000) / 1000


def message_problems(body: Any) -> list[str]:
    """What Discord would refuse in a message body (the documented limits)."""
    if not isinstance(body, dict):
        return ["body is not an object"]
    problems = []
    content = body.get("content")
    embeds = body.get("embeds") or []
    if not content and not embeds:
        problems.append("empty message")
    if content is not None and len(content) > 2000:
        problems.append("content over 2000")
    if len(embeds) > 10:
        problems.append("more than 10 embeds")
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            if len(e.get(key, "")) > limit:
                problems.append(f"embeds.{i}.{key} over {limit}")
            total += len(e.get(key, ""))
        if e.get("type", "rich") != "rich" or any(k in e for k in ("provider", "video")):
            problems.append(f"embeds.{i}: webhook embeds are rich only")
        fields = e.get("fields", [])
        if len(fields) > 25:
            problems.append(f"embeds.{i}: more than 25 fields")
        for j, f in enumerate(fields):
            name, value = f.get("name", ""), f.get("value", "")
            if not name or len(name) > 256:
                problems.append(f"embeds.{i}.fields.{j}.name")
            if not value or len(value) > 1024:
                problems.append(f"embeds.{i}.fields.{j}.value")
            total += len(name) + len(value)
        footer = (e.get("footer") or {}).get("text", "")
        author = (e.get("author") or {}).get("name", "")
        if len(footer) > 2048:
            problems.append(f"embeds.{i}.footer over 2048")
        if len(author) > 256:
            problems.append(f"embeds.{i}.author over 256")
        total += len(footer) + len(author)
    if total > 6000:
        problems.append(f"embeds total {total} over 6000")
    username = body.get("username")
    if username is not None and (not 1 <= len(username) <= 80 or "discord" in username.lower()):
        problems.append("username")
    return problems


def command_problems(commands: Any) -> list[str]:
    """What Discord would refuse in a bulk overwrite of chat-input commands."""
    if not isinstance(commands, list):
        return ["body is not an array"]
    problems = []
    if len(commands) > 100:
        problems.append("more than 100 commands")
    seen = set()

    def options(where: str, opts: list[dict[str, Any]], depth: int) -> None:
        if len(opts) > 25:
            problems.append(f"{where}: more than 25 options")
        names = set()
        optional_seen = False
        for o in opts:
            name = o.get("name", "")
            if not NAME.match(name) or name != name.lower():
                problems.append(f"{where}.{name}: bad name")
            if name in names:
                problems.append(f"{where}.{name}: duplicate")
            names.add(name)
            if not 1 <= len(o.get("description", "")) <= 100:
                problems.append(f"{where}.{name}: description length")
            kind = o.get("type")
            if kind in (1, 2):
                if depth >= 2 or (kind == 2 and depth >= 1):
                    problems.append(f"{where}.{name}: nested too deep")
                options(f"{where}.{name}", o.get("options", []), depth + 1)
            else:
                if kind not in range(3, 12):
                    problems.append(f"{where}.{name}: bad type")
                if o.get("required"):
                    if optional_seen:
                        problems.append(f"{where}.{name}: required after optional")
                else:
                    optional_seen = True
                if len(o.get("choices", [])) > 25:
                    problems.append(f"{where}.{name}: more than 25 choices")
                if o.get("max_length", 1) > 6000 or o.get("max_length", 1) < 1:
                    problems.append(f"{where}.{name}: max_length out of range")
                problems.extend(f"{where}.{name}: {p}" for p in typed_problems(o))
            problems.extend(f"{where}.{name}: {p}" for p in localisation_problems(o))

    for c in commands:
        name = c.get("name", "")
        if not NAME.match(name) or name != name.lower():
            problems.append(f"{name}: bad name")
        if name in seen:
            problems.append(f"{name}: duplicate command")
        seen.add(name)
        if not 1 <= len(c.get("description", "")) <= 100:
            problems.append(f"{name}: description length")
        options(name, c.get("options", []), 0)
        problems.extend(f"{name}: {p}" for p in localisation_problems(c))
        permissions = c.get("default_member_permissions")
        if permissions is not None and not (isinstance(permissions, str) and permissions.isdigit()):
            problems.append(f"{name}: default_member_permissions is a string of digits (a bitfield) or null")
        if text_size(c) > 8000:
            problems.append(f"{name}: names, descriptions and choices over 8000 characters")
    return problems


def longest(item: dict[str, Any], key: str) -> int:
    """The longest of ``key`` and its localisations (Discord counts the longest toward the 8000)."""
    localised = (item.get(f"{key}_localizations") or {}).values()
    return max([len(item.get(key, "")), *(len(v) for v in localised)])


def text_size(item: dict[str, Any]) -> int:
    """Name, description and choice lengths of a command and everything in it, each at its longest
    localisation: Discord caps it at 8000 (application-commands.mdx "Slash Commands")."""
    size = longest(item, "name") + longest(item, "description")
    size += sum(len(c["name"]) + len(str(c["value"])) for c in item.get("choices", []))
    return size + sum(text_size(o) for o in item.get("options", []))


def localisation_problems(item: dict[str, Any]) -> list[str]:
    """Localised names follow the naming rule, descriptions are 1-100 characters, keys are locales
    (application-commands.mdx "Localization"; reference.mdx "Locales")."""
    problems = []
    for key in ("name_localizations", "description_localizations"):
        table = item.get(key)
        if table is None:
            continue
        if not isinstance(table, dict):
            problems.append(f"{key} is no object")
            continue
        for locale, text in table.items():
            if locale not in LOCALES:
                problems.append(f"{key}: {locale!r} is no Discord locale")
            elif key == "name_localizations" and (
                not isinstance(text, str) or not NAME.match(text) or text != text.lower()
            ):
                problems.append(f"{key}.{locale}: bad name {text!r}")
            elif key == "description_localizations" and not (isinstance(text, str) and 1 <= len(text) <= 100):
                problems.append(f"{key}.{locale}: description length")
    return problems


def typed_problems(option: dict[str, Any]) -> list[str]:
    """min/max values on numbers only and in order, lengths on strings only, autocomplete on
    STRING/INTEGER/NUMBER and never with choices (application-commands.mdx option structure)."""
    kind = option.get("type")
    problems = []
    low, high = option.get("min_value"), option.get("max_value")
    for bound in (low, high):
        if bound is None:
            continue
        if kind not in (4, 10):
            problems.append("min_value/max_value are for INTEGER and NUMBER options")
        elif isinstance(bound, bool) or not isinstance(bound, (int, float)) or abs(bound) >= INTEGER_LIMIT:
            problems.append(f"bound {bound!r} is no number Discord takes")
        elif kind == 4 and not isinstance(bound, int):
            problems.append(f"an INTEGER bound must be an integer, not {bound!r}")
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and low > high:
        problems.append("min_value above max_value")
    if ("min_length" in option or "max_length" in option) and kind != 3:
        problems.append("min_length/max_length are for STRING options")
    if option.get("autocomplete"):
        if kind not in (3, 4, 10):
            problems.append("autocomplete is for STRING, INTEGER and NUMBER options")
        if option.get("choices"):
            problems.append("autocomplete and choices exclude each other")
    for choice in option.get("choices", []):
        if not 1 <= len(choice.get("name", "")) <= 100:
            problems.append("choice name length")
    return problems


def _find(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((c for c in commands if c.get("name") == name), None)


def invocation_problems(commands: list[dict[str, Any]], data: dict[str, Any]) -> list[str]:
    """What a Discord client will not send for ``data`` (an interaction's ``data``) given the registered
    ``commands``: it only offers registered options, keeps required ones, and holds typed values to
    their type and bounds (application-commands.mdx option structure; validation is the client's)."""
    command = _find(commands, str(data.get("name")))
    if command is None:
        return [f"/{data.get('name')} is not registered"]
    spec, given = command, data.get("options") or []
    subs = [o for o in command.get("options", []) if o.get("type") == 1]
    if subs:
        chosen = next((o for o in given if o.get("type") == 1), None)
        sub = _find(subs, str(chosen.get("name"))) if chosen else None
        if sub is None or chosen is None:
            return ["no registered subcommand chosen"]
        spec, given = sub, chosen.get("options") or []
    declared = {o["name"]: o for o in spec.get("options", [])}
    problems = []
    values = {o.get("name"): o for o in given}
    for name, o in declared.items():
        if o.get("required") and name not in values:
            problems.append(f"{name}: required")
    for name, sent in values.items():
        o = declared.get(str(name))
        if o is None:
            problems.append(f"{name}: not an option of this command")
            continue
        value, kind = sent.get("value"), o["type"]
        if sent.get("type", kind) != kind:
            problems.append(f"{name}: sent as type {sent.get('type')}, registered as {kind}")
        if kind == 4 and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(f"{name}: {value!r} is no integer")
            continue
        if kind in (4, 10):
            if "min_value" in o and value < o["min_value"]:
                problems.append(f"{name}: {value} below {o['min_value']}")
            if "max_value" in o and value > o["max_value"]:
                problems.append(f"{name}: {value} above {o['max_value']}")
        if kind == 3 and len(str(value)) > o.get("max_length", 6000):
            problems.append(f"{name}: longer than {o.get('max_length', 6000)}")
        if kind == 6 and not str(value).isdigit():
            problems.append(f"{name}: {value!r} is no user id")
    return problems


def answer_problems(response: Any, seconds: float, *, autocomplete: bool = False) -> list[str]:
    """Why Discord would drop an interaction's answer: later than 3 s, or, for an autocomplete,
    anything but type 8 with at most 25 choices of 1-100 character names and values of at most 100
    (receiving-and-responding.mdx "Interaction Callback Type", "Autocomplete")."""
    problems = []
    if seconds > DEADLINE:
        problems.append(f"answered after {seconds:.2f} s: the interaction failed")
    if not autocomplete:
        return problems
    if not isinstance(response, dict) or response.get("type") != 8:
        return [*problems, "an autocomplete is answered with type 8 only"]
    choices = (response.get("data") or {}).get("choices")
    if not isinstance(choices, list):
        return [*problems, "data.choices is no array"]
    if len(choices) > 25:
        problems.append(f"{len(choices)} choices, at most 25")
    for i, choice in enumerate(choices):
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(f"choices.{i}.name length")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"choices.{i}.value over 100")
        if value is None:
            problems.append(f"choices.{i}.value missing")
    return problems


@dataclass
class FakeDiscord:
    webhook_limit: int = 5
    webhook_window: float = 2.0
    channel_limit: int = 30
    channel_window: float = 60.0
    headers: bool = True
    application_id: str = "100000000000000001"
    bot_token: str = "fake-bot-token"
    clock: Any = time.monotonic
    webhooks: dict[str, FakeWebhook] = field(default_factory=dict)
    interaction_tokens: dict[str, str] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    refused: list[tuple[int, Any]] = field(default_factory=list)
    rate_limited: int = 0
    not_found: int = 0
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    callbacks: dict[str, Received] = field(default_factory=dict)  # interaction id -> its callback
    command_puts: int = 0
    _windows: dict[str, FixedWindow] = field(default_factory=dict)
    _faults: dict[str, deque[tuple[str, float]]] = field(default_factory=dict)
    _ids: int = 900000000000000000
    base_url: str = ""
    _runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ set-up

    def add_webhook(self, channel_id: str = "200") -> FakeWebhook:
        self._ids += 1
        hook = FakeWebhook(id=str(self._ids), token=secrets.token_urlsafe(24), channel_id=channel_id)
        self.webhooks[hook.id] = hook
        return hook

    def webhook_url(self, hook: FakeWebhook) -> str:
        return f"https://discord.com/api/webhooks/{hook.id}/{hook.token}"

    def add_interaction(self, token: str, channel_id: str = "200") -> None:
        self.interaction_tokens[token] = channel_id

    def fail(self, key: str, status: int, times: int = 1) -> None:
        self._faults.setdefault(key, deque()).extend([("status", float(status))] * times)

    def unavailable(self, key: str, retry_after: float, times: int = 1) -> None:
        """503 with ``Retry-After`` (an outage behind a load balancer that says when to come back)."""
        self._faults.setdefault(key, deque()).extend([("unavailable", retry_after)] * times)

    def hang(self, key: str, seconds: float, times: int = 1) -> None:
        self._faults.setdefault(key, deque()).extend([("hang", seconds)] * times)

    def slow(self, key: str, seconds: float, times: int = 1) -> None:
        """Answer normally, but only after ``seconds``."""
        self._faults.setdefault(key, deque()).extend([("slow", seconds)] * times)

    def delete(self, hook: FakeWebhook) -> None:
        hook.deleted = True

    def bodies(self, webhook_id: str | None = None) -> list[dict[str, Any]]:
        return [r.body for r in self.received if webhook_id is None or r.webhook_id == webhook_id]

    def _window(self, key: str, bucket: str, limit: int, seconds: float) -> FixedWindow:
        if key not in self._windows:
            self._windows[key] = FixedWindow(bucket, limit, seconds)
        return self._windows[key]

    # ------------------------------------------------------------------ server

    async def start(self) -> FakeDiscord:
        # Bodies up to Discord's own request limit reach the checks (aiohttp's default stops at 1 MiB).
        app = web.Application(client_max_size=REQUEST_LIMIT + 1024 * 1024)
        app.router.add_post(API + "/webhooks/{id}/{token}", self._execute)
        app.router.add_post(API + "/interactions/{id}/{token}/callback", self._callback)
        app.router.add_put(API + "/applications/{app}/commands", self._put_commands)
        app.router.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        self.add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}{API}"
        return self

    def add_routes(self, app: web.Application) -> None:
        """More routes before the server starts (the Gateway and bot routes: fake_gateway.py)."""

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ execute webhook

    def _rate_headers(self, windows: list[FixedWindow], now: float) -> dict[str, str]:
        if not self.headers:
            return {}
        tightest = min(windows, key=lambda w: (w.remaining(now), -w.reset_after(now)))
        reset_after = _ceil_ms(tightest.reset_after(now))
        return {
            "X-RateLimit-Limit": str(tightest.limit),
            "X-RateLimit-Remaining": str(max(0, tightest.remaining(now))),
            "X-RateLimit-Reset": f"{_ceil_ms(time.time() + reset_after):.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": tightest.bucket,
        }

    async def _execute(self, request: web.Request) -> web.Response:
        hook_id, token = request.match_info["id"], request.match_info["token"]
        follow_up = hook_id == self.application_id
        if follow_up:
            channel = self.interaction_tokens.get(token)
            key = token
        else:
            hook = self.webhooks.get(hook_id)
            channel = hook.channel_id if hook and not hook.deleted and hook.token == token else None
            key = hook_id
        if channel is None:
            self.not_found += 1
            return web.json_response({"message": "Unknown Webhook", "code": 10015}, status=404)
        faults = self._faults.get(key)
        if faults:
            kind, value = faults.popleft()
            if kind == "status":
                return web.json_response({"message": "fault", "code": 0}, status=int(value))
            if kind == "unavailable":
                return web.Response(status=503, text="upstream down", headers={"Retry-After": f"{value:g}"})
            await asyncio.sleep(value)
            if kind == "hang":
                return web.json_response({"message": "gateway timeout", "code": 0}, status=504)
        now = self.clock()
        windows = [
            self._window(f"webhook:{key}", f"wh-{key[:12]}", self.webhook_limit, self.webhook_window),
            self._window(f"channel:{channel}", f"ch-{channel}", self.channel_limit, self.channel_window),
        ]
        full = [w for w in windows if not w.allows(now)]
        if full:
            self.rate_limited += 1
            worst = max(full, key=lambda w: w.reset_after(now))
            retry_after = _ceil_ms(worst.reset_after(now))
            headers = self._rate_headers(full, now) if self.headers else {}
            headers.update({"Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": "user"})
            body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
            return web.json_response(body, status=429, headers=headers)
        upload = await read_upload(request)
        body = upload.body
        problems = upload.problems + message_problems(body) + attachment_problems(body, upload)
        if follow_up and isinstance(body, dict) and "username" in body:
            problems.append("follow-ups cannot set a username")
        if problems:
            self.refused.append((400, problems))
            error = {"message": "Invalid Form Body", "code": 50035, "errors": problems}
            return web.json_response(error, status=400, headers=self._rate_headers(windows, now))
        for w in windows:
            w.take(now)
        self.received.append(Received(hook_id, channel, body, now, follow_up, upload.files))
        headers = self._rate_headers(windows, now)
        if request.query.get("wait") != "true":
            return web.Response(status=204, headers=headers)
        self._ids += 1
        message = {
            "id": str(self._ids),
            "channel_id": channel,
            "webhook_id": hook_id,
            "content": body.get("content", ""),
            "embeds": body.get("embeds", []),
            "flags": body.get("flags", 0),
        }
        return web.json_response(message, headers=headers)

    # ------------------------------------------------------------------ interaction callback

    async def _callback(self, request: web.Request) -> web.Response:
        """Create Interaction Response: once per interaction, for a token Discord issued; the body
        checked as an HTTP answer would be, plus its files (204, as without ``with_response``)."""
        interaction_id, token = request.match_info["id"], request.match_info["token"]
        channel = self.interaction_tokens.get(token)
        if channel is None:
            self.not_found += 1
            return web.json_response({"message": "Unknown interaction", "code": 10062}, status=404)
        if interaction_id in self.callbacks:
            error = {"message": "Interaction has already been acknowledged.", "code": 40060}
            return web.json_response(error, status=400)
        upload = await read_upload(request)
        data = upload.body.get("data") if isinstance(upload.body, dict) else None
        problems = upload.problems + response_problems(upload.body) + attachment_problems(data, upload)
        if problems:
            self.refused.append((400, problems))
            return web.json_response(
                {"message": "Invalid Form Body", "code": 50035, "errors": problems}, status=400
            )
        self.callbacks[interaction_id] = Received(
            interaction_id, channel, upload.body, self.clock(), True, upload.files
        )
        return web.Response(status=204)

    # ------------------------------------------------------------------ commands

    async def _put_commands(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.match_info["app"] != self.application_id:
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        commands = await request.json()
        problems = command_problems(commands)
        if problems:
            return web.json_response(
                {"message": "Invalid Form Body", "code": 50035, "errors": problems}, status=400
            )
        self.command_puts += 1
        scope = request.match_info.get("guild", "global")
        old = {c["name"]: c["id"] for c in self.commands.get(scope, [])}
        stored = []
        for c in commands:
            if c["name"] in old:
                command_id = old[c["name"]]
            else:
                self._ids += 1
                command_id = str(self._ids)
            stored.append({**c, "id": command_id, "application_id": self.application_id, "version": "1"})
        self.commands[scope] = stored
        return web.json_response(stored)


# --------------------------------------------------------------------------- components and responses
# Added for issue 14 (embeds and buttons). Sources, as summarised in /work/shared/protocols-2.md §1.1
# and §1.4: discord-api-docs developers/components/reference.mdx (action rows hold up to 5 buttons or
# one select; a message holds up to 5 rows without IS_COMPONENTS_V2; button styles 1-4 need a
# custom_id, 5 a url of up to 512 characters; labels up to 80; custom_id 1-100 characters, unique
# within the message), developers/resources/message.mdx (embed limits; ``color`` an integer RGB) and
# developers/interactions/receiving-and-responding.mdx (callback types; 6 and 7 for components only).

ROWS, ROW_BUTTONS, CUSTOM_ID, LABEL, LINK_URL = 5, 5, 100, 80, 512
CALLBACKS = {1, 4, 5, 6, 7, 8, 9}
COMPONENT_ONLY = {6, 7}


def component_problems(components: Any) -> list[str]:
    """What Discord would refuse in a message's legacy ``components`` (action rows of buttons)."""
    if components is None:
        return []
    if not isinstance(components, list) or len(components) > ROWS:
        return [f"components: at most {ROWS} action rows"]
    problems: list[str] = []
    seen: set[str] = set()
    for i, row in enumerate(components):
        if not isinstance(row, dict) or row.get("type") != 1:
            problems.append(f"components.{i}: not an action row")
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= ROW_BUTTONS:
            problems.append(f"components.{i}: 1 to {ROW_BUTTONS} buttons")
        for j, item in enumerate(items):
            where = f"components.{i}.components.{j}"
            if item.get("type") != 2:
                problems.append(f"{where}: only buttons are checked here")
                continue
            style, label = item.get("style"), item.get("label", "")
            if style not in range(1, 7):
                problems.append(f"{where}.style")
            if len(label) > LABEL:
                problems.append(f"{where}.label over {LABEL}")
            if style == 5:
                if "custom_id" in item or not 1 <= len(item.get("url", "")) <= LINK_URL:
                    problems.append(f"{where}: a link button has a url and no custom_id")
                continue
            custom_id = item.get("custom_id")
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID:
                problems.append(f"{where}.custom_id must be 1-{CUSTOM_ID} characters")
            elif custom_id in seen:
                problems.append(f"{where}.custom_id not unique in the message")
            else:
                seen.add(custom_id)
    return problems


def embed_shape_problems(body: Any) -> list[str]:
    """Embed fields the limits check above does not cover: ``color`` an integer 0..0xFFFFFF."""
    problems = []
    for i, embed in enumerate((body or {}).get("embeds") or [] if isinstance(body, dict) else []):
        color = embed.get("color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            problems.append(f"embeds.{i}.color")
    return problems


_limits_problems = message_problems


def message_problems(body: Any) -> list[str]:  # type: ignore[no-redef]  # extends the check above
    """Every documented refusal of a message body: limits, embed shapes and components."""
    problems = _limits_problems(body)
    if isinstance(body, dict):
        problems += embed_shape_problems(body) + component_problems(body.get("components"))
    return problems


# Uploading Files (developers/reference.mdx): 10 MiB a file by default, 25 MiB a request; embeds
# show only these image types through ``attachment://``.
FILE_LIMIT = 10 * 1024 * 1024
REQUEST_LIMIT = 25 * 1024 * 1024
EMBED_IMAGE_TYPES = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
    "gif": "image/gif",
}
FILE_PART = re.compile(r"^files\[(\d+)\]$")


@dataclass
class Upload:
    body: Any
    files: dict[str, bytes]
    types: dict[str, str]
    problems: list[str]


async def read_upload(request: web.Request) -> Upload:
    """A request body as Discord reads it: JSON, or multipart/form-data with the JSON in
    ``payload_json`` and files in ``files[n]`` parts (each with a filename)."""
    if request.content_type != "multipart/form-data":
        try:
            return Upload(await request.json(), {}, {}, [])
        except ValueError:
            return Upload(None, {}, {}, [])
    if (request.content_length or 0) > REQUEST_LIMIT:
        return Upload(None, {}, {}, ["request entity too large"])
    body: Any = None
    files: dict[str, bytes] = {}
    types: dict[str, str] = {}
    problems: list[str] = []
    total = 0
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        assert isinstance(part, aiohttp.BodyPartReader)
        data = await part.read(decode=False)
        total += len(data)
        if part.name == "payload_json":
            try:
                body = json.loads(data)
            except ValueError:
                problems.append("payload_json is not JSON")
        elif part.name and FILE_PART.match(part.name):
            if not part.filename:
                problems.append(f"{part.name} without a filename")
                continue
            if len(data) > FILE_LIMIT:
                problems.append(f"{part.name} is larger than {FILE_LIMIT} bytes")
            files[part.filename] = data
            types[part.filename] = part.headers.get("Content-Type", "")
        else:
            problems.append(f"unknown form part {part.name!r}")
    if total > REQUEST_LIMIT:
        problems.append("request entity too large")
    if body is None and not problems:
        problems.append("multipart body without payload_json")
    return Upload(body, files, types, problems)


def attachment_problems(body: Any, upload: Upload) -> list[str]:
    """Every ``attachment://NAME`` an embed references must be a file of this request, of an image
    type embeds show (by its extension and its part's Content-Type); ``attachments`` may name
    only uploaded files, by the index of their ``files[n]`` part."""
    problems: list[str] = []
    if not isinstance(body, dict):
        return problems
    for i, embed in enumerate(body.get("embeds") or []):
        for key in ("image", "thumbnail"):
            url = str(((embed or {}).get(key) or {}).get("url") or "")
            if not url.startswith("attachment://"):
                continue
            name = url[len("attachment://") :]
            if name not in upload.files:
                problems.append(f"embeds.{i}.{key}.url references {name!r}, which was not uploaded")
                continue
            wanted = EMBED_IMAGE_TYPES.get(name.rpartition(".")[2].lower())
            if wanted is None or upload.types.get(name) != wanted:
                problems.append(f"embeds.{i}.{key}: {name!r} is not an image embeds show")
    for j, att in enumerate(body.get("attachments") or []):
        if not isinstance(att, dict) or str(att.get("filename")) not in upload.files:
            problems.append(f"attachments.{j} names no uploaded file")
        elif not isinstance(att.get("id"), int | str) or int(att["id"]) >= len(upload.files):
            problems.append(f"attachments.{j}.id is not the index of a files[n] part")
    return problems


def response_problems(response: Any, interaction_type: int = 2) -> list[str]:
    """What Discord would refuse in the HTTP answer to an interaction of ``interaction_type``."""
    if not isinstance(response, dict) or response.get("type") not in CALLBACKS:
        return ["not an interaction callback"]
    kind = response["type"]
    if kind in COMPONENT_ONLY and interaction_type != 3:
        return [f"callback {kind} answers message components only"]
    if kind in (4, 7):
        return message_problems(response.get("data"))
    return []
