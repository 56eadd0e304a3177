"""The hypothesis settings of the fuzz slices in the suite."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def ci_settings(examples: int) -> settings:
    """CI-sized and deterministic: a fixed number of examples (``GATEWAY_FUZZ_EXAMPLES`` raises
    it), derandomized, no example database."""
    return settings(
        max_examples=int(os.environ.get("GATEWAY_FUZZ_EXAMPLES", str(examples))),
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
