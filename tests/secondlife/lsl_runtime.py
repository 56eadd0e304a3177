"""A small Second Life simulator for the LSL scripts themselves, run by lummao in separate processes.

Each script runs in its own ``lsl_driver.py`` process (GPLv3, it imports lummao; nothing here
imports it). The driver forwards every simulator function the script calls as a JSON line; this
module answers as a region would:

- chat: ``llListen`` filters, ``llSay``/``llRegionSay``/``llOwnerSay``, an avatar typing on a channel;
- dialogs: ``llDialog`` and ``llTextBox`` are shown to the avatar, within the simulator's limits (at
  most 12 buttons of 1-24 bytes, a message of 1-511 bytes: anything else is a script error there and
  a problem here); a click is the avatar saying the button's label on the dialog's channel;
- HTTP: ``llHTTPRequest`` goes out for real (with the headers a simulator adds), the answer is cut to
  ``HTTP_BODY_MAXLENGTH`` and comes back as ``http_response``; ``llRequestURL`` grants a real loopback
  HTTP-in URL whose requests arrive as ``http_request`` and are answered by ``llHTTPResponse``;
- link messages between the scripts of one object, ``llHMAC`` (the standard library's HMAC), timers.

Time: ``llGetTime`` and timers run on a virtual clock that moves only when the test lets time pass
(a human reading a dialog, ``until``), so the scripts' 1.2 s gap between requests holds without the
test sleeping. ``llGetUnixTime`` is the real clock (the gateway checks timestamps against it).

Every command answer the gateway marks as an error is a refusal: unless the test expects it
(``expect_refusal``), the next step fails. So does any dialog outside the limits or a script error.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hmac
import json
import re
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from tests.secondlife.harness import SL_VERSION, free_port

DRIVER = Path(__file__).with_name("lsl_driver.py")
LSL = Path(__file__).resolve().parents[2] / "adapters" / "secondlife" / "lsl"
NULL_KEY = "00000000-0000-0000-0000-000000000000"
URL_REQUEST_GRANTED = "URL_REQUEST_GRANTED"
# llHTTPRequest options (the wiki's constants).
HTTP_METHOD, HTTP_MIMETYPE, HTTP_BODY_MAXLENGTH, HTTP_VERIFY_CERT = 0, 1, 2, 3
HTTP_VERBOSE_THROTTLE, HTTP_CUSTOM_HEADER = 4, 5
AGENT_LIST_REGION = 4
LINK_THIS = -4
THINK = 2.0  # virtual seconds an avatar takes to read a dialog and click


class Problem(AssertionError):
    """Something a real simulator would refuse, or a command the gateway refused."""


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


@dataclass
class Avatar:
    key: str
    name: str  # legacy name, "Mira Vance"
    username: str = ""
    heard: list[str] = field(default_factory=list)  # llOwnerSay lines of the HUDs it wears

    @property
    def display(self) -> str:
        return self.name


@dataclass
class Dialog:
    script: Script
    channel: int
    message: str
    buttons: list[str] | None  # None: a text box
    menu: str  # the script's gMenu when it was shown (the menu() or ask() id)


@dataclass
class Chat:
    channel: int
    speaker: str
    speaker_key: str
    text: str


@dataclass
class Listen:
    channel: int
    name: str
    key: str
    message: str

    def hears(self, channel: int, name: str, key: str, message: str) -> bool:
        return (
            self.channel == channel
            and (not self.name or self.name == name)
            and (self.key in ("", NULL_KEY) or self.key == key)
            and (not self.message or self.message == message)
        )


@dataclass
class Exchange:
    """One llHTTPRequest and what came back."""

    script: str
    object_key: str
    url: str
    body: str
    status: int = 0
    answer: str = ""

    @property
    def text(self) -> str | None:
        try:
            return str(json.loads(self.body).get("text"))
        except (ValueError, AttributeError):
            return None


class SimObject:
    def __init__(self, sim: Sim, name: str, owner: Avatar) -> None:
        self.sim = sim
        self.key = str(uuid.uuid4())
        self.name = name
        self.owner = owner
        self.scripts: list[Script] = []

    def script(self, name: str) -> Script:
        return next(s for s in self.scripts if s.name == name)


class Script:
    """One running LSL script: its driver process and the simulator state that belongs to it."""

    def __init__(self, sim: Sim, obj: SimObject, name: str, source: str) -> None:
        self.sim = sim
        self.obj = obj
        self.name = name
        self.source = source
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.busy = False
        self.listens: dict[int, Listen] = {}
        self.next_handle = 1
        self.timer_period = 0.0
        self.timer_due = 0.0
        self.started = sim.clock
        self.urls: dict[str, str] = {}  # path -> url
        self.menu = "?"
        self.proc: asyncio.subprocess.Process | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def label(self) -> str:
        return f"{self.obj.name}/{self.name}"

    async def start(self, workdir: Path) -> None:
        path = workdir / f"{self.obj.key}-{self.name}.lsl"
        path.write_text(self.source, encoding="utf-8")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(DRIVER),
            str(path),
            "--watch",
            "gMenu",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 20,
        )
        ready = await self._read()
        if not ready.get("ready"):
            raise Problem(f"{self.label} did not start: {ready}")
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.proc is not None and self.proc.returncode is None:
            assert self.proc.stdin is not None
            with contextlib.suppress(Exception):
                self.proc.stdin.write(b'{"quit": true}\n')
                await self.proc.stdin.drain()
            try:
                await asyncio.wait_for(self.proc.wait(), 5)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def queue(self, event: str, *args: Any, detected: list[dict[str, str]] | None = None) -> None:
        self.events.put_nowait({"event": event, "args": list(args), "detected": detected or []})

    async def _read(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = await self.proc.stdout.readline()
        if not line:
            raise Problem(f"{self.label}: the driver exited")
        return dict(json.loads(line))

    async def _write(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode())
        await self.proc.stdin.drain()

    async def _run(self) -> None:
        while True:
            event = await self.events.get()
            self.busy = True
            try:
                await self._write(event)
                while True:
                    message = await self._read()
                    if "call" in message:
                        self.menu = str((message.get("globals") or {}).get("gMenu") or "")
                        ret = self.sim.call(self, message["call"], message["args"])
                        await self._write({"ret": ret})
                    elif "error" in message:
                        self.sim.problem(
                            f"{self.label}: run-time error in {event['event']}\n{message['error']}"
                        )
                    elif message.get("idle"):
                        break
            except Exception as exc:  # a broken pipe: the test must hear of it
                self.sim.problem(f"{self.label}: {exc!r}")
                raise
            finally:
                self.busy = False


class Sim:
    """One region with its avatars and objects, and the loopback HTTP-in server for their URLs."""

    def __init__(self, workdir: Path, *, region: str = "Nightcap Sim", secret: str = "") -> None:
        self.workdir = workdir
        self.region = region
        self.secret = secret
        self.clock = 0.0
        self.avatars: dict[str, Avatar] = {}
        self.objects: list[SimObject] = []
        self.problems: list[str] = []
        self.refusals: list[tuple[str, str, str]] = []  # (script, command line, reply)
        self.expected: list[str] = []
        self.dialogs: dict[str, list[Dialog]] = {}  # avatar key -> open dialogs, newest last
        self.shown: list[tuple[str, str, Dialog]] = []  # (script name, menu id, dialog)
        self.clicked: list[tuple[str, str, str]] = []  # (script name, menu id, button or typed text)
        self.chat: list[Chat] = []
        self.exchanges: list[Exchange] = []
        self.given: list[tuple[str, str]] = []
        self.pushes: list[tuple[str, int, str]] = []  # (script, status, body) of every HTTP-in request
        self.sent_at: dict[str, list[float]] = {}  # object key -> virtual times of llHTTPRequest
        self._http: set[asyncio.Task[None]] = set()
        self._inbound = 0
        self._replies: dict[str, asyncio.Future[tuple[int, str]]] = {}
        self._incoming: dict[str, tuple[Script, dict[str, str]]] = {}
        self._routes: dict[str, Script] = {}
        self._url_requests: dict[str, Script] = {}
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    # ---------------------------------------------------------------- set-up

    async def start(self) -> Sim:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._http_in)
        self._runner = web.AppRunner(app, shutdown_timeout=0.2)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()
        return self

    async def close(self) -> None:
        for obj in self.objects:
            for script in obj.scripts:
                await script.stop()
        for task in list(self._http):
            task.cancel()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def avatar(self, name: str, key: str | None = None) -> Avatar:
        avatar = Avatar(key or str(uuid.uuid4()), name, name.lower().replace(" ", "."))
        self.avatars[avatar.key] = avatar
        return avatar

    async def rez(self, name: str, owner: Avatar, scripts: dict[str, str]) -> SimObject:
        """An object with these scripts (name -> LSL source), all started, then state_entry in each."""
        obj = SimObject(self, name, owner)
        self.objects.append(obj)
        for script_name, source in scripts.items():
            script = Script(self, obj, script_name, source)
            obj.scripts.append(script)
        await asyncio.gather(*(s.start(self.workdir) for s in obj.scripts))
        for script in obj.scripts:
            script.queue("state_entry")
        await self.settle()
        return obj

    # ---------------------------------------------------------------- the test's side

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def check(self) -> None:
        if self.problems:
            raise Problem("\n".join(self.problems))
        unexpected = [r for r in self.refusals if not any(e in r[1] for e in self.expected)]
        if unexpected:
            script, line, reply = unexpected[0]
            raise Problem(f"the gateway refused {line!r} from {script}: {reply}")

    @contextlib.contextmanager
    def expect_refusal(self, line_part: str) -> Iterator[None]:
        self.expected.append(line_part)
        try:
            yield
        finally:
            self.expected.remove(line_part)

    def quiet(self) -> bool:
        return (
            not self._http
            and not self._inbound
            and all(not s.busy and s.events.empty() for o in self.objects for s in o.scripts)
        )

    async def settle(self, timeout: float = 30.0) -> None:
        """Until every event is handled and every HTTP exchange in flight has its answer."""
        deadline = time.monotonic() + timeout
        while not self.quiet():
            if time.monotonic() > deadline:
                raise Problem("the region never settled")
            await asyncio.sleep(0.003)
        self.check()

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass: every timer due meanwhile fires, in order."""
        end = self.clock + seconds
        while True:
            await self.settle()
            timers = [s for o in self.objects for s in o.scripts if s.timer_period > 0]
            due = min(timers, key=lambda s: s.timer_due, default=None)
            if due is None or due.timer_due > end:
                break
            self.clock = max(self.clock, due.timer_due)
            due.timer_due = self.clock + due.timer_period
            due.queue("timer")
        self.clock = end
        await self.settle()

    async def until(self, done: Callable[[], bool], *, seconds: float = 10.0, timeout: float = 30.0) -> None:
        """Until ``done()``: virtual time passes (up to ``seconds``) and the gateway may push meanwhile."""
        deadline = time.monotonic() + timeout
        spent = 0.0
        while True:
            await self.settle()
            if done():
                return
            if spent < seconds:
                await self.wait(0.5)
                spent += 0.5
            else:
                await asyncio.sleep(0.02)
            if time.monotonic() > deadline:
                raise Problem("the condition never held")

    def open_dialog(self, avatar: Avatar) -> Dialog:
        dialogs = self.dialogs.get(avatar.key) or []
        if not dialogs:
            raise Problem(f"{avatar.name} has no dialog open")
        return dialogs[-1]

    async def click(self, avatar: Avatar, label: str) -> Dialog:
        """The avatar clicks ``label`` on the newest dialog shown to them."""
        return await self._answer(avatar, label, box=False)

    async def type(self, avatar: Avatar, text: str) -> Dialog:
        """The avatar types ``text`` into the newest text box and presses Submit."""
        return await self._answer(avatar, text, box=True)

    async def _answer(self, avatar: Avatar, text: str, *, box: bool) -> Dialog:
        await self.settle()
        dialog = self.open_dialog(avatar)
        if (dialog.buttons is None) != box:
            shown = "a text box" if dialog.buttons is None else "a dialog"
            raise Problem(f"{avatar.name} has {shown} open ({dialog.menu}: {dialog.message!r})")
        if dialog.buttons is not None and text not in dialog.buttons:
            raise Problem(f"no button {text!r} in {dialog.menu} ({dialog.message!r}): {dialog.buttons}")
        await self.wait(THINK)  # the avatar reads before answering; timers fire meanwhile
        self.dialogs[avatar.key].remove(dialog)
        self.clicked.append((dialog.script.name, dialog.menu, text))
        self.say_as(avatar, dialog.channel, text)
        await self.settle()
        return dialog

    async def touch(self, avatar: Avatar, obj: SimObject) -> None:
        await self.settle()
        await self.wait(THINK)
        for script in obj.scripts:
            script.queue("touch_start", 1, detected=[{"Key": avatar.key, "Name": avatar.name}])
        await self.settle()

    async def chat_as(self, avatar: Avatar, channel: int, text: str) -> None:
        """The avatar types in chat: ``/7 roll 3`` is channel 7, "roll 3"."""
        await self.settle()
        await self.wait(THINK)
        self.say_as(avatar, channel, text)
        await self.settle()

    def say_as(self, avatar: Avatar, channel: int, text: str) -> None:
        if channel == 0:
            self.chat.append(Chat(0, avatar.name, avatar.key, text))
        self._hear(channel, avatar.name, avatar.key, text, None)

    def said(self, since: int = 0) -> list[str]:
        """Local chat lines ("Speaker: text") from ``since``."""
        return [f"{c.speaker}: {c.text}" for c in self.chat[since:] if c.channel == 0]

    # ---------------------------------------------------------------- world functions

    def _hear(self, channel: int, name: str, key: str, text: str, speaker: SimObject | None) -> None:
        for obj in self.objects:
            if obj is speaker:
                continue  # an object does not hear its own chat
            for script in obj.scripts:
                if any(lis.hears(channel, name, key, text) for lis in script.listens.values()):
                    script.queue("listen", channel, name, key, text)

    def call(self, script: Script, name: str, args: list[Any]) -> Any:
        handler = getattr(self, "_" + name, None)
        if handler is None:
            self.problem(f"{script.label} called {name}, which this simulator does not provide")
            return None
        return handler(script, *args)

    def _llGetKey(self, s: Script) -> str:
        return s.obj.key

    def _llGetOwner(self, s: Script) -> str:
        return s.obj.owner.key

    def _llGetOwnerKey(self, s: Script, key: str) -> str:
        for obj in self.objects:
            if obj.key == key:
                return obj.owner.key
        return key  # an avatar owns itself

    def _llGetObjectName(self, s: Script) -> str:
        return s.obj.name

    def _llSetObjectName(self, s: Script, name: str) -> None:
        s.obj.name = name[:63]

    def _llGetRegionName(self, s: Script) -> str:
        return self.region

    def _llGetEnv(self, s: Script, what: str) -> str:
        return {"grid": "agni", "region_product_name": "Estate / Full Region"}.get(what, "")

    def _llGetTime(self, s: Script) -> float:
        return self.clock - s.started

    def _llGetUnixTime(self, s: Script) -> int:
        return int(time.time())

    def _llSetTimerEvent(self, s: Script, seconds: float) -> None:
        s.timer_period = max(0.0, float(seconds))
        s.timer_due = self.clock + s.timer_period

    def _llResetScript(self, s: Script) -> None:
        s.listens.clear()
        s.timer_period = 0.0
        for path in list(s.urls):
            self._routes.pop(path, None)
        s.urls.clear()
        s.started = self.clock

    def _llListen(self, s: Script, channel: int, name: str, key: str, message: str) -> int:
        handle = s.next_handle
        s.next_handle += 1
        s.listens[handle] = Listen(channel, name, key, message)
        return handle

    def _llListenRemove(self, s: Script, handle: int) -> None:
        s.listens.pop(handle, None)

    def _llOwnerSay(self, s: Script, text: str) -> None:
        if utf8(text) > 1024:
            self.problem(f"{s.label}: llOwnerSay of {utf8(text)} bytes is cut at 1024")
        s.obj.owner.heard.append(text)

    def _llSay(self, s: Script, channel: int, text: str) -> None:
        if utf8(text) > 1024:
            self.problem(f"{s.label}: llSay of {utf8(text)} bytes is cut at 1024")
        self.chat.append(Chat(channel, s.obj.name, s.obj.key, text))
        self._hear(channel, s.obj.name, s.obj.key, text, s.obj)

    def _llRegionSay(self, s: Script, channel: int, text: str) -> None:
        if channel == 0:
            self.problem(f"{s.label}: llRegionSay cannot speak on channel 0")
        if utf8(text) > 1024:
            self.problem(f"{s.label}: llRegionSay of {utf8(text)} bytes is cut at 1024")
        self.chat.append(Chat(channel, s.obj.name, s.obj.key, text))
        self._hear(channel, s.obj.name, s.obj.key, text, s.obj)

    def _llMessageLinked(self, s: Script, link: int, num: int, text: str, key: str) -> None:
        if link != LINK_THIS:
            self.problem(f"{s.label}: llMessageLinked to link {link} (these objects have one prim)")
        for script in s.obj.scripts:  # LINK_THIS: every script in the prim, the sender's too
            script.queue("link_message", 1, num, text, key)

    def _llHMAC(self, s: Script, secret: str, message: str, algorithm: str) -> str:
        if algorithm not in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512"):
            self.problem(f"{s.label}: llHMAC has no algorithm {algorithm!r}")
            return ""
        digest = hmac.new(secret.encode("utf-8"), message.encode("utf-8"), algorithm).digest()
        return base64.b64encode(digest).decode()

    def _dialog_problems(self, s: Script, text: str, buttons: list[str] | None, avatar: str) -> bool:
        bad = []
        if avatar not in self.avatars:
            bad.append(f"shown to {avatar}, who is not here")
        if not 1 <= utf8(text) <= 511:
            bad.append(f"a message of {utf8(text)} bytes (1 to 511)")
        if buttons is not None:
            if len(buttons) > 12:
                bad.append(f"{len(buttons)} buttons (12 at most)")
            bad += [f"button {b!r} of {utf8(b)} bytes (1 to 24)" for b in buttons if not 1 <= utf8(b) <= 24]
        for line in bad:
            self.problem(f"{s.label}: dialog {s.menu!r}: {line}")
        return bool(bad)

    def _show(self, s: Script, avatar: str, text: str, buttons: list[str] | None, channel: int) -> None:
        menu = s.menu
        if self._dialog_problems(s, text, buttons, avatar):
            return
        dialog = Dialog(s, channel, text, buttons, menu)
        self.dialogs.setdefault(avatar, []).append(dialog)
        self.shown.append((s.name, menu, dialog))

    def _llDialog(self, s: Script, avatar: str, text: str, buttons: list[str], channel: int) -> None:
        self._show(s, avatar, text, [str(b) for b in buttons], channel)

    def _llTextBox(self, s: Script, avatar: str, text: str, channel: int) -> None:
        self._show(s, avatar, text, None, channel)

    def _llLoadURL(self, s: Script, avatar: str, text: str, url: str) -> None:
        if len(url) > 255 or not url.startswith(("http://", "https://")):
            self.problem(f"{s.label}: llLoadURL with {url!r}")
        self.chat.append(Chat(-1, s.obj.name, avatar, f"load {url}: {text}"))

    def _llInstantMessage(self, s: Script, avatar: str, text: str) -> None:
        self.chat.append(Chat(-2, s.obj.name, avatar, text))

    def _llRegionSayTo(self, s: Script, target: str, channel: int, text: str) -> None:
        self.chat.append(Chat(channel, s.obj.name, target, text))

    def _llGetAgentList(self, s: Script, scope: int, options: list[Any]) -> list[str]:
        if scope != AGENT_LIST_REGION:
            self.problem(f"{s.label}: llGetAgentList scope {scope}")
        return list(self.avatars)

    def _llGetDisplayName(self, s: Script, key: str) -> str:
        avatar = self.avatars.get(key)
        return avatar.display if avatar else ""

    def _llGetUsername(self, s: Script, key: str) -> str:
        avatar = self.avatars.get(key)
        return avatar.username if avatar else ""

    def _llGiveInventory(self, s: Script, to: str, item: str) -> None:
        self.given.append((to, item))

    # ---------------------------------------------------------------- HTTP out

    def _llHTTPRequest(self, s: Script, url: str, options: list[Any], body: str) -> str:
        sent = self.sent_at.setdefault(s.obj.key, [])
        # The simulator's throttle: about 25 requests per 20 s per object; past it, NULL_KEY.
        if len([t for t in sent if t > self.clock - 20.0]) >= 25:
            return NULL_KEY
        sent.append(self.clock)
        method, mimetype, maxlength = "GET", "text/plain;charset=utf-8", 2048
        headers: dict[str, str] = {}
        opts = list(options)
        while opts:
            flag = opts.pop(0)
            if flag == HTTP_METHOD:
                method = str(opts.pop(0))
            elif flag == HTTP_MIMETYPE:
                mimetype = str(opts.pop(0))
            elif flag == HTTP_BODY_MAXLENGTH:
                maxlength = int(opts.pop(0))
                if not 0 < maxlength <= 16384:
                    self.problem(f"{s.label}: HTTP_BODY_MAXLENGTH {maxlength}")
            elif flag in (HTTP_VERIFY_CERT, HTTP_VERBOSE_THROTTLE):
                opts.pop(0)
            elif flag == HTTP_CUSTOM_HEADER:
                name, value = str(opts.pop(0)), str(opts.pop(0))
                if name.lower().startswith(("x-secondlife", "connection", "content-length", "host")):
                    self.problem(f"{s.label}: HTTP_CUSTOM_HEADER {name} is not allowed")
                headers[name] = value
            else:
                self.problem(f"{s.label}: unknown llHTTPRequest option {flag}")
                return NULL_KEY
        if mimetype.startswith("application/json") or mimetype.startswith("text/"):
            mimetype += "" if "charset" in mimetype else "; charset=utf-8"
        headers.update(self._sim_headers(s, mimetype))
        request = str(uuid.uuid4())
        exchange = Exchange(s.label, s.obj.key, url, body)
        self.exchanges.append(exchange)
        task = asyncio.create_task(self._perform(s, request, method, url, headers, body, maxlength, exchange))
        self._http.add(task)
        task.add_done_callback(self._http.discard)
        return request

    def _sim_headers(self, s: Script, mimetype: str) -> dict[str, str]:
        return {
            "User-Agent": SL_VERSION,
            "Content-Type": mimetype,
            "Accept-Charset": "utf-8;q=1.0, *;q=0.5",
            "X-SecondLife-Shard": "Production",
            "X-SecondLife-Object-Name": s.obj.name,
            "X-SecondLife-Object-Key": s.obj.key,
            "X-SecondLife-Region": f"{self.region} (256000, 256000)",
            "X-SecondLife-Local-Position": "(128.5, 127.25, 23.0)",
            "X-SecondLife-Local-Rotation": "0.000000, 0.000000, 0.000000, 1.000000",
            "X-SecondLife-Local-Velocity": "(0.000000, 0.000000, 0.000000)",
            "X-SecondLife-Owner-Name": s.obj.owner.name,
            "X-SecondLife-Owner-Key": s.obj.owner.key,
        }

    async def _perform(
        self,
        s: Script,
        request: str,
        method: str,
        url: str,
        headers: dict[str, str],
        body: str,
        maxlength: int,
        exchange: Exchange,
    ) -> None:
        assert self._session is not None
        try:
            async with self._session.request(
                method,
                url,
                data=body.encode("utf-8"),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=60),
            ) as resp:
                raw = await resp.read()
                status = resp.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            raw, status = str(exc).encode(), 499
        text = raw[:maxlength].decode("utf-8", errors="ignore")  # the simulator cuts at the limit
        exchange.status, exchange.answer = status, text
        if status == 200 and url.endswith("/sl/v1/command"):
            with contextlib.suppress(ValueError, AttributeError, TypeError):
                for reply in json.loads(text).get("replies", []):
                    if reply.get("error"):
                        self.refusals.append((s.label, exchange.text or "", str(reply.get("text"))))
        s.queue("http_response", request, status, [], text)

    # ---------------------------------------------------------------- HTTP in

    def _request_url(self, s: Script, secure: bool) -> str:
        request = str(uuid.uuid4())
        if secure:
            # No TLS on loopback: a test edits SECURE_URL = FALSE, as the README tells a gateway
            # that cannot verify the simulator's certificate.
            self.problem(f"{s.label}: llRequestSecureURL (set SECURE_URL = FALSE for this simulator)")
            return request
        path = f"/cap/{uuid.uuid4()}"
        url = f"http://127.0.0.1:{self.port}{path}"
        s.urls[path] = url
        self._routes[path] = s
        s.queue("http_request", request, URL_REQUEST_GRANTED, url)
        return request

    def _llRequestURL(self, s: Script) -> str:
        return self._request_url(s, False)

    def _llRequestSecureURL(self, s: Script) -> str:
        return self._request_url(s, True)

    def _llReleaseURL(self, s: Script, url: str) -> None:
        for path, known in list(s.urls.items()):
            if known == url:
                del s.urls[path]
                self._routes.pop(path, None)

    def _llGetHTTPHeader(self, s: Script, request: str, name: str) -> str:
        if name != name.lower():
            self.problem(f"{s.label}: llGetHTTPHeader needs a lower-case name, not {name!r}")
        _, headers = self._incoming.get(request, (None, {}))
        return headers.get(name, "")[:255]

    def _llHTTPResponse(self, s: Script, request: str, status: int, body: str) -> None:
        future = self._replies.pop(request, None)
        if future is None:
            self.problem(f"{s.label}: llHTTPResponse to an unknown request")
            return
        future.set_result((int(status), body))

    async def _http_in(self, request: web.Request) -> web.StreamResponse:
        script = self._routes.get(request.path)
        if script is None:
            return web.Response(status=404, text="cap not found")
        raw = await request.read()
        if len(raw) > 2048:
            self.problem(f"a push of {len(raw)} bytes to {script.label}: the simulator cuts at 2048")
        body = raw[:2048].decode("utf-8", errors="ignore")
        key = str(uuid.uuid4())
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[int, str]] = loop.create_future()
        self._replies[key] = future
        self._incoming[key] = (script, {k.lower(): v for k, v in request.headers.items()})
        self._inbound += 1
        try:
            script.queue("http_request", key, request.method, body)
            try:
                status, text = await asyncio.wait_for(future, 25)
            except TimeoutError:
                status, text = 504, "script did not answer"
        finally:
            self._inbound -= 1
            self._incoming.pop(key, None)
        self.pushes.append((script.label, status, body))
        return web.Response(status=status, text=text)


def edited(source: str, **values: str) -> str:
    """The script with its settings lines changed, as a user edits them (``NAME = value;``)."""
    for name, value in values.items():
        match = re.search(rf"^(string|integer) {name} = .*?;", source, re.M)
        assert match is not None, name
        source = source[: match.start()] + f"{match.group(1)} {name} = {value};" + source[match.end() :]
    return source


def lsl_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def config_script(gateway: str, secret: str) -> str:
    return edited(
        (LSL / "nc_config.lsl").read_text(encoding="utf-8"),
        GATEWAY=lsl_string(gateway),
        SECRET=lsl_string(secret),
    )


def main_script(name: str) -> str:
    return edited((LSL / name).read_text(encoding="utf-8"), SECURE_URL="FALSE")


@contextlib.asynccontextmanager
async def region(workdir: Path, secret: str) -> AsyncIterator[Sim]:
    sim = await Sim(workdir, secret=secret).start()
    try:
        yield sim
    finally:
        await sim.close()
