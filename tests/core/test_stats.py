"""``stats`` through the router: exact counts from scripted dice in every rule system, the tests'
verdict on fair (seeded) and loaded faces, who may see whose statistics, ``--since`` and the kept
tallies on both engines, and the production dice's rejection sampling."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from gateway.core.dice import SystemDice
from gateway.testing import Chat

# system, a roll command, its faces, the label its result is counted under
ROLLS = [
    ("nightcap", "roll 3", [7, 1, 10], "solid"),
    ("dramatic", "roll 3", [6, 1, 10], "success"),
    ("decanter", "roll 4 dc 3", [6, 6, 6, 2], "success"),
    ("pravidla", "roll 3", [4, 1, 6], "success"),
    ("nightwanderers", "roll 3", [4, 1, 6], "good"),
]


async def stats(chat: Chat, text: str = "stats", as_: str = "mira", **kw: Any) -> dict[str, Any]:
    reply = await chat.one(text, as_=as_, **kw)
    assert reply.error is None, reply.text
    assert reply.result is not None and reply.private
    return reply.result


async def roll(chat: Chat, command: str, faces: list[int], as_: str = "mira") -> None:
    chat.dice.extend(faces)
    reply = await chat.one(command, as_=as_)
    assert reply.error is None, reply.text
    assert chat.dice.remaining == 0


@pytest.mark.parametrize(("system", "command", "faces", "label"), ROLLS)
async def test_counts_are_exact_in_every_system(
    chat: Chat, system: str, command: str, faces: list[int], label: str
) -> None:
    assert (await chat.one(f"system {system}", as_="st", st=True)).error is None
    await roll(chat, command, faces)
    await roll(chat, command, faces)
    await roll(chat, command, faces, as_="olga")  # someone else's: not in mira's own
    mine = await stats(chat)
    sides = "6" if system in ("pravidla", "nightwanderers") else "10"
    counted = Counter(faces * 2)
    assert (mine["system"], mine["rolls"], mine["dice"]) == (system, 2, 2 * len(faces))
    assert mine["faces"][sides]["counts"] == [counted[f] for f in range(1, int(sides) + 1)]
    assert mine["faces"][sides]["expected"] == 2 * len(faces) / int(sides)
    results = mine["results"]
    assert dict(zip(results["labels"], results["observed"], strict=True))[label] == 2
    assert sum(results["observed"]) == 2
    assert sum(results["expected"]) == pytest.approx(2.0)
    assert mine["verdict"] == "too_few"
    everyone = await stats(chat, "stats channel", as_="st", st=True)
    assert (everyone["rolls"], everyone["dice"]) == (3, 3 * len(faces))


async def test_the_reply_reads_in_each_language(chat: Chat) -> None:
    await roll(chat, "roll 3", [7, 1, 10])
    english = (await chat.one("stats", as_="mira")).text
    assert english.startswith("Dice statistics, your rolls (Nightcap): 1 roll, 3 dice.\n")
    assert "d10 faces (each expected 0.3): 1: 1, 2: 0" in english
    assert "solid 1 (expected 0.3)" in english
    assert english.endswith("Too few rolls to judge the dice yet.")
    assert (await chat.one("lang cs", as_="mira")).error is None
    czech = (await chat.one("stats", as_="mira")).text
    assert czech.startswith("Statistika kostek, vaše hody (Nightcap): 1 hod, 3 kostky.\n")
    assert "Stěny k10 (u každé se čeká 0,3)" in czech
    assert (await chat.one("lang ru", as_="mira")).error is None
    russian = (await chat.one("stats", as_="mira")).text
    assert russian.startswith("Статистика кубиков, ваши броски (Nightcap): 1 бросок, 3 кубика.\n")


def uniform_faces(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, 10) for _ in range(count)]


async def test_fair_faces_are_called_fair(chat: Chat) -> None:
    """A seeded run of uniform faces: the faces and the results fit (p is nowhere near tiny)."""
    faces = uniform_faces(18, 1200)
    for i in range(0, len(faces), 8):
        await roll(chat, "roll 8", faces[i : i + 8])
    result = await stats(chat)
    assert (result["rolls"], result["dice"]) == (150, 1200)
    assert result["faces"]["10"]["test"]["df"] == 9
    assert result["results"]["test"]["df"] >= 2
    assert result["p"] > 0.05
    assert result["verdict"] == "fair"
    assert (await chat.one("stats", as_="mira")).text.splitlines()[-1].startswith("Consistent with fair dice")


async def test_loaded_faces_are_called_unusual(chat: Chat) -> None:
    """A die that shows 10 one time in four: both the faces and the degrees give it away."""
    rng = random.Random(7)
    faces = [10 if rng.random() < 0.25 else rng.randint(1, 9) for _ in range(800)]
    for i in range(0, len(faces), 8):
        await roll(chat, "roll 8", faces[i : i + 8])
    result = await stats(chat)
    assert result["faces"]["10"]["test"]["p"] < 1e-6
    assert result["results"]["test"]["p"] < 0.01
    assert result["verdict"] == "unusual"
    verdict = (await chat.one("stats", as_="mira")).text.splitlines()[-1]
    assert verdict.startswith("Unusual: fair dice stray this far")


async def test_who_may_see_whose_statistics(chat: Chat) -> None:
    assert (await chat.one("char new Mira Vance", as_="mira")).error is None
    assert (await chat.one("char new Olga Roth", as_="olga")).error is None
    await roll(chat, "roll 2", [7, 8])
    assert (await stats(chat, "stats Mira Vance"))["rolls"] == 1  # her own character: allowed
    refused = await chat.one("stats Olga Roth", as_="mira")
    assert refused.error == "forbidden"
    assert refused.text == (
        "Olga Roth is not your character: players see the statistics of their own rolls only."
    )
    refused = await chat.one("stats channel", as_="mira")
    assert refused.error == "forbidden"
    assert refused.text.startswith("Only a Storyteller sees the whole chronicle's statistics")
    assert (await stats(chat, "stats Olga Roth", as_="st", st=True))["rolls"] == 0
    assert (await stats(chat, "stats channel", as_="st", st=True))["rolls"] == 1
    nobody = await chat.one("stats Nobody Here", as_="st", st=True)
    assert nobody.text == "No Nightcap character called Nobody Here."


async def test_bad_options_get_one_line(chat: Chat) -> None:
    since = await chat.one("stats --since soonish")
    assert since.error is not None
    assert since.text.startswith("I cannot read 'soonish' as a time")
    system = await chat.one("stats --system chess")
    assert system.error is not None
    assert system.text.startswith("No rule system called chess: installed are ")
    assert (await stats(chat, "stats --since 9999-12-31"))["rolls"] == 0  # the last day there is
    assert (await stats(chat, "stats --since 99999w"))["rolls"] == 0
    flag = await chat.one("stats --since")
    assert flag.error is not None and "\n" not in flag.text


async def test_another_systems_rolls_with_system(chat: Chat) -> None:
    await roll(chat, "roll 3", [7, 1, 10])
    assert (await chat.one("system dramatic", as_="st", st=True)).error is None
    assert (await stats(chat))["rolls"] == 0
    assert (await stats(chat, "stats me --system nightcap"))["rolls"] == 1


async def test_since_and_kept_tallies_on_every_engine(any_chat: Chat) -> None:
    chat = any_chat
    await roll(chat, "roll 2", [7, 8])  # 2026-11-30 20:00 UTC
    chat.clock.advance(days=3)
    await roll(chat, "roll 2", [1, 2])  # 2026-12-03 20:00
    assert (await stats(chat))["rolls"] == 2  # one of them too young to keep yet
    chat.clock.advance(minutes=5)
    assert (await stats(chat))["rolls"] == 2  # both kept now
    await roll(chat, "roll 2", [3, 4])  # 20:05, fresh
    assert (await stats(chat))["rolls"] == 3
    assert (await stats(chat, "stats --since 1h"))["rolls"] == 2  # that day's, kept and fresh
    assert (await stats(chat, "stats --since 3m"))["rolls"] == 1
    assert (await stats(chat, "stats --since 2d"))["rolls"] == 2
    old = await stats(chat, "stats --since 2026-11-29")
    assert old["rolls"] == 3  # whole kept days after the first one
    assert old["faces"]["10"]["counts"] == [1, 1, 1, 1, 0, 0, 1, 1, 0, 0]
    chat.clock.advance(minutes=5)
    assert (await stats(chat, "stats --since 2026-11-30T20:00Z"))["rolls"] == 3  # on its first day
    assert (await stats(chat, "stats --since 2026-11-30T20:01Z"))["rolls"] == 2
    assert (await stats(chat, "stats channel", as_="st", st=True))["rolls"] == 3


@pytest.mark.parametrize("sides", range(1, 21))
def test_system_dice_map_every_accepted_byte_to_equally_many_faces(sides: int) -> None:
    """Every byte value once: the faces come out equally often (bytes at or above the largest
    multiple of ``sides`` are dropped, never folded onto the low faces)."""
    dice = SystemDice(random_bytes=lambda n: bytes(range(256)), chunk=256)
    accepted = 256 - 256 % sides
    faces = Counter(dice.roll(sides) for _ in range(accepted))
    assert faces == dict.fromkeys(range(1, sides + 1), accepted // sides)


async def test_a_roll_amended_by_a_story_point_is_counted_once(chat: Chat) -> None:
    """Decanter's ``downgrade`` logs the roll again, amended: its dice and first degree count once."""
    assert (await chat.one("system decanter", as_="st", st=True)).error is None
    assert (await chat.one("char new Vera Lind", as_="mira")).error is None
    await roll(chat, "roll 4 dc 3", [6, 6, 6, 2])  # a success
    downgraded = await chat.one("downgrade 1", as_="mira")
    assert downgraded.error is None, downgraded.text
    counted = await stats(chat)
    assert (counted["rolls"], counted["dice"], counted["other"]) == (1, 4, 1)
    results = dict(zip(counted["results"]["labels"], counted["results"]["observed"], strict=True))
    assert (results["success"], results.get("setback", 0)) == (1, 0)


