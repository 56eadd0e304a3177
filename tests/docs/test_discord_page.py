"""The Discord page leads with the bot-token Gateway mode and its set-up command; the endpoint mode
comes second (issue 35)."""

from __future__ import annotations

import re

from tests.docs.pages import DOCS


def test_gateway_mode_comes_first_with_discord_setup() -> None:
    text = (DOCS / "running" / "discord.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert sections[0].startswith("Gateway mode"), sections
    assert sections.index(next(s for s in sections if s.startswith("Interactions Endpoint"))) == 1, sections
    first = text.split("\n## ", 2)[1]
    assert "gateway --config gateway.toml discord setup" in first
    assert 'mode = "gateway"' in first and "[discord.channels]" in first
