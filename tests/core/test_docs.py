"""The docs' Extending pages are the plugin author's reference: every hook in ``gateway/core/hookspecs.py``
and every public name of ``gateway.testing`` (its doubles and its pytest plugin's fixtures) is named
there, in code, so the documented contract cannot fall behind the code (datasette checks its hooks
the same way). The hook reference page (autodoc) lists the hooks too; this checks the prose."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

import gateway.testing
import gateway.testing.plugin
from gateway.core import hookspecs

EXTENDING = Path(__file__).resolve().parents[2] / "docs" / "extending"


def extending_text() -> str:
    """The Extending pages, the hook reference page left out (it is generated from the hooks)."""
    return "\n".join(
        p.read_text(encoding="utf-8") for p in sorted(EXTENDING.glob("*.md")) if p.name != "hooks.md"
    )


def hookspec_names() -> set[str]:
    """Every ``gateway_*`` function of the hookspecs module that carries pluggy's hookspec mark."""
    mark = f"{hookspecs.PROJECT}_spec"  # where pluggy's HookspecMarker keeps its options
    return {
        name
        for name, value in vars(hookspecs).items()
        if name.startswith("gateway_") and callable(value) and hasattr(value, mark)
    }


def fixture_names(module: ModuleType) -> set[str]:
    # pytest marks each fixture definition with this attribute (a FixtureFunctionDefinition from 8.4 on).
    return {name for name, value in vars(module).items() if hasattr(value, "_fixture_function_marker")}


def public_testing_names() -> set[str]:
    return {*gateway.testing.__all__, *fixture_names(gateway.testing.plugin)}


def readme_code(text: str) -> str:
    """A page's code: fenced blocks and inline code spans, one per line."""
    fence = re.compile(r"^```.*?^```", flags=re.MULTILINE | re.DOTALL)
    return "\n".join([*fence.findall(text), *re.findall(r"`([^`\n]+)`", fence.sub("", text))])


def names(name: str, code: str) -> bool:
    """``code`` names ``name`` itself: ``start_chat(url)``, ``gateway.testing.Chat``, ``async def
    test(chat)``; not a longer word or a dotted name that merely ends with it (``irc.libera.chat``)."""
    return re.search(rf"(?<![\w.]){name}\b|\bgateway\.testing\.{name}\b", code) is not None


def test_the_introspection_finds_what_it_checks() -> None:
    """A pluggy or pytest upgrade that hid the marks would otherwise make the other tests vacuous."""
    assert {"gateway_register_commands", "gateway_register_adapters", "gateway_startup"} <= hookspec_names()
    assert {"chat", "any_chat", "vault_url", "sqlite_url"} <= fixture_names(gateway.testing.plugin)
    assert {"Chat", "FakeAdapter", "start_chat"} <= public_testing_names()


@pytest.mark.parametrize("name", sorted(hookspec_names() | public_testing_names()))
def test_each_public_name_is_in_the_extending_pages(name: str) -> None:
    assert names(name, readme_code(extending_text())), f"docs/extending/ does not name `{name}`"


def test_only_the_name_itself_counts() -> None:
    code = readme_code(
        "Chat `host = irc.libera.chat`, `any_chat`, and\n```python\nawait start_chat(url)\n```\n"
    )
    assert names("start_chat", code) and names("any_chat", code)
    assert not names("chat", code) and not names("Chat", code)
    assert names("Chat", readme_code("`gateway.testing.Chat`"))
