"""Every chat example of the docs runs: each page's ``chat`` blocks are replayed, in order, against one
real gateway (a fresh SQLite vault, the installed plugins, scripted dice) and each reply must be the
one the page shows. The format is in tests/docs/examples.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.testing import start_chat
from tests.docs.examples import INPUT, Block, blocks, matches
from tests.docs.pages import DOCS, ROOT, pages

WITH_EXAMPLES = [p for p in [ROOT / "README.md", *pages()] if blocks(p)]


def test_the_docs_have_examples_for_players_and_storytellers() -> None:
    where = {p.relative_to(ROOT).parts[0] for p in WITH_EXAMPLES}
    assert {"README.md", "docs"} <= where, where
    sections = {p.relative_to(DOCS).parts[0] for p in WITH_EXAMPLES if p.is_relative_to(DOCS)}
    assert {"players", "storytellers"} <= sections, sections


@pytest.mark.parametrize("page", WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
async def test_the_examples_of_a_page(page: Path, tmp_path: Path) -> None:
    # The chronicle keeps UTC, so times on the pages do not depend on where the tests run.
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", gateway={"timezone": "UTC"})
    try:
        for block in blocks(page):
            await replay(chat, block)
    finally:
        await chat.stop()


async def replay(chat, block: Block) -> None:  # type: ignore[no-untyped-def]
    for line in block.setup:
        said = INPUT.match(line)
        if said:
            await chat.say(said["line"], as_=said["name"], st=bool(said["st"]))
        else:
            await chat.say(line, as_="gm", st=True)
    chat.clock.advance(minutes=block.minutes)
    for turn in block.turns:
        before = chat.dice.remaining
        chat.dice.extend(turn.dice)
        replies = await chat.say(turn.line, as_=turn.speaker, st=turn.storyteller)
        got = [line for reply in replies for line in reply.text.splitlines()]
        shown = "\n".join(got)
        assert matches(turn.replies, got), f"{block.where}: `{turn.line}` answered:\n{shown}"
        assert chat.dice.remaining == before, f"{block.where}: `{turn.line}` left dice unused"


def test_a_wrong_reply_does_not_match() -> None:
    assert matches(
        ["Mira rolls 3 dice: 9 5 10 → 3 (Solid) #k3f9m2x"], ["Mira rolls 3 dice: 9 5 10 → 3 (Solid) #ab12cde"]
    )
    assert not matches(
        ["Mira rolls 3 dice: 9 5 10 → 3 (Solid) #k3f9m2x"], ["Mira rolls 3 dice: 9 5 9 → 2 (Solid) #ab12cde"]
    )
    assert matches(["Nightcap commands: …"], ["Nightcap commands: assist, attack"])
    assert not matches(["one", "two"], ["one"])
