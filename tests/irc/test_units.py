"""The adapter's pure parts: line parsing, splitting, colour, the token bucket, settings, backoff."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adapters.irc.adapter import stlog_channels
from adapters.irc.client import reconnect_backoff, send_bucket
from adapters.irc.config import NetworkConfig, parse_section
from adapters.irc.protocol import build_line, casefold, parse_line
from adapters.irc.text import (
    clean_inbound,
    colour_degrees,
    fit_lines,
    overhead,
    split_bytes,
    strip_formatting,
)


def test_parse_tags_prefix_params() -> None:
    m = parse_line(
        "@account=hax0r;msgid=a\\sb\\:c\\\\d;+draft/x :nick!user@host PRIVMSG #chan :hello there\r\n"
    )
    assert m is not None
    assert m.tags == {"account": "hax0r", "msgid": "a b;c\\d", "+draft/x": ""}
    assert (m.prefix, m.nick, m.userhost) == ("nick!user@host", "nick", "user@host")
    assert (m.command, m.params) == ("PRIVMSG", ("#chan", "hello there"))
    assert parse_line("PING :tok") == parse_line("PING tok")
    m = parse_line(":srv 005 me CASEMAPPING=ascii WHOX :are supported")
    assert m is not None and m.params == ("me", "CASEMAPPING=ascii", "WHOX", "are supported")
    assert parse_line("") is None and parse_line("@a=b") is None
    assert parse_line(":x!y@z JOIN #c acct :Real Name").params == ("#c", "acct", "Real Name")  # type: ignore[union-attr]


def test_build_line() -> None:
    assert build_line("PRIVMSG", "#c", "hi there") == "PRIVMSG #c :hi there"
    assert build_line("JOIN", "#c") == "JOIN #c"
    assert build_line("PRIVMSG", "#c", ":)") == "PRIVMSG #c ::)"
    with pytest.raises(ValueError):
        build_line("PRIVMSG", "#c", "a\r\nQUIT")
    with pytest.raises(ValueError):
        build_line("PRIVMSG", "two words", "x")


def test_casefold() -> None:
    assert casefold("Nick[]\\~") == "nick{}|^"
    assert casefold("Nick[]", "ascii") == "nick[]"
    assert casefold("Nick[]\\~", "strict-rfc1459") == "nick{}|~"


def test_clean_inbound_and_formatting() -> None:
    assert clean_inbound("\x02!roll\x02 \x0304,12three\x03\r\n\x00x") == "!roll three x"
    assert strip_formatting("\x1d\x1f\x16\x0f\x1e\x11a\x04ff0000b") == "ab"
    assert clean_inbound("\x01ACTION waves\x01") == "ACTION waves"


def test_split_bytes_words_and_long_words() -> None:
    assert split_bytes("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]
    assert split_bytes("ab" * 5, 4) == ["abab", "abab", "ab"]
    assert split_bytes("éééé", 5) == ["éé", "éé"]  # 4 bytes each: never half a character
    assert split_bytes("   ", 10) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=3000), st.integers(4, 500))
def test_split_bytes_properties(text: str, limit: int) -> None:
    pieces = split_bytes(text, limit)
    for piece in pieces:
        assert 0 < len(piece.encode()) <= limit
    # Nothing is lost but the spaces split on.
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")


def test_fit_lines_keeps_every_relayed_line_within_512_bytes() -> None:
    source = "nightcap!~nightcap@a.very.long.host.name.example.org"
    text = "Würfel " * 400 + "\nsecond line\r\n\nthird\0line"
    lines = fit_lines(text, source=source, command="PRIVMSG", target="#channel")
    for line in lines:
        relayed = f":{source} PRIVMSG #channel :{line}\r\n".encode()
        assert len(relayed) <= 512
    assert lines[-2:] == ["second line", "thirdline"]
    assert max(len(f":{source} PRIVMSG #channel :{ln}\r\n".encode()) for ln in lines) >= 505
    assert overhead("n!u@h", "NOTICE", "bob") == len(":n!u@h NOTICE bob :\r\n")


def test_colour_degrees() -> None:
    roll = {"kind": "roll", "degree": "botch"}
    assert colour_degrees("Mira rolls 1 die: 1 → -1 (Botch) #abc", roll) == (
        "Mira rolls 1 die: 1 → -1 \x0304(Botch)\x03 #abc"
    )
    assert colour_degrees("x → 5 (Overwhelming) #a", {"kind": "roll"}) == "x → 5 \x02(Overwhelming)\x02 #a"
    assert colour_degrees("(Solid)", {"kind": "roll"}) == "(Solid)"
    assert colour_degrees("(Botch)", {"kind": "help"}) == "(Botch)"
    assert colour_degrees("(Botch)", None) == "(Botch)"


async def test_token_bucket_with_a_fake_clock() -> None:
    now = [0.0]
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(round(seconds, 6))
        now[0] += seconds

    config = NetworkConfig(name="t", host="h", send_interval=2.0, send_burst=4)
    bucket = send_bucket(config, clock=lambda: now[0], sleep=sleep)
    stamps = []
    for _ in range(8):
        await bucket.wait()
        stamps.append(round(now[0], 6))
    assert stamps == [0, 0, 0, 0, 2, 4, 6, 8]  # a burst of 4, then one line per 2 s
    now[0] += 100  # a long pause refills to the burst, not beyond
    for _ in range(5):
        await bucket.wait()
        stamps.append(round(now[0], 6))
    assert stamps[8:] == [108, 108, 108, 108, 110]


def test_backoff_grows_with_jitter_and_a_cap() -> None:
    rng = random.Random(7)
    backoff = reconnect_backoff(NetworkConfig(name="t", host="h", reconnect_min=1.0, reconnect_max=60.0), rng)
    delays = [backoff.delay(n + 1) for n in range(10)]
    for n, d in enumerate(delays):
        step = min(60.0, 2.0**n)
        assert step / 2 <= d <= step
    assert len({round(d, 6) for d in delays}) == 10


def test_settings_defaults_networks_and_channels() -> None:
    nets = parse_section(
        {
            "colour": False,
            "libera": {
                "host": "irc.libera.chat",
                "channels": ["#a", "#b key", {"name": "#c", "key": "k2"}],
                "sasl_username": "bot",
                "sasl_password": "pw",
            },
            "home": {"host": "127.0.0.1", "tls": False, "trust_nicks": True, "colour": True},
        }
    )
    libera, home = nets
    assert (libera.name, libera.effective_port, libera.tls, libera.colour) == ("libera", 6697, True, False)
    assert [(c.name, c.key) for c in libera.channels] == [("#a", None), ("#b", "key"), ("#c", "k2")]
    assert (home.effective_port, home.trust_nicks, home.colour) == (6667, True, True)
    assert (libera.send_interval, libera.send_burst, libera.reply_verb, libera.private_verb) == (
        1.0,  # Sopel's refill of a line a second
        4,
        "PRIVMSG",
        "NOTICE",
    )
    with pytest.raises(ValidationError):
        parse_section({"x": {"host": "h", "channels": ["nochan"]}})
    with pytest.raises(ValidationError):
        parse_section({"x": {"host": "h", "sasl_username": "only"}})
    with pytest.raises(ValidationError):
        parse_section({"x": {"host": "h", "nick": "bad nick"}})
    with pytest.raises(ValidationError):
        parse_section({"x": {"host": "h", "reply_verb": "SHOUT"}})
    with pytest.raises(ValidationError):
        parse_section({"x": {"host": "h", "unknown_key": 1}})


def test_stlog_channels_are_joined() -> None:
    targets = ["irc:libera/#st", "irc:other/#x", "discord:stlog", "irc:libera/somenick", "console"]
    assert stlog_channels(targets, "libera") == ["#st"]


def test_sasl_password_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    (net,) = parse_section({"x": {"host": "h", "sasl_username": "bot", "sasl_password_env": "IRC_TEST_PW"}})
    monkeypatch.setenv("IRC_TEST_PW", "from-env")
    assert net.sasl_secret == "from-env"
    monkeypatch.delenv("IRC_TEST_PW")
    with pytest.raises(ValueError, match="IRC_TEST_PW"):
        _ = net.sasl_secret


def test_build_skips_disabled_networks(tmp_path: Path) -> None:
    from adapters.irc import build
    from gateway.core.app import Gateway
    from gateway.core.settings import Settings

    settings = Settings(vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'v.db'}"}, http={"enabled": False})
    gateway = Gateway(settings, platforms=())
    assert build(gateway.services, {}) is None
    assert build(gateway.services, {"x": {"host": "h", "enabled": False}}) is None
    adapter = build(gateway.services, {"enabled": True, "x": {"host": "h"}, "y": {"host": "k"}})
    assert adapter is not None and sorted(adapter.connections) == ["x", "y"]
