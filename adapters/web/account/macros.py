"""``/me/macros``: the person's macros and the chronicle macros they see, with add, remove and run.

Everything is the chat command run through the router as the signed-in identity, in the same web
channel the other pages use (``Actor.channel``: one direct channel per identity and rule system), so
the list is ``macro list``'s, each body ``macro show``'s, the refusals chat's lines. Chronicle macros
are a channel's: here, the web channel's (a Storyteller adds them with the chronicle box). A macro
runs as ``macro NAME args``, which runs it even when its name is also a command word.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from adapters.web.account.actor import Actor, word
from adapters.web.account.auth import Auth
from adapters.web.account.render import page
from adapters.web.account.signin import not_signed_in
from adapters.web.account.store import Signed
from gateway import AdapterServices, Reply

DEFAULT_SYSTEM = "nightcap"


def one_line(value: str) -> str:
    """A form's text as one chat line: newlines become spaces, everything else as typed."""
    return " ".join(value.split())


class MacroPages:
    def __init__(self, services: AdapterServices, auth: Auth, actor: Actor) -> None:
        self.services = services
        self.auth = auth
        self.actor = actor

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/me/macros", self.show)
        app.router.add_post("/me/macros", self.act)

    def _system(self, request: web.Request, form: Any = None) -> str:
        wanted = str((form or {}).get("system") or request.query.get("system") or DEFAULT_SYSTEM)
        systems = self.services.systems()
        return wanted if wanted in systems else DEFAULT_SYSTEM

    async def show(
        self, request: web.Request, messages: list[Reply] | None = None, system: str | None = None
    ) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        system = system or self._system(request)
        macros = await self._listed(signed, system)
        systems = self.services.systems()
        storyteller = await self.auth.is_storyteller(signed)
        return page(
            request,
            self.auth,
            "macros.html",
            signed=signed,
            storyteller=storyteller,
            system=system,
            title=systems[system].title if system in systems else system,
            systems={name: s.title for name, s in systems.items()},
            macros=macros,
            messages=messages or (),
        )

    async def _listed(self, signed: Signed, system: str) -> list[dict[str, Any]]:
        """``macro list``'s entries, each with ``macro show``'s body."""
        (listed, *_) = await self.actor.run(signed, "macro list", system) or [Reply(text="")]
        entries = (listed.result or {}).get("macros") or [] if listed.error is None else []
        out = []
        for entry in entries:
            shown = await self.actor.run(signed, f"macro show {word(str(entry['name']))}", system)
            body = next((r.result.get("body") for r in shown if r.result and "body" in r.result), "")
            out.append({**entry, "body": body})
        return out

    async def act(self, request: web.Request) -> web.Response:
        signed = await self.auth.current(request)
        if signed is None:
            return not_signed_in(request, self.auth)
        form = await self.auth.form(request)
        system = self._system(request, form)
        line = macro_line({k: str(v) for k, v in form.items()})
        if line is None:
            raise web.HTTPBadRequest(text="Unknown action.\n")
        return await self.show(request, await self.actor.run(signed, line, system), system)


def macro_line(form: dict[str, str]) -> str | None:
    """The chat command line a Macros page form stands for; None for no known action."""
    action = form.get("action", "")
    name = one_line(form.get("name", ""))
    chronicle = "--chronicle " if form.get("chronicle") else ""
    if action == "add":
        return f"macro add {chronicle}{name} = {one_line(form.get('body', ''))}"
    if action == "remove":
        return f"macro remove {chronicle}{word(name)}"
    if action == "run":
        return f"macro {word(name)} {one_line(form.get('args', ''))}".rstrip()
    return None
