"""What the house rules cost the roll path: the router's one read of a channel's switches
(``gateway.features.house_rules.store.for_channel``), CPU per call on SQLite, in a channel with no house rules
and in one with three set, beside a whole ``roll 5`` through the router.

    python -m tests.bench.house_rules [--n 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from gateway.features.house_rules.store import for_channel
from gateway.testing import start_chat


async def main(n: int) -> None:
    folder = tempfile.mkdtemp()
    chat = await start_chat(f"sqlite+aiosqlite:///{folder}/vault.db")
    try:
        system = chat.services.plugins.registry.systems["nightcap"]
        validated = chat.services.plugins.system_settings
        for line in ("house set tens_double off", "house set chance_die off", "house set teamwork_cap 2"):
            assert (await chat.one(line, as_="gm", st=True, channel="ruled")).error is None
        for channel in ("console:main", "console:ruled"):
            async with chat.services.vault.unit() as unit:
                for _ in range(200):
                    await for_channel(unit, system, validated, channel)
                started = time.process_time()
                for _ in range(n):
                    await for_channel(unit, system, validated, channel)
                took = time.process_time() - started
            print(f"for_channel {channel:15} {took / n * 1e6:7.1f} us CPU per call")
        started = time.process_time()
        for _ in range(n // 10):
            chat.dice.extend([5] * 5)
            await chat.one("roll 5")
        took = time.process_time() - started
        print(f"roll 5 through the router    {took / (n // 10) * 1e6:7.1f} us CPU per command")
    finally:
        await chat.gateway.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=5000)
    asyncio.run(main(parser.parse_args().n))
