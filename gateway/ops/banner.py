"""The block ``gateway serve`` prints once it has started: where it listens, the web pages, each
adapter and its state, the vault, and where the log goes. The core knows no platform: an adapter
may say more about itself with a ``status_line()`` method (``"libera: connecting"``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gateway import __version__


def startup_block(
    settings: Any, adapters: Mapping[str, Any], platforms: Iterable[str], *, terminal: bool
) -> list[str]:
    http = settings.http
    shown_host = "127.0.0.1" if http.host in ("0.0.0.0", "::", "") else http.host
    base = f"http://{shown_host}:{http.port}"
    lines = [f"Nightcap Gateway {__version__} is up"]
    if http.enabled:
        lines.append(f"  http       {base}  (listening on {http.host}:{http.port}; {base}/healthz)")
        if "web" in adapters:
            lines.append(f"  web        {base}/  (Storytellers: {base}/st)")
    else:
        lines.append("  http       off ([http] enabled = false)")
    lines.append(f"  vault      {settings.vault.url}")
    for platform in sorted(platforms):
        if platform in ("web", "http"):
            continue
        adapter = adapters.get(platform)
        if adapter is not None:
            describe = getattr(adapter, "status_line", None)
            state = describe() if callable(describe) else "started"
        elif settings.section(platform):
            state = f"off (its [{platform}] table sets enabled = false or lacks what it needs)"
        else:
            state = f"off (no [{platform}] table; `gateway init` writes one)"
        lines.append(f"  {platform:<10} {state}")
    zone = settings.gateway.timezone
    lines.append(f"  time       {zone} (the chronicle's day: [gateway] timezone)")
    where = "below, above the prompt" if terminal else "below"
    lines.append(f"  log        {where} (level {settings.log.level}; --log-format json for a machine)")
    return lines
