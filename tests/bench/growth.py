"""Benchmark: the cost of read commands as a vault grows (issue 22, "flat in data"), and roll-id clashes.

Builds one vault per size (default 1k, 100k and 1M rolls, with 10, 1k and 10k characters, and
Storyteller-log and audit rows in proportion) straight into the gateway's own tables (Core ``insert``
executemany, large transactions, on a migrated vault), then serves each one's HTTP API in this
process on a loopback port and times commands through ``POST /api/v1/command``, and the web's
signed-in pages that read the logs (a player's sheet with its newest rolls, a Storyteller's profile
with its audit history, the Storyteller log page) by GET with a session cookie: per size the median
of ``--repeat`` runs of ``--calls`` calls, the sizes interleaved. Prints wall ms and CPU ms
(this process: server and client, the same client for every size) per command and size, the
largest size over the smallest, and the roll-id clash rate (old 5-letter and new ids, measured
against the built vault's ids and computed for 10M rolls).

The shape of a vault of N rolls: N/100 characters (at least 10), a third as many players; rolls
spread at 500 a day (so "today" holds about as many at every size), 30% without a character, 5% on
the benchmark's character (Mira Vance, so her own log grows with the vault), three characters
named Vance; Storyteller-log entries 10% and audit rows 5% of N. The built rolls have 5-letter ids,
as ids handed out before new ones got 7.

Run: ``.venv/bin/python -m tests.bench.growth [--sizes 1000,100000,1000000] [--repeat 3]
[--calls 5] [--postgres URL] [--engines sqlite,postgresql]`` (SQLite; with ``--postgres`` each size
also on a fresh PostgreSQL database, dropped after).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from sqlalchemy import Table, bindparam, insert, inspect, text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from adapters.web.account.tokens import digest, new_token
from gateway.core.app import Gateway, build_app
from gateway.core.commands import ID_ALPHABET, new_public_id
from gateway.core.settings import Settings
from gateway.features.web_sessions import open_session
from gateway.ops.logging import configure_logging
from gateway.vault.engine import _JSON, Vault  # the gateway's JSON encoding, for the same stored text
from gateway.vault.migrate import upgrade
from gateway.vault.models import Audit, Character, IdentityLink, Person, Pool, RollLog, StlogEntry
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.sheet import DAMAGE, new_sheet, pool_maxima
from tests.fault.cluster import create_database, drop_database
from tests.irc.ircd import free_port

TOKENS = {"st": "growth-storyteller", "player": "growth-player"}
NAME = "Mira Vance"
CHANNEL = "growth"
ROLLS_PER_DAY = 500
CHUNK = 20_000  # rows per executemany (or COPY); one transaction per table
OLD_ID_LENGTH = 5


def progress(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def table(model: Any) -> Table:
    return inspect(model).local_table  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- building a vault


@dataclass
class Built:
    rolls: int
    characters: int
    seconds: float
    old_id: str  # the oldest roll's id
    ids: set[str] = field(repr=False)


def characters_for(rolls: int) -> int:
    return max(10, rolls // 100)


def character_name(i: int, count: int) -> str:
    """Names that ``st search vance`` finds three of at every size: Mira Vance (1), the middle one
    and the last one."""
    if i == 1:
        return NAME
    first = ("Ada", "Bran", "Cora", "Dov", "Esme", "Fen", "Gil", "Hana", "Ivo", "Juno")[i % 10]
    last = "Vance" if i in (count // 2, count) else ("Roth", "Kell", "Marsh", "Quill", "Sato", "Wren")[i % 6]
    return f"{first} {last} {i}"


def unique_ids(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct 5-letter ids, drawn as the gateway drew them before (clashes drawn again)."""
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        number = rng.getrandbits(64)
        letters = []
        for _ in range(OLD_ID_LENGTH):
            number, digit = divmod(number, len(ID_ALPHABET))
            letters.append(ID_ALPHABET[digit])
        public_id = "".join(letters)
        if public_id not in seen:
            seen.add(public_id)
            out.append(public_id)
    return out


