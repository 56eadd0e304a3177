"""The rate limiter on its own, with a hand-turned clock."""

from __future__ import annotations

from adapters.discord.limiter import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def headers(bucket: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset-After": str(reset_after),
    }


def limiter(clock: Clock) -> RateLimiter:
    return RateLimiter(clock=clock, wall=lambda: 1e9 + clock.now, webhook_cap=(0, 1), channel_cap=(0, 1))


def test_a_bucket_holds_the_route_until_its_reset() -> None:
    clock = Clock()
    rl = limiter(clock)
    assert rl.delay("webhook:1") == 0  # nothing known yet: go
    for left in (1, 0):
        ticket = rl.begin("webhook:1")
        clock.now += 0.1
        assert rl.finish(ticket, 200, headers("b", 2, left, 1.0)) is None
    assert rl.delay("webhook:1") == 1.0
    clock.now += 1.0
    assert rl.delay("webhook:1") == 0
    assert rl.buckets["b"].remaining == 2  # a fresh window, as the limit said


def test_requests_in_flight_are_not_counted_as_left() -> None:
    clock = Clock()
    rl = limiter(clock)
    rl.finish(rl.begin("webhook:1"), 200, headers("b", 5, 3, 1.0))
    first, second = rl.begin("webhook:1"), rl.begin("webhook:1")
    # The first answer was counted before the second request arrived: 2 left, one of them in flight.
    rl.finish(first, 200, headers("b", 5, 2, 0.9))
    assert rl.buckets["b"].remaining == 1
    rl.finish(second, 200, headers("b", 5, 1, 0.9))
    assert rl.buckets["b"].remaining == 1


def test_a_429_holds_the_bucket_or_the_route_or_everything() -> None:
    clock = Clock()
    rl = limiter(clock)
    wait = rl.finish(
        rl.begin("webhook:1"), 429, headers("b", 5, 0, 0.5), {"retry_after": 2.5, "global": False}
    )
    assert wait == 2.5
    assert rl.delay("webhook:1") == 2.5
    assert rl.delay("webhook:2") == 0
    # No bucket in the answer (a hidden limit): the route and the channel it posts to wait.
    rl.learn_channel("webhook:3", "77")
    rl.learn_channel("webhook:4", "77")
    rl.finish(rl.begin("webhook:3"), 429, {"Retry-After": "3"}, None)
    assert rl.delay("webhook:3") == 3.0
    assert rl.delay("webhook:4") == 3.0
    assert rl.delay("webhook:2") == 0
    # Global: everything waits.
    rl.finish(rl.begin("webhook:2"), 429, {}, {"retry_after": 4.0, "global": True})
    assert rl.delay("interaction:9") == 4.0
    assert (rl.stats.rate_limited, rl.stats.global_limited) == (3, 1)


def test_a_window_opened_by_a_request_the_answer_did_not_describe() -> None:
    """Two buckets on one route: the answer names only the tighter one; the other's new window is
    taken to end one window length after the answer that opened it."""
    clock = Clock()
    rl = limiter(clock)
    rl.finish(rl.begin("webhook:1"), 200, headers("ch", 30, 29, 60.0))
    rl.finish(rl.begin("webhook:1"), 200, headers("wh", 5, 0, 2.0))
    assert rl.delay("webhook:1") == 2.0
    clock.now += 2.0
    assert rl.delay("webhook:1") == 0
    ticket = rl.begin("webhook:1")  # opens a new "wh" window; the answer speaks of "ch"
    rl.finish(ticket, 200, headers("ch", 30, 27, 57.9))
    assert rl.buckets["wh"].reset_at == clock.now + 2.0
    assert rl.buckets["wh"].remaining == 4


def test_safety_caps_count_completions_and_requests_in_flight() -> None:
    clock = Clock()
    rl = RateLimiter(clock=clock, webhook_cap=(2, 1.0), channel_cap=(3, 10.0))
    a = rl.begin("webhook:1")
    b = rl.begin("webhook:1")
    assert rl.delay("webhook:1") > 0  # two in flight fill the webhook cap
    clock.now += 0.2
    rl.finish(a, 200, {})
    rl.finish(b, 200, {})
    assert rl.delay("webhook:1") == 1.0  # a slot frees one window after the first completion
    clock.now += 1.0
    rl.finish(rl.begin("webhook:1"), 200, {})
    assert abs(rl.delay("webhook:1") - (10.0 - 1.0)) < 1e-9  # now the channel cap (3 per 10 s) binds
