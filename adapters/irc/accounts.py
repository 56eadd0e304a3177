"""Which services account each nick sharing a channel with us is logged in to.

The server tells us in four ways, each only when we asked for the capability: ``account-tag`` (every
line carries its sender's account; no tag means logged out), ``extended-join`` (``JOIN`` carries it),
``account-notify`` (an ``ACCOUNT`` line when it changes) and WHOX (``WHO #channel %tcuhnfa`` after we
join lists everyone's). ``IrcConnection`` parses the lines; this module keeps the book: the nicks we
share a channel with, their channels, and their account when known. Nothing here sends anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

LOGGED_OUT = ("*",)  # the account field of extended-join and ACCOUNT for "not logged in"
WHOX_LOGGED_OUT = ("0", "*", "")


@dataclass
class User:
    """What we know about a nick that shares a channel with us. ``account`` is None when the nick
    is known to be logged out; ``known`` is False while we have no account information at all."""

    nick: str
    account: str | None = None
    known: bool = False
    channels: set[str] = field(default_factory=set)


class Accounts:
    """The book of nicks and accounts, keyed by folded nick. ``fold`` is the connection's casemapping,
    looked up at each call since ``ISUPPORT`` may change it; channels are given folded already."""

    def __init__(self, fold: Callable[[str], str]) -> None:
        self.fold = fold
        self.users: dict[str, User] = {}

    def __iter__(self) -> Iterator[User]:
        return iter(self.users.values())

    def clear(self) -> None:
        self.users.clear()

    def get(self, nick: str) -> User | None:
        return self.users.get(self.fold(nick))

    def account_of(self, nick: str) -> str | None:
        user = self.get(nick)
        return user.account if user is not None and user.known else None

    def nicks_for_account(self, account: str) -> list[str]:
        folded = self.fold(account)
        return [u.nick for u in self if u.known and u.account and self.fold(u.account) == folded]

    def _user(self, nick: str) -> User:
        key = self.fold(nick)
        user = self.users.get(key)
        if user is None:
            user = self.users[key] = User(nick=nick)
        return user

    @staticmethod
    def _set(user: User, account: str | None) -> None:
        user.account, user.known = account, True

    # -- what the server told us ------------------------------------------------------------------

    def tagged(self, user: User, tags: dict[str, str], account_tag: bool) -> None:
        """A line from ``user``: with account-tag, its tag (or none) is the account."""
        if account_tag:
            self._set(user, tags.get("account") or None)

    def joined(
        self, nick: str, channel: str, tags: dict[str, str], account_tag: bool, extended: str | None
    ) -> None:
        """Someone else joined ``channel``; ``extended`` is extended-join's account field, if any."""
        user = self._user(nick)
        user.nick = nick
        user.channels.add(channel)
        if extended is not None:
            self._set(user, None if extended in LOGGED_OUT else extended)
        else:
            self.tagged(user, tags, account_tag)

    def named(self, nick: str, channel: str) -> None:
        """A ``NAMES`` entry: in the channel, account not known from it."""
        self._user(nick).channels.add(channel)

    def whox(self, nick: str, channel: str, account: str) -> None:
        user = self._user(nick)
        user.channels.add(channel)
        self._set(user, None if account in WHOX_LOGGED_OUT else account)

    def account_changed(self, nick: str, account: str) -> None:
        """account-notify's ``ACCOUNT``."""
        self._set(self._user(nick), None if account in LOGGED_OUT else account)

    def message(self, nick: str, tags: dict[str, str], account_tag: bool) -> str | None:
        """A ``PRIVMSG`` from ``nick``: its account as of this line. With account-tag the tag is the
        truth (no tag: not logged in) and corrects the book; otherwise what we tracked."""
        if not account_tag:
            return self.account_of(nick)
        account = tags.get("account") or None
        known = self.get(nick)
        if known is not None:
            self._set(known, account)
        return account

    def renamed(self, old: str, new: str) -> None:
        user = self.users.pop(self.fold(old), None) or User(nick=new)
        user.nick = new
        self.users[self.fold(new)] = user

    def left(self, nick: str, channel: str) -> None:
        """``nick`` left ``channel``: forgotten once it shares no channel with us."""
        key = self.fold(nick)
        user = self.users.get(key)
        if user is not None:
            user.channels.discard(channel)
            if not user.channels:
                del self.users[key]

    def we_left(self, channel: str) -> None:
        """We left ``channel``: everyone only there is forgotten."""
        for key in [k for k, u in self.users.items() if channel in u.channels]:
            self.users[key].channels.discard(channel)
            if not self.users[key].channels:
                del self.users[key]

    def quit(self, nick: str) -> None:
        self.users.pop(self.fold(nick), None)
