"""Ed25519 verification of interaction requests (PyNaCl).

Discord signs ``X-Signature-Timestamp + raw body`` with the application's key and sends the hex
signature in ``X-Signature-Ed25519``. Anything that does not verify is refused (Discord probes with
bad signatures on purpose and removes endpoints that accept one); so is a timestamp further than the
tolerance from now, which stops a captured request from being replayed later.
"""

from __future__ import annotations

import re

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

_HEX_SIGNATURE = re.compile(r"[0-9a-fA-F]{128}")
_TIMESTAMP = re.compile(r"\d{1,12}")


class Verifier:
    def __init__(self, public_key_hex: str, tolerance: float) -> None:
        self.key = VerifyKey(bytes.fromhex(public_key_hex))
        self.tolerance = tolerance

    def check(self, signature: str | None, timestamp: str | None, body: bytes, now: float) -> str | None:
        """None when the request verifies, otherwise why not (for the log, never for the caller)."""
        if not signature or not timestamp:
            return "missing signature headers"
        if not _HEX_SIGNATURE.fullmatch(signature):
            return "malformed signature"
        if not _TIMESTAMP.fullmatch(timestamp):
            return "malformed timestamp"
        if abs(now - int(timestamp)) > self.tolerance:
            return "stale timestamp"
        try:
            self.key.verify(timestamp.encode() + body, bytes.fromhex(signature))
        except BadSignatureError:
            return "bad signature"
        return None
