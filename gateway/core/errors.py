"""Exceptions that cross module boundaries."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gateway.delivery.pacing import Backoff


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
    """Raised by an adapter's ``deliver``: this attempt failed (a timeout, a 5xx without
    ``Retry-After``, a dropped connection). It is retried until the row was queued ``[outbox]
    retry_hours`` ago (or ``max_attempts``, when set), then the row is dead (kept in the vault for an
    operator). The outbox picks the delay from the row's attempts with its own ``Backoff``, or with
    ``backoff`` when the adapter names a policy of its own (Second Life's and Discord's lower ceiling,
    ``retry_max_delay``); the adapter never picks a delay."""

    def __init__(self, reason: str, *, backoff: Backoff | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.backoff = backoff


class Deferred(Exception):
    """Raised by an adapter's ``deliver``: not an attempt, come back after ``delay`` seconds. The row
    stays pending, its attempts unchanged; use one of the two kinds below, which say why."""

    def __init__(self, reason: str, delay: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay = delay


class Throttled(Deferred):
    """The target answered and asked us to wait (``Retry-After``, a 429, a rate-limit bucket), or the
    row is another gateway process's to send. Not a failed attempt: it neither counts
    towards giving up nor lengthens the backoff after later failures, so a target that comes back is
    served at once."""


class Elsewhere(Deferred):
    """Another gateway process delivers this target (it holds the lease of the connection the row
    needs: an IRC network, a Matrix account). Not an attempt, and no wait for the row: it is handed
    back due at once and the owner's worker is woken (on PostgreSQL, by the commit's notification),
    while this process leaves the target alone for ``delay`` seconds instead of claiming it again."""


class TargetAbsent(Deferred):
    """The target, or our session with it, is not there yet: no Second Life object has registered for
    it, its URL is dead until the object registers again, the IRC network or Matrix account is not
    connected. Nothing was tried, so the row keeps its attempts; the adapter bounds the wait itself
    where it can (Second Life raises ``DeliveryFailed`` after ``forget_after_hours``)."""


class DeliveryFailed(Exception):
    """Raised by an adapter's ``deliver``: this row can never be delivered (a deleted webhook, a 404)."""


class Settled(Exception):
    """Raised by an adapter's ``deliver``: the adapter settled this row itself, in the transaction that
    did its work (a fan-out that marked it delivered), so the outbox leaves it as it is."""


def one_line(exc: BaseException) -> str:
    """An exception for an operator's one-line message: the first non-empty line of what it says, or
    its type's name when it says nothing (a vault that cannot be reached, a URL that does not parse)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
