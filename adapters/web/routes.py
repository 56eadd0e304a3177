"""Every page the web serves, kept beside the routes: the page test (tests/web/test_every_page.py)
visits each at desktop and phone width as each role it is for, runs axe-core on it and checks that
nothing overflows sideways, and fails for a GET route missing here, so a new page is not forgotten.

A path names its example's parts in braces (filled in by the test: a character, a roll, a fresh
sign-in link, a tool). Roles: ``visitor`` (signed out), ``player``, ``storyteller``."""

from __future__ import annotations

PAGES: dict[str, tuple[str, ...]] = {
    "/": ("visitor", "player"),
    "/tools/": ("visitor",),
    "/tools/{slug}": ("visitor",),
    "/r/{roll}": ("visitor", "storyteller"),
    "/login/{token}": ("visitor",),
    "/me": ("visitor", "player", "storyteller"),
    "/me/sessions": ("player",),
    "/me/c/{character}": ("player",),
    "/me/macros": ("player",),
    "/st": ("player", "storyteller"),
    "/st/c/{character}": ("storyteller",),
    "/st/log": ("storyteller",),
    "/st/storytellers": ("storyteller",),
    "/no/such/page": ("visitor",),  # the 404 page
    "/logout": ("visitor",),  # a POST-only address visited: the 405 page
}

# GET routes that are not pages: health, metrics, assets, the live log's and the notices' event
# streams, redirects, a character's portrait (a picture, shown on its sheet's pages above).
NOT_PAGES = frozenset(
    {
        "/healthz",
        "/readyz",
        "/metrics",
        "/static",
        "/favicon.ico",
        "/st/log/stream",
        "/tools",
        "/me/new",
        "/me/notices/stream",
        "/c/{character}/portrait",
    }
)
