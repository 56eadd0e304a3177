"""mautrix's HTTP layer, with what a gateway needs on top: per-request timeouts (a long-poll /sync gets
its own) and the rate-limit delay of a 429 kept on the error (``Retry-After`` first, then
``retry_after_ms``), which mautrix itself drops."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import aiohttp
from aiohttp import ClientResponse
from mautrix.api import HTTPAPI, Method
from mautrix.errors import MatrixConnectionError, MatrixRequestError, make_request_error
from yarl import URL

SYNC_MARGIN = 20.0


def retry_after_seconds(
    header: str | None, body: Mapping[str, Any] | None, now: datetime | None = None
) -> float | None:
    """The delay a 429 asks for: the ``Retry-After`` header (seconds or an HTTP date), else the body's
    ``retry_after_ms``; None when neither says."""
    if header:
        value = header.strip()
        try:
            return max(0.0, float(value))
        except ValueError:
            pass
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            when = None
        if when is not None:
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
    ms = (body or {}).get("retry_after_ms")
    if isinstance(ms, int | float) and not isinstance(ms, bool):
        return max(0.0, ms / 1000)
    return None


class GatewayHTTPAPI(HTTPAPI):
    """``HTTPAPI`` with timeouts and ``error.retry_after`` (seconds or None) on every request error."""

    def __init__(self, *args: Any, request_timeout: float = 30.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_timeout = request_timeout

    def _timeout(self, url: URL, query_params: Mapping[str, str]) -> aiohttp.ClientTimeout:
        if url.path.endswith("/sync"):
            poll = float(query_params.get("timeout", 0) or 0) / 1000
            return aiohttp.ClientTimeout(total=poll + SYNC_MARGIN, sock_connect=10)
        return aiohttp.ClientTimeout(total=self.request_timeout, sock_connect=10)

    async def _send(  # type: ignore[override]
        self,
        method: Method,
        url: URL,
        content: Any,
        query_params: dict[str, str],
        headers: dict[str, str],
    ) -> tuple[Any, ClientResponse]:
        try:
            async with self.session.request(
                str(method),
                url,
                data=content,
                params=query_params,
                headers=headers,
                timeout=self._timeout(url, query_params),
            ) as response:
                if 200 <= response.status < 300:
                    return await response.json(), response
                text = await response.text()
        except TimeoutError as exc:
            # aiohttp raises a bare TimeoutError for a total timeout; it is a network error here.
            raise MatrixConnectionError(f"timed out: {exc!r}") from exc
        try:
            data = json.loads(text)
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        error: MatrixRequestError = make_request_error(
            http_status=response.status,
            text=text,
            errcode=data.get("errcode"),
            message=data.get("error"),
            unstable_errcode=data.get("org.matrix.msc3848.unstable.errcode"),
        )
        error.retry_after = retry_after_seconds(response.headers.get("Retry-After"), data)  # type: ignore[attr-defined]
        raise error
