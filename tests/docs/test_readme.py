"""README.md stays short and true: the Quick start's two commands are the ones that work on a fresh
machine (and the second is what CI runs), every link opens a file of the repository, and each
platform's set-up page is one click away."""

from __future__ import annotations

import re

from tests.docs.pages import DOCS, ROOT

README = ROOT / "README.md"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def quick_start() -> list[str]:
    section = readme().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"^```sh\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL)
    assert block is not None, "the Quick start has no sh block"
    return block.group(1).splitlines()


def test_it_reads_in_minutes() -> None:
    assert len(readme().splitlines()) <= 200


def test_the_quick_start_is_the_two_commands() -> None:
    assert quick_start() == ["python3 -m gateway serve", "python3 -m gateway test"]


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if line.strip() and not line.startswith("#")]
    assert commands[-1] == quick_start()[1]


def test_every_link_opens_a_file_and_every_platform_page_is_linked() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", readme())
    local = [link for link in links if "://" not in link]
    for link in local:
        assert (ROOT / link).exists(), link
    for platform in ("discord", "irc", "matrix", "secondlife"):
        assert f"docs/running/{platform}.md" in local
    assert (DOCS / "index.md").relative_to(ROOT).as_posix() in local
