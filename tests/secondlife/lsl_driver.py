#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# lsl_driver.py: runs ONE LSL script with lummao (GPLv3), as a separate program.
#
# Copyright the gateway's authors. This file is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by the Free Software Foundation,
# either version 3 of the License, or (at your option) any later version. It is distributed in the
# hope that it will be useful, but WITHOUT ANY WARRANTY; see <https://www.gnu.org/licenses/>.
#
# It is GPL because it imports lummao and runs what lummao produces (lummao's README asks that such
# code be treated as GPL). Nothing in the gateway or its tests imports this file: the test harness
# (tests/secondlife/lsl_runtime.py) starts it as a program and talks to it over a pipe, one JSON
# object per line:
#
#   harness -> driver   {"event": "listen", "args": [...], "detected": [{"Key": ..., "Name": ...}]}
#                       {"quit": true}
#   driver -> harness   {"ready": true} once compiled, {"idle": true} after each event,
#                       {"call": "llDialog", "args": [...]}: a simulator function; the harness answers
#                       {"ret": value} on stdin before the script goes on,
#                       {"error": "traceback"} when the script failed (a run-time error),
#                       {"reset": true} after llResetScript (a fresh script ran its state_entry).
#   A dialog call (llDialog, llTextBox) also carries "globals": the values of the script's global
#   variables named after --watch, so the harness knows which of the script's menus it shows.
#
# Usage: lsl_driver.py SCRIPT.lsl [--watch NAME ...]
"""Run one LSL script under lummao; the simulator's functions are answered by the parent over a pipe."""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

import lummao  # type: ignore[import-untyped]
from lummao import DetectedDetails, Key  # type: ignore[import-untyped]

# lummao 0.5.2 predates llHMAC: the compiler does not know it. The script calls a stand-in of the
# same signature (declared at the start of line 1, so line numbers stay), which is then forwarded to
# the simulator like every other world function.
HMAC_SHIM = "string lummaoHMAC(string k, string m, string a) { return m; } "

_key, _str, _int, _float = "key", "string", "integer", "float"

# The simulator's functions the scripts call, with the LSL type of what each returns (None: nothing).
# lummao implements none of them (they touch the world); each is answered by the harness.
WORLD: dict[str, str | None] = {
    "llDialog": None,
    "llTextBox": None,
    "llListen": _int,
    "llListenRemove": None,
    "llOwnerSay": None,
    "llSay": None,
    "llRegionSay": None,
    "llRegionSayTo": None,
    "llInstantMessage": None,
    "llMessageLinked": None,
    "llHTTPRequest": _key,
    "llHTTPResponse": None,
    "llRequestURL": _key,
    "llRequestSecureURL": _key,
    "llReleaseURL": None,
    "llGetHTTPHeader": _str,
    "llGetKey": _key,
    "llGetOwner": _key,
    "llGetOwnerKey": _key,
    "llGetObjectName": _str,
    "llSetObjectName": None,
    "llGetRegionName": _str,
    "llGetEnv": _str,
    "llGetTime": _float,
    "llGetUnixTime": _int,
    "llSetTimerEvent": None,
    "llGetAgentList": "list of keys",
    "llGetDisplayName": _str,
    "llGetUsername": _str,
    "llGiveInventory": None,
    "llLoadURL": None,
    "llHMAC": _str,
    "llResetScript": None,
}

# Argument types of the events the scripts handle.
EVENTS: dict[str, list[str]] = {
    "state_entry": [],
    "on_rez": [_int],
    "changed": [_int],
    "link_message": [_int, _int, _str, _key],
    "touch_start": [_int],
    "listen": [_int, _str, _key, _str],
    "http_request": [_key, _str, _str],
    "http_response": [_key, _int, "list", _str],
    "timer": [],
}


class ResetScript(Exception):
    """llResetScript: the script stops where it is and starts again from state_entry."""


def lsl_value(kind: str | None, value: Any) -> Any:
    if kind == _key:
        return Key(str(value))
    if kind == _float:
        return float(value)
    if kind == _int:
        return int(value)
    if kind == "list of keys":
        return [Key(str(v)) for v in value]
    if kind == "list":
        return list(value)
    return value


def to_json(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, str):
        return str(value)  # a Key is a str
    return value


DIALOGS = {"llDialog", "llTextBox"}


class Pipe:
    def __init__(self, watch: list[str]) -> None:
        self.out = sys.stdout
        self.watch = watch
        self.script: Any = None

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.out.flush()

    def receive(self) -> dict[str, Any]:
        line = sys.stdin.readline()
        if not line:
            raise SystemExit(0)  # the harness went away
        return dict(json.loads(line))


def world_function(pipe: Pipe, name: str, returns: str | None) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        message: dict[str, Any] = {"call": name, "args": to_json(list(args))}
        if name in DIALOGS and pipe.watch:
            message["globals"] = {w: to_json(getattr(pipe.script, w, None)) for w in pipe.watch}
        pipe.send(message)
        answer = pipe.receive()
        if name == "llResetScript":
            raise ResetScript()
        return lsl_value(returns, answer.get("ret"))

    return call


def load(source: str, pipe: Pipe) -> Any:
    script = lummao.compile_script(HMAC_SHIM + source.replace("llHMAC(", "lummaoHMAC("))
    hmac = world_function(pipe, "llHMAC", _str)

    async def lummao_hmac(key: str, message: str, algorithm: str) -> str:
        return str(hmac(key, message, algorithm))

    script.lummaoHMAC = lummao_hmac
    for name, returns in WORLD.items():
        script.builtin_funcs[name] = world_function(pipe, name, returns)
    script.event_queue.clear()  # state_entry comes from the harness, when the object is rezzed
    pipe.script = script
    return script


async def main(path: str, watch: list[str]) -> None:
    pipe = Pipe(watch)
    with open(path, encoding="utf-8") as file:
        source = file.read()
    script = load(source, pipe)
    pipe.send({"ready": True})
    while True:
        message = pipe.receive()
        if message.get("quit"):
            return
        name = message["event"]
        args = [lsl_value(t, v) for t, v in zip(EVENTS[name], message.get("args", []), strict=True)]
        detected = [
            DetectedDetails(Key=Key(d["Key"]), Name=d.get("Name", "")) for d in message.get("detected", [])
        ]
        script.queue_event(name, tuple(args), detected)
        try:
            await script.execute()
        except ResetScript:
            script = load(source, pipe)
            script.queue_event("state_entry", ())
            try:
                await script.execute()
            except Exception:
                pipe.send({"error": traceback.format_exc()})
            pipe.send({"reset": True})
        except Exception:
            script.event_queue.clear()
            pipe.send({"error": traceback.format_exc()})
        pipe.send({"idle": True})


if __name__ == "__main__":
    if len(sys.argv) < 2 or (len(sys.argv) > 2 and sys.argv[2] != "--watch"):
        sys.exit("usage: lsl_driver.py SCRIPT.lsl [--watch NAME ...]")
    asyncio.run(main(sys.argv[1], sys.argv[3:]))
