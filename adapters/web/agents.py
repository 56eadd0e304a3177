"""A browser's User-Agent as a person names it: "Firefox on Linux", "Safari on iPhone".

A dozen ordered rules rather than a library: the sessions page needs the browser family and the
system, not versions or devices, and the well-kept parser (ua-parser, its ~1 MB of uap-core regexes)
would be a runtime dependency for one table cell. Order matters: Edge and Opera carry "Chrome",
Chrome carries "Safari", Android carries "Linux", iOS carries "Mac OS X"."""

from __future__ import annotations

import re

BROWSERS = (
    ("Edge", re.compile(r"\bEdg(e|A|iOS)?/")),
    ("Opera", re.compile(r"\b(OPR|Opera)/")),
    ("Samsung Internet", re.compile(r"\bSamsungBrowser/")),
    ("Firefox", re.compile(r"\b(Firefox|FxiOS)/")),
    ("Chromium", re.compile(r"\bChromium/")),
    ("Chrome", re.compile(r"\b(Chrome|CriOS)/")),
    ("Safari", re.compile(r"\bVersion/[\d.]+.*\bSafari/")),
    ("Second Life", re.compile(r"\bSecondLife/")),
    ("curl", re.compile(r"^curl/")),
)
SYSTEMS = (
    ("iPhone", re.compile(r"\biPhone\b")),
    ("iPad", re.compile(r"\biPad\b")),
    ("Android", re.compile(r"\bAndroid\b")),
    ("ChromeOS", re.compile(r"\bCrOS\b")),
    ("Windows", re.compile(r"\bWindows\b")),
    ("macOS", re.compile(r"\bMac OS X\b|\bMacintosh\b")),
    ("Linux", re.compile(r"\bLinux\b|\bX11\b")),
)


def device(agent: str) -> tuple[str | None, str | None]:
    """The browser's and the system's names; None for what the header does not say."""
    browser = next((name for name, rule in BROWSERS if rule.search(agent)), None)
    system = next((name for name, rule in SYSTEMS if rule.search(agent)), None)
    return browser, system
