"""People as the web shows them: a display name with the platform as a label ("Mira · Discord"),
never a raw identity key (``discord:1234``) to read or to type."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gateway.features import records
from gateway.features.records import Db

# Platform names are proper names in every language but the terminal's.
PLATFORMS = {
    "discord": "Discord",
    "matrix": "Matrix",
    "irc": "IRC",
    "secondlife": "Second Life",
    "web": "Web",
    "http": "HTTP",
}
TERMINAL = {"en": "Terminal", "cs": "Terminál", "ru": "Терминал"}
SEEN_SHOWN = 300  # people offered in a picker, newest first


def platform_label(platform: str, locale: str) -> str:
    if platform == "console":
        return TERMINAL.get(locale, TERMINAL["en"])
    return PLATFORMS.get(platform, platform.title())


@dataclass(frozen=True)
class Someone:
    key: str  # the identity key, for forms' values only
    name: str
    platform: str

    def label(self, locale: str) -> str:
        return f"{self.name} · {platform_label(self.platform, locale)}"


def someone(key: str, name: str | None = None) -> Someone:
    platform, _, ident = key.partition(":")
    return Someone(key, name or ident or key, platform)


async def named(db: Db, keys: Iterable[str]) -> dict[str, Someone]:
    """The identities' display names as last seen; a key never seen keeps its own id as a name."""
    wanted = sorted(set(keys))
    if not wanted:
        return {}
    names = await records.identity_names(db, wanted)
    return {key: someone(key, names.get(key)) for key in wanted}


async def seen(db: Db, limit: int = SEEN_SHOWN) -> list[Someone]:
    """The identities the gateway has met, newest first (web sign-ins' own keys left out: a person
    is picked by the platform they play on)."""
    return [someone(key, name) for key, name in await records.identities_seen(db, limit)]
