"""Reading a number a person typed, refusing it in one line that names what it was for."""

from __future__ import annotations

from gateway.errors import UserError


def whole_number(word: str, what: str, limit: int = 1000) -> int:
    """``word`` as an int from -``limit`` to ``limit``; ``what`` starts the refusal ("Willpower")."""
    try:
        value = int(word)
    except ValueError:
        raise UserError(f"{what} is a whole number, not {word[:20]!r}.") from None
    if abs(value) > limit:
        raise UserError(f"{what} stops at {limit}.")
    return value
