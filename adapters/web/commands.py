"""The chat side of the web pages: ``web`` answers privately with a one-time sign-in link, ``web
logout`` ends every web session of the person. Registered by its own plugin module (entry point
``web_account``), so a gateway without the web adapter does not offer them.

Every process registers these commands (the console too), so this module imports no more than the
settings model: the sign-in store and the texts are imported when a command runs, because the
``adapters.web.account`` package brings aiohttp and Jinja2 (tests/core/test_cli_start.py)."""

from __future__ import annotations

from collections.abc import Callable

from adapters.web.config import WebSettings
from gateway import Command, CommandContext, Invocation, Reply, hookimpl

LOGIN_PATH = "/login/"


def link_base(ctx: CommandContext) -> str:
    """``[web] public_url``, else the gateway's own HTTP address."""
    web = WebSettings.model_validate(ctx.settings.section("web"))
    if web.public_url:
        return web.public_url.rstrip("/")
    http = ctx.settings.http
    return f"http://{http.host}:{http.port}"


async def web_command(ctx: CommandContext, inv: Invocation) -> Reply:
    from adapters.web.account import store
    from adapters.web.account.texts import CATALOGUE

    if inv.words:
        raise CATALOGUE.refusal(ctx, "cmd.web.usage")
    web = WebSettings.model_validate(ctx.settings.section("web"))
    if not web.enabled:
        raise CATALOGUE.refusal(ctx, "cmd.web.off")
    # A new link cancels the identity's earlier ones (used or not): one live link per identity.
    token = await store.issue_link(ctx.session, ctx.sender.identity_key, ctx.now, web.link_minutes)
    url = f"{link_base(ctx)}{LOGIN_PATH}{token}"
    return Reply(
        text=CATALOGUE.say(ctx, "cmd.web.link", url=url, minutes=web.link_minutes),
        private=True,
        result={"kind": "web_link", "url": url, "minutes": web.link_minutes},
    )


async def web_logout(ctx: CommandContext, inv: Invocation) -> Reply:
    from adapters.web.account import store
    from adapters.web.account.texts import CATALOGUE

    if inv.words:
        raise CATALOGUE.refusal(ctx, "cmd.logout.usage")
    ended = await store.end_all(ctx.session, ctx.sender.person_id)
    return Reply(
        text=CATALOGUE.say(ctx, "cmd.logout.done", n=ended),
        private=True,
        result={"kind": "web_logout", "sessions": ended},
    )


HELP = {
    "web": {
        "cs": ("soukromý jednorázový odkaz pro přihlášení na web", "web | web logout"),
        "ru": ("личная одноразовая ссылка для входа на сайт", "web | web logout"),
    },
    "web logout": {
        "cs": ("ukončí všechna vaše přihlášení na webu", "web logout"),
        "ru": ("завершить все ваши сеансы на сайте", "web logout"),
    },
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    register(
        Command(
            "web",
            web_command,
            "a private one-time sign-in link for the web pages",
            "web | web logout",
            texts=HELP["web"],
        )
    )
    register(
        Command("web logout", web_logout, "end all your web sessions", "web logout", texts=HELP["web logout"])
    )