async def test_asks_at_once_count_each_roll_once(any_chat: Chat, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reads of one scope in flight together (a first read of the log is many reads) fold each
    roll into the kept tally once (on PostgreSQL the two transactions run side by side)."""
    import asyncio

    chat = any_chat
    from gateway.features.stats import store

    faces = uniform_faces(3, 300)
    for i in range(0, len(faces), 3):
        await roll(chat, "roll 3", faces[i : i + 3])
    chat.clock.advance(minutes=5)
    vault = chat.services.vault
    shape = chat.gateway.plugins.roll_distribution
    scope = store.Scope("channel", "console:main", "nightcap")

    async def ask() -> int:
        async with vault.transaction() as session:
            return (await store.tally(session, vault, scope, shape, chat.clock.now, None)).rolls

    monkeypatch.setattr(store, "MIN_CHUNK", 7)  # many reads, so that the two asks interleave
    monkeypatch.setattr(store, "MAX_CHUNK", 7)
    monkeypatch.setattr(store.PACE, "rows", 7)
    assert await asyncio.gather(ask(), ask()) == [100, 100]
    assert await ask() == 100


@pytest.mark.parametrize(
    ("system", "lang", "faces", "shown"),
    [
        ("pravidla", "cs", [4, 1, 6], "podařilo se 1 (čeká se "),
        ("nightwanderers", "ru", [4, 1, 6], "Хорошо 1 (ожидается "),
        ("nightwanderers", "en", [4, 1, 6], "Good 1 (expected "),
        ("nightcap", "cs", [7, 1, 10], "solid 1 (čeká se "),  # Nightcap's book has English words only
    ],
)
async def test_results_are_named_in_the_readers_language(
    chat: Chat, system: str, lang: str, faces: list[int], shown: str
) -> None:
    assert (await chat.one(f"system {system}", as_="st", st=True)).error is None
    assert (await chat.one(f"lang {lang}", as_="mira")).error is None
    await roll(chat, "roll 3", faces)
    text = (await chat.one("stats", as_="mira")).text
    assert shown in text, text
