"""Exceptions that cross module boundaries."""

from __future__ import annotations


class UserError(Exception):
    """A mistake or refusal the user should read: one line, says what was wrong and how to write it.

    Raising it anywhere inside a command rolls the unit of work back, so nothing is half-written.
    """

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class PermissionDenied(UserError):
    def __init__(self, message: str) -> None:
        super().__init__(message, code="forbidden")


class DiceScriptExhausted(UserError):
    """The scripted dice source ran out: fail loudly instead of rolling real dice."""

    def __init__(self) -> None:
        super().__init__("The dice script (GATEWAY_DICE_SCRIPT) has run out of faces.", code="dice_script")


class Repeated(Exception):
    """A message whose platform identity was handled before, for an adapter that refuses repeats
    (``InboundMessage.refuse_repeat``: a replayed Second Life signature) instead of answering them."""


class RetryLater(Exception):
    """Raised by an adapter's ``deliver``: try this outbox row again after ``delay`` seconds."""

    def __init__(self, reason: str, delay: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay = delay


class Throttled(RetryLater):
    """Raised by an adapter's ``deliver``: the target answered and asked us to wait (``Retry-After``, a
    429, a rate-limit bucket). Not a failed attempt: it neither counts towards ``max_attempts`` nor
    lengthens the backoff after later failures, so a target that comes back is served at once."""

    def __init__(self, reason: str, delay: float) -> None:
        super().__init__(reason, delay)


class DeliveryFailed(Exception):
    """Raised by an adapter's ``deliver``: this row can never be delivered (a deleted webhook, a 404)."""


class Settled(Exception):
    """Raised by an adapter's ``deliver``: the adapter settled this row itself, in the transaction that
    did its work (a fan-out that marked it delivered), so the outbox leaves it as it is."""
