"""Issue 14, Matrix: ``formatted_body`` says everything ``body`` says (Element shows only the HTML).

A property over reply texts and results of every kind the renderer handles, and the real replies of
the commands the issue names (``char new``, ``char use``, ``sheet``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.matrix.render import render_content
from gateway.testing import Chat

BLOCK_TAGS = {"br", "p", "table", "caption", "tbody", "tr", "th", "td"}


class _Text(HTMLParser):
    """The text a client shows: inline tags add nothing, block tags and cells break the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCK_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCK_TAGS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return squash("".join(parser.parts))


def squash(text: str) -> str:
    return " ".join(text.split())


def sentences(body: str) -> list[str]:
    """Lines, `` · `` items and sentences of a body, each with its whitespace collapsed."""
    pieces = re.split(r"\n| · |(?<=[.!?;])\s+", body)
    return [squash(p) for p in pieces if p.strip()]


def assert_same_text(payload: dict[str, Any]) -> None:
    content = render_content(payload)
    assert content["body"] == payload["text"]
    if "formatted_body" not in content:  # too big for HTML: clients show the body itself
        return
    visible = shown(content["formatted_body"])
    for sentence in sentences(content["body"]):
        assert sentence in visible, (sentence, content["formatted_body"])


WORDS = st.text(alphabet="abcXYZ019<>&\"'.:;,-—()/#→ ", min_size=0, max_size=24)
LINES = st.lists(
    st.one_of(
        WORDS,
        st.builds(lambda k, v: f"{k}: {v}", WORDS, WORDS),
        st.lists(st.builds(lambda k, v: f"{k}: {v}", WORDS, WORDS), min_size=1, max_size=4).map(" · ".join),
    ),
    min_size=1,
    max_size=6,
)
ROLL = st.fixed_dictionaries(
    {
        "kind": st.just("roll"),
        "dice": st.lists(st.integers(1, 10), max_size=5),
        "total": st.integers(-3, 9),
        "degree": st.sampled_from(["solid", "botch", "marginal", "failure", "exceptional"]),
    }
)
RESULTS = st.one_of(
    st.none(),
    ROLL,
    st.builds(lambda a, b: {"kind": "contest", "sides": [a, b], "outcome": "deadlock"}, ROLL, ROLL),
    st.builds(
        lambda kind: {"kind": kind, "name": "Mira"},
        st.sampled_from(["sheet", "prove", "character", "sheet_export"]),
    ),
    st.just({"kind": "prove", "name": "Mira", "traits": {"physical": 2}}),
    st.just({"kind": "verify", "roll": {"dice": [3, 4], "total": 0, "degree": "failure"}}),
    st.just({"kind": "help", "commands": ["roll"]}),
)


@settings(max_examples=400, deadline=None)
@given(LINES, RESULTS)
def test_html_shows_every_sentence_of_the_body(lines: list[str], result: dict[str, Any] | None) -> None:
    payload: dict[str, Any] = {"text": "\n".join(lines), "kind": "reply"}
    if result is not None:
        payload["result"] = result
    assert_same_text(payload)


async def test_the_replies_the_issue_names_lose_nothing(chat: Chat) -> None:
    texts: dict[str, str] = {}
    for line in (
        "char new Mira Vey",
        "trait physical 3",
        "power add Veil basic social",
        "char set origin A&B",
        "sheet",
        "char new Other",
        "char use Mira Vey",
        "char list",
        "help",
    ):
        reply = await chat.one(line, as_="mira")
        assert reply.error is None, reply.text
        texts[line] = reply.text
        assert_same_text({"text": reply.text, "result": reply.result, "kind": "reply"})
    new = render_content({"text": texts["char new Other"], "result": {"kind": "character", "name": "Other"}})
    assert "Traits start at 1: place 6 points" in shown(new["formatted_body"])
    use = render_content(
        {"text": texts["char use Mira Vey"], "result": {"kind": "character", "name": "Mira Vey"}}
    )
    assert "is now your active character" in shown(use["formatted_body"])
