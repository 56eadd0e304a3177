"""A contest's odds told in an offload worker (``gateway.core.offload``), where there is no command
context: ``term_pools.contest_odds`` spoken by a ``Speaker`` of the reader's language. The d6 systems'
``odds`` commands hand it their words, their name for the target number and their page's title."""

from __future__ import annotations

from typing import Any, cast

from gateway.core.commands import CommandContext
from gateway.core.offload import Speaker
from gateway.core.web_tool import Texts, in_locale
from gateway.rules.term_pools import contest_odds


def contest_odds_in(locale: str, title: Texts, *args: Any, **options: Any) -> tuple[str, dict[str, Any]]:
    """``contest_odds(ctx, *args, **options)`` told in ``locale`` under ``title`` (its text and result)."""
    speaker = cast("CommandContext", Speaker(locale))  # contest_odds reads only its locale
    return contest_odds(speaker, *args, title=in_locale(title, locale), **options)
