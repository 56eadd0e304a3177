"""structlog set-up: pretty on a terminal, JSON lines otherwise (or with ``--log-format json``)."""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog


class CurrentStderr:
    """Whatever ``sys.stderr`` is when a line is written, not when logging was set up: the console's
    prompt replaces it (prompt_toolkit's ``patch_stdout``) so that log lines go above the prompt
    instead of onto the line being typed."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def isatty(self) -> bool:
        return sys.stderr.isatty()


def configure_logging(fmt: str = "auto", level: str = "info", stream: Any = None) -> None:
    stream = stream or CurrentStderr()
    pretty = fmt == "pretty" or (fmt == "auto" and stream.isatty())
    renderer: Any = structlog.dev.ConsoleRenderer() if pretty else structlog.processors.JSONRenderer()
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    if not pretty:
        processors.append(structlog.processors.format_exc_info)
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(stream),
        cache_logger_on_first_use=False,
    )
    # Libraries that use the standard library's logging (aiohttp, alembic) go to the same stream.
    logging.basicConfig(stream=stream, level=max(logging.getLevelName(level.upper()), logging.WARNING))
