"""The chat examples of the docs, read from the pages: each fenced ``chat`` block is an exchange that
tests/docs/test_examples.py replays against a real gateway with scripted dice (as sopel's
``@plugin.example`` does for its commands).

How a page writes one::

    % dice: 9 5 10 | 4 2
    ```chat
    mira> roll 3
    Mira rolls 3 dice: 9 5 10 → 3 (Solid) #k3f9m2x
    mira> roll 2d6+3
    Mira rolls 2d6+3: [4 2] + 3 → 9 #8nearnt
    ```

- ``NAME> LINE`` is a player typing LINE (bare, as in the console); ``NAME (st)> LINE`` a Storyteller.
- The lines up to the next ``>`` line are the replies, in order, exactly; a roll's id (``#k3f9m2x``)
  matches any id, and a line ending in `` …`` matches any reply line that begins with the rest.
- ``% dice:`` (a MyST comment, not shown; ``<!-- dice: ... -->`` in README.md) scripts the faces:
  one group per input line, ``|`` between groups; every face must be used by its line.
- ``% setup: LINE`` runs LINE first, unseen, as a Storyteller (``% setup: system pravidla``) or,
  written ``NAME> LINE``, as that player.
- ``% minutes: N`` moves the gateway's clock (which stands still at 2026-11-30 20:00 UTC) N minutes
  on before the block runs, after its set-up.

The blocks of one page run in order on one gateway, so a page can make a character and then roll it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

INPUT = re.compile(r"^(?P<name>[a-z][a-z0-9_]*)(?P<st> \(st\))?> (?P<line>.*)$")
ROLL_ID = re.compile(r"#[0-9a-z]{5,7}\b")
# The hidden lines above a block: MyST comments (``% dice: 9 5 10``) or, where MyST is not the reader
# (README.md on a forge), HTML comments (``<!-- dice: 9 5 10 -->``).
COMMENT = r"(?:%[^\n]*|<!--[^\n]*-->)\n"
BLOCK = re.compile(rf"((?:^{COMMENT})*)^```chat\n(.*?)^```", flags=re.MULTILINE | re.DOTALL)


@dataclass
class Turn:
    """One line typed and the replies the page shows for it."""

    speaker: str
    storyteller: bool
    line: str
    dice: list[int]
    replies: list[str] = field(default_factory=list)


@dataclass
class Block:
    """One ``chat`` block: where it is, its hidden set-up lines and its turns."""

    page: Path
    line: int
    setup: list[str]
    turns: list[Turn]
    minutes: float = 0

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        comments, body = match.group(1), match.group(2)
        dice_groups: list[list[int]] = []
        setup: list[str] = []
        minutes = 0.0
        for comment in comments.splitlines():
            plain = (
                comment.removeprefix("<!--").removesuffix("-->") if comment.startswith("<!--") else comment
            )
            key, _, value = plain.lstrip("%").strip().partition(":")
            if key == "dice":
                dice_groups = [[int(f) for f in group.split()] for group in value.split("|")]
            elif key == "setup":
                setup.append(value.strip())
            elif key == "minutes":
                minutes = float(value)
        turns: list[Turn] = []
        for raw in body.splitlines():
            said = INPUT.match(raw)
            if said:
                index = len(turns)
                dice = dice_groups[index] if index < len(dice_groups) else []
                turns.append(Turn(said["name"], bool(said["st"]), said["line"], dice))
            elif turns:
                turns[-1].replies.append(raw)
            else:
                raise ValueError(f"{page}: a chat block must start with a `NAME> LINE` input: {raw!r}")
        if len(dice_groups) > len(turns):
            raise ValueError(f"{page}: more dice groups than input lines in a chat block")
        line = text[: match.start(2)].count("\n")
        found.append(Block(page, line, setup, turns, minutes))
    return found


def normalised(text: str) -> str:
    return ROLL_ID.sub("#ID", text.rstrip())


def matches(expected: list[str], got: list[str]) -> bool:
    """The page's reply lines against the gateway's, line by line (ids free, `` …`` a prefix)."""
    if len(expected) != len(got):
        return False
    for want, have in zip(expected, got, strict=True):
        want, have = normalised(want), normalised(have)
        if want.endswith(" …"):
            if not have.startswith(want[:-2]):
                return False
        elif want != have:
            return False
    return True