def spread(count: int, rolls: int, now: datetime) -> Iterator[datetime]:
    """``count`` moments spread evenly over the vault's life (``rolls`` at ROLLS_PER_DAY), oldest first."""
    span = timedelta(days=max(1.0, rolls / ROLLS_PER_DAY))
    start = now - span - timedelta(minutes=1)
    step = span / max(1, count)
    for i in range(count):
        yield start + step * i


def take(rows: Iterator[Any], count: int) -> list[Any]:
    return list(itertools.islice(rows, count))


async def insert_chunks(conn: AsyncConnection, model: Any, rows: Iterator[dict[str, Any]]) -> None:
    """``rows`` into ``model``'s table in chunks, the next chunk made (in a thread) while the database
    writes one. The rows are bound in that thread with the columns' own bind processors (what
    ``insert(table)`` would send) and handed to the driver: an executemany of ``insert(table)`` on
    SQLite, a binary COPY on PostgreSQL. SQLAlchemy's per-row work was most of the build."""
    first = next(rows, None)
    if first is None:
        return
    rows = itertools.chain([first], rows)
    columns = [c for c in table(model).columns if c.name in first]  # the rest take their defaults
    bind = [(c.name, c.type._cached_bind_processor(conn.dialect)) for c in columns]

    def bound(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(row[name] if f is None else f(row[name]) for name, f in bind)

    if conn.dialect.name == "postgresql":
        driver = (await conn.get_raw_connection()).driver_connection
        names = [c.name for c in columns]

        async def write(chunk: list[tuple[Any, ...]]) -> None:
            await driver.copy_records_to_table(table(model).name, records=chunk, columns=names)
    else:
        values = {c.name: bindparam(c.name) for c in columns}
        sql = str(insert(table(model)).values(values).compile(dialect=conn.dialect))  # qmark, in order

        async def write(chunk: list[tuple[Any, ...]]) -> None:
            await conn.exec_driver_sql(sql, chunk)

    tuples = map(bound, rows)
    chunk = await asyncio.to_thread(take, tuples, CHUNK)
    while chunk:
        _, chunk = await asyncio.gather(write(chunk), asyncio.to_thread(take, tuples, CHUNK))


async def build(url: str, rolls: int, *, seed: int = 22, now: datetime | None = None) -> Built:
    """A migrated vault of ``rolls`` rolls and the rest in proportion (see the module's docstring),
    the newest a minute before ``now``."""
    started = time.perf_counter()
    vault = Vault(url)
    try:
        await upgrade(vault)
    finally:
        await vault.dispose()
    rng = random.Random(seed)
    now = now or datetime.now(UTC)
    n_chars = characters_for(rolls)
    n_people = max(3, n_chars // 3)
    ids = unique_ids(rolls, rng)
    sheet = new_sheet()
    ns = NightcapSettings()
    maxima = pool_maxima(sheet, essence_max=ns.essence_max, health_levels=ns.health_levels)
    born = now - timedelta(days=max(1.0, rolls / ROLLS_PER_DAY) + 1)

    def character_of() -> int | None:
        draw = rng.random()
        if draw < 0.30:
            return None
        if draw < 0.35:
            return 1
        return 2 + int(rng.random() * (n_chars - 1))

    def owner(character: int) -> int:  # the player (person 1) owns characters 1 to 3
        return 1 if character <= 3 else 2 + character % (n_people - 1)

    def people() -> Iterator[dict[str, Any]]:
        for i in range(1, n_people + 1):
            active = 1 if i == 1 else None
            yield dict(
                id=i,
                display_name=f"Player {i}",
                storyteller=False,
                active_character_id=active,
                created_at=born,
            )

    def identities() -> Iterator[dict[str, Any]]:
        for i in range(1, n_people + 1):
            key = "http:player" if i == 1 else f"bench:{i}"
            platform = key.split(":")[0]
            yield dict(
                key=key,
                person_id=i,
                platform=platform,
                display_name=f"Player {i}",
                verified=True,
                created_at=born,
            )

    def characters() -> Iterator[dict[str, Any]]:
        for i in range(1, n_chars + 1):
            name = character_name(i, n_chars)
            yield dict(
                id=i,
                owner_id=owner(i),
                system="nightcap",
                name=name,
                name_key=name.casefold(),
                status="approved",
                sheet=sheet,
                created_at=born,
                updated_at=born,
            )

    def pools() -> Iterator[dict[str, Any]]:
        for i in range(1, n_chars + 1):
            for pool, maximum in maxima.items():
                current = 0 if pool == DAMAGE else maximum  # unhurt, full pools
                yield dict(character_id=i, name=pool, current=current, maximum=maximum)

    def roll_rows() -> Iterator[dict[str, Any]]:
        for public_id, when in zip(ids, spread(rolls, rolls, now), strict=True):
            character = character_of()
            person = 1 + rng.randrange(n_people) if character is None else owner(character)
            dice = [1 + int(rng.random() * 10) for _ in range(5)]
            total = sum(d >= 8 for d in dice)
            degree = "success" if total else "failure"
            result = {"kind": "roll", "system": "nightcap", "pool": 5, "dice": dice, "total": total}
            result.update(degree=degree, id=public_id)
            who = f"Player {person}"
            yield dict(
                public_id=public_id,
                person_id=person,
                identity_key="http:player" if person == 1 else f"bench:{person}",
                display_name=who,
                channel_key=f"http:{CHANNEL}" if person == 1 else f"bench:table{person % 7}",
                system="nightcap",
                character_id=character,
                kind="roll",
                pool=5,
                dice=dice,
                total=total,
                degree=degree,
                result=result,
                created_at=when,
                text=f"{who} rolled 5: {' '.join(map(str, dice))} → {total} ({degree}) #{public_id}",
                stlog_kind="roll",
            )

    def stlog_rows() -> Iterator[dict[str, Any]]:
        count = rolls // 10
        for when in spread(count, rolls, now):
            character = character_of() or 1 + rng.randrange(n_chars)
            kind = ("checkin", "heal", "st_edit", "approve")[rng.randrange(4)]
            yield dict(
                person_id=owner(character),
                character_id=character,
                channel_key=f"bench:table{character % 7}",
                kind=kind,
                text=f"{kind} of character {character}",
                result={"kind": kind, "character": character},
                created_at=when,
            )

    def audit_rows() -> Iterator[dict[str, Any]]:
        count = rolls // 20
        for when in spread(count, rolls, now):
            character = character_of() or 1 + rng.randrange(n_chars)
            yield dict(
                actor_id=owner(character),
                actor_key=f"bench:{owner(character)}",
                character_id=character,
                action="st.trait",
                field_name="might",
                old_value="1",
                new_value="2",
                created_at=when,
            )

    engine = create_async_engine(url, **_JSON)
    try:
        for model, rows in (
            (Person, people()),
            (IdentityLink, identities()),
            (Character, characters()),
            (Pool, pools()),
            (RollLog, roll_rows()),
            (StlogEntry, stlog_rows()),
            (Audit, audit_rows()),
        ):
            wall, cpu = time.perf_counter(), time.process_time()
            async with engine.begin() as conn:
                if conn.dialect.name == "sqlite":  # a scratch vault: no fsyncs, the indexes in memory
                    await conn.execute(text("PRAGMA synchronous = OFF"))
                    await conn.execute(text("PRAGMA cache_size = -400000"))
                await insert_chunks(conn, model, rows)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            progress(f"  {table(model).name}: {wall:.1f} s ({cpu:.1f} s CPU)")
        async with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                for name in ("person", "character", "roll_log", "stlog", "audit"):  # ids were given
                    serial = f"pg_get_serial_sequence('{name}', 'id')"
                    await conn.execute(text(f"SELECT setval({serial}, (SELECT max(id) FROM {name}))"))
                await conn.execute(text("ANALYZE"))
    finally:
        await engine.dispose()
    return Built(rolls, n_chars, time.perf_counter() - started, ids[0], set(ids))


# --------------------------------------------------------------------------- serving and timing


@dataclass
class Served:
    built: Built
    url: str  # the API's base URL
    engine: str
    new_id: str = ""
    cookies: dict[str, str] = field(default_factory=dict)  # who -> their web session's token


@asynccontextmanager
async def serving(vault_url: str) -> AsyncIterator[str]:
    """The gateway's HTTP API on a loopback port, in this process."""
    settings = Settings(
        vault={"url": vault_url, "owner": "http:st"},
        http={"tokens": {name: token for name, token in TOKENS.items()}},
        log={"level": "warning"},
    )
    gateway = Gateway(settings, platforms=("http", "web"))
    runner = web.AppRunner(build_app(gateway))
    await runner.setup()
    port = free_port()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def command(http: aiohttp.ClientSession, base: str, who: str, line: str) -> dict[str, Any]:
    body = {"text": line, "channel": CHANNEL}
    headers = {"Authorization": f"Bearer {TOKENS[who]}"}
    async with http.post(f"{base}/api/v1/command", json=body, headers=headers) as response:
        data: dict[str, Any] = await response.json(content_type=None)
        if response.status != 200 or any(r.get("error") for r in data.get("replies", [])):
            raise SystemExit(f"{line!r} failed: HTTP {response.status} {data}")
        return data


async def sign_in(url: str) -> dict[str, str]:
    """A web session for the player and one for the Storyteller (the vault's owner), as a sign-in
    link would open them: who -> the cookie's token."""
    vault = Vault(url)
    tokens = {who: new_token() for who in TOKENS}
    try:
        for who, token in tokens.items():
            await open_session(vault, f"http:{who}", digest(token), "growth bench", datetime.now(UTC))
    finally:
        await vault.dispose()
    return tokens


# The web pages that read the logs: the player's sheet shows Mira Vance's newest rolls, the
# Storyteller's profile her audit history, the log page the newest lines (character 1 is hers).
PAGES = (
    ("web: my sheet /me/c/1", "player", "/me/c/1"),
    ("web: ST profile /st/c/1", "st", "/st/c/1"),
    ("web: ST log /st/log", "st", "/st/log"),
    ("web: ST log of NAME --since today", "st", "/st/log?name=Mira+Vance&since=today"),
)


async def page(http: aiohttp.ClientSession, served: Served, who: str, path: str) -> None:
    headers = {"Cookie": f"gw_session={served.cookies[who]}"}
    async with http.get(served.url + path, headers=headers, allow_redirects=False) as response:
        body = await response.text()
        if response.status != 200 or (NAME not in body and path != "/st/log"):
            raise SystemExit(f"GET {path} as {who}: HTTP {response.status} {body[:200]!r}")


def commands(served: Served) -> list[tuple[str, str, str]]:
    """(label, who, line) of every command timed."""
    return [
        ("roll 5", "player", "roll 5"),
        ("verify old id", "player", f"verify {served.built.old_id}"),
        ("verify new id", "player", f"verify {served.new_id}"),
        ("st log --limit 20", "st", "st log --limit 20"),
        ("st log --since today", "st", "st log --since today"),
        ("st log NAME --since today", "st", f"st log {NAME} --since today"),
        ("st log NAME", "st", f"st log {NAME}"),
        ("st history NAME", "st", f"st history {NAME}"),
        ("st search vance", "st", "st search vance"),
        ("st roster", "st", "st roster"),
        ("st show NAME", "st", f"st show {NAME}"),
        ("char list", "player", "char list"),
        ("sheet", "player", "sheet"),
    ]


async def timed(
    http: aiohttp.ClientSession, served: Served, who: str, line: str, calls: int
) -> tuple[float, float]:
    """Mean wall and CPU seconds per call over ``calls`` calls (a web page when ``line`` is a path)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        if line.startswith("/"):
            await page(http, served, who, line)
        else:
            await command(http, served.url, who, line)
    return (time.perf_counter() - wall) / calls, (time.process_time() - cpu) / calls


def clash_rate(existing: set[str], length: int, draws: int) -> float:
    """The share of fresh ids of ``length`` letters that an id in ``existing`` already has."""
    return sum(new_public_id(length) in existing for _ in range(draws)) / draws


async def run_engine(engine: str, args: argparse.Namespace, workdir: Path) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    async with AsyncExitStack() as stack:
        vaults: list[tuple[str, Built]] = []
        for size in sizes:  # every vault built before any is served: a build holds the event loop
            if engine == "sqlite":
                url = f"sqlite+aiosqlite:///{workdir / f'vault-{size}.db'}"
            else:
                url = await create_database(args.postgres)
                stack.push_async_callback(drop_database, args.postgres, url)
            progress(f"{engine}: building {size} rolls")
            built = await build(url, size)
            progress(f"{engine}: built {size} rolls, {built.characters} characters in {built.seconds:.1f} s")
            vaults.append((url, built))
        served = [Served(b, await stack.enter_async_context(serving(url)), engine) for url, b in vaults]
        for one, (url, _) in zip(served, vaults, strict=True):
            one.cookies = await sign_in(url)
        http = await stack.enter_async_context(aiohttp.ClientSession())
        for one in served:  # warm up every path once, and make the new id verify looks up
            data = await command(http, one.url, "player", "roll 5")
            one.new_id = next(r["result"]["id"] for r in data["replies"] if (r.get("result") or {}).get("id"))
            for _, who, line in commands(one):
                await command(http, one.url, who, line)
            for _, who, path in PAGES:
                await page(http, one, who, path)
        wall: dict[tuple[str, int], list[float]] = {}
        cpu: dict[tuple[str, int], list[float]] = {}
        for repeat in range(args.repeat):
            progress(f"{engine}: run {repeat + 1} of {args.repeat}")
            for one in served:
                for label, who, line in [*commands(one), *PAGES]:
                    w, c = await timed(http, one, who, line, args.calls)
                    wall.setdefault((label, one.built.rolls), []).append(w)
                    cpu.setdefault((label, one.built.rolls), []).append(c)
        print(
            f"\n## {engine}: build times "
            + ", ".join(f"{s.built.rolls} rolls {s.built.seconds:.1f} s" for s in served)
        )
        labels = [label for label, _, _ in [*commands(served[0]), *PAGES]]
        for what, figures in (("wall ms", wall), ("CPU ms (server and client)", cpu)):
            print(f"\n{engine}, {what} per command, median of {args.repeat} × {args.calls} calls:\n")
            head = "| command | " + " | ".join(f"{s} rolls" for s in sizes) + f" | {sizes[-1]} ÷ {sizes[0]} |"
            print(head)
            print("|---" * (len(sizes) + 2) + "|")
            for label in labels:
                ms = [statistics.median(figures[(label, s)]) * 1000 for s in sizes]
                cells = " | ".join(f"{m:.2f}" for m in ms)
                print(f"| `{label}` | {cells} | {ms[-1] / ms[0]:.2f} |")
        print(f"\n{engine}, roll-id clash rate (a fresh id already in the vault; the unit is run again):\n")
        print("| rolls | 5 letters, measured | 5 letters, expected | 7 letters, measured | 7, expected |")
        print("|---|---|---|---|---|")
        for one in served:
            n = len(one.built.ids)
            row = [
                clash_rate(one.built.ids, 5, args.draws),
                n / 31**5,
                clash_rate(one.built.ids, 7, args.draws),
                n / 31**7,
            ]
            print(f"| {n} | " + " | ".join(f"{p:.4%}" for p in row) + " |")
        for n in (10_000_000,):
            print(f"| {n} (computed) | | {n / 31**5:.2%} | | {n / 31**7:.4%} |")
        print(f"\nnew ids have {len(served[0].new_id)} letters (e.g. {served[0].new_id})")


async def main(args: argparse.Namespace) -> None:
    configure_logging(level="warning", stream=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="gateway-growth-") as tmp:
        if "sqlite" in args.engines.split(","):
            await run_engine("sqlite", args, Path(tmp))
        if args.postgres and "postgresql" in args.engines.split(","):
            await run_engine("postgresql", args, Path(tmp))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000,1000000", help="rolls per vault, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the median is shown")
    parser.add_argument("--calls", type=int, default=5, help="calls per command in each run (their mean)")
    parser.add_argument(
        "--draws", type=int, default=200_000, help="fresh ids drawn per vault for the clash rate"
    )
    parser.add_argument("--engines", default="sqlite,postgresql", help="which of sqlite, postgresql to run")
    parser.add_argument("--postgres", help="also on PostgreSQL: a server URL (a database is made per size)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
