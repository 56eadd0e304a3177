"""Secrets of the sign-in: random tokens, the hashes the vault keeps, and the CSRF token of a session.

Only SHA-256 digests of link and session tokens reach the vault, so a copy of it (a backup) signs
nobody in. The CSRF token is an HMAC of the session's own token: bound to the session, never stored,
and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32  # 256 bits: a link cannot be guessed, however many tries the rate limit allows


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def csrf_for(session_token: str) -> str:
    return hmac.new(session_token.encode(), b"web-csrf", hashlib.sha256).hexdigest()


def csrf_ok(session_token: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(csrf_for(session_token), str(given))
