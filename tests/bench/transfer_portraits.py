"""Benchmark: ``gateway export characters`` and ``gateway import characters`` of characters that each
have a biography of 1,250 characters and a portrait of 480 KB (a 700 × 700 PNG of noise, which does
not compress), for each count asked: wall time, the file's size and each process's peak memory (max
RSS). The export streams character by character, so its memory should not grow with the count; the
import holds the checked file (``docs/running/backups.md``).

Run: ``.venv/bin/python -m tests.bench.transfer_portraits [--counts 50,100]`` (SQLite, in a temporary
folder; each command runs as its own process, as an operator runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from sqlmodel import select

from gateway.features import profiles
from gateway.testing import start_chat
from gateway.vault.models import Character

# The CLI in a child process that reports its own peak memory on standard error, last.
CHILD = """
import resource, runpy, sys
sys.argv = ["gateway", *sys.argv[1:]]
try:
    runpy.run_module("gateway", run_name="__main__")
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.stderr)
"""


def portrait(seed: int) -> bytes:
    out = io.BytesIO()
    Image.frombytes("L", (700, 700), random.Random(seed).randbytes(700 * 700)).save(out, "PNG")
    return out.getvalue()


async def fill(url: str, count: int) -> None:
    chat = await start_chat(url)
    try:
        for i in range(count):
            assert (await chat.one(f"char new Person {i}", as_=f"p{i}")).error is None
            assert (await chat.one("char bio " + "word " * 250, as_=f"p{i}")).error is None
        async with chat.services.vault.transaction() as session:
            for character in (await session.exec(select(Character))).all():
                assert character.id is not None
                await profiles.set_portrait(
                    session, character.id, portrait(character.id), "image/png", chat.clock()
                )
    finally:
        await chat.stop()


def gateway(url: str, *args: str) -> tuple[float, int]:
    """Runs ``gateway ARGS`` on the vault at ``url``: seconds, peak MB."""
    environ = {
        **os.environ,
        "GATEWAY_NO_VENV": "1",
        "GATEWAY_VAULT_URL": url,
        "GATEWAY_WEB__PORTRAIT_KIB": "1000",
    }
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, *args], env=environ, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return elapsed, int(done.stderr.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="50,100", help="characters per run, comma-separated")
    counts = [int(n) for n in parser.parse_args().counts.split(",")]
    print(f"portrait {len(portrait(1)):,} bytes; biography 1,250 characters")
    print("characters  file MB  export s  export MB  import s  import MB")
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            source, target = (f"sqlite+aiosqlite:///{Path(folder) / name}" for name in ("s.db", "t.db"))
            asyncio.run(fill(source, count))
            asyncio.run(fill(target, 0))  # migrated, empty
            path = Path(folder) / "out.json"
            out_s, out_mb = gateway(source, "export", "characters", "--out", str(path))
            in_s, in_mb = gateway(target, "import", "characters", str(path))
            size = path.stat().st_size / 1e6
            print(f"{count:10}  {size:7.1f}  {out_s:8.2f}  {out_mb:9}  {in_s:8.2f}  {in_mb:9}")


if __name__ == "__main__":
    main()
