"""The console's interactive prompt, driven through prompt_toolkit's own pipe input and a recording
VT100 output: Tab completes commands, traits and character names, Up recalls history, a
Storyteller-log line arriving while someone types is printed above the prompt and the typed text
survives, Ctrl-D leaves cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from adapters.console.adapter import console_message
from adapters.console.complete import Names, NameSource, completions
from adapters.console.prompt import ConsolePrompt, history_path
from adapters.console.repl import interactive, make_prompt
from gateway import Gateway, Settings
from gateway.testing import eventually


class Screen:
    """What the prompt wrote, as a terminal would have received it."""

    encoding = "utf-8"

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def write(self, data: str) -> int:
        self.chunks.append(data)
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def terminal(screen: Screen) -> Vt100_Output:
    """An xterm of 24 rows and 100 columns writing to ``screen`` (no cursor-position requests)."""
    return Vt100_Output(screen, lambda: Size(rows=24, columns=100), term="xterm", enable_cpr=False)  # type: ignore[arg-type]


@dataclass
class Console:
    gateway: Gateway
    prompt: ConsolePrompt
    keys: PipeInput
    screen: Screen
    task: asyncio.Task[None]

    async def type(self, keys: str) -> None:
        self.keys.send_text(keys)

    async def shows(self, text: str) -> None:
        """Wait until the line being edited is ``text``."""
        await eventually(
            lambda: self.prompt.session.default_buffer.text == text,
            timeout=10,
            message=lambda: f"the prompt holds {self.prompt.session.default_buffer.text!r}, not {text!r}",
        )

    def entered(self) -> list[str]:
        """The lines entered, oldest first."""
        return list(reversed(self.prompt.session.history.get_strings()))

    async def entered_line(self, line: str) -> None:
        await eventually(lambda: line in self.entered(), timeout=10, message=lambda: repr(self.entered()))


async def run(gateway: Gateway, text: str, name: str = "mira", st: bool = False) -> None:
    await gateway.services.handle(console_message(text, name=name, storyteller=st))


@contextlib.asynccontextmanager
async def console(
    tmp_path: Path, *, script: str = "", st: bool = False, url: str = ""
) -> AsyncIterator[Console]:
    settings = Settings(
        vault={"url": url or f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"},
        dice={"script": script or None},
        stlog={"targets": ["console"]},
    )
    gateway = Gateway(settings, platforms=("console",))
    gateway.adapters["console"].read_terminal = False  # type: ignore[attr-defined]
    await gateway.upgrade_vault()  # PostgreSQL's too (SQLite's would be upgraded at start)
    await gateway.start()
    screen = Screen()
    try:
        with create_pipe_input() as keys:
            output = terminal(screen)
            prompt = make_prompt(gateway, "mira", st, input=keys, output=output)
            task = asyncio.create_task(interactive(gateway, prompt, "mira", st, False))
            yield Console(gateway, prompt, keys, screen, task)
            if not task.done():
                keys.send_text("\x03")  # Ctrl-C: leaves whatever the line holds
                await asyncio.wait_for(task, 10)
    finally:
        await gateway.stop()


@pytest.mark.parametrize(("typed", "completed"), [("ro", "roll"), ("char u", "char use"), ("help", "help")])
async def test_tab_completes_a_command_name(tmp_path: Path, typed: str, completed: str) -> None:
    """A command's next word (``char new`` is two); a whole name gets no space added."""
    async with console(tmp_path) as c:
        await c.type(f"{typed}\t")
        await eventually(lambda: c.prompt.names.loaded, timeout=10)
        await c.shows(completed)


async def test_tab_completes_a_trait_and_a_character_name(tmp_path: Path, vault_url: str) -> None:
    async with console(tmp_path, url=vault_url) as c:
        await run(c.gateway, "char new Mira Vance")
        await c.type("roll ph\t")
        await c.shows("roll physical")
        await c.type("\r")
        await c.entered_line("roll physical")
        await c.type("char use Mi\t")
        await c.shows("char use Mira Vance")


async def test_a_character_made_elsewhere_is_offered_at_the_next_tab(tmp_path: Path) -> None:
    """The names are cached; the sheet event of a character made by someone else marks them stale."""
    async with console(tmp_path, st=True) as c:
        await c.type("st approve Z\t")
        await eventually(lambda: c.prompt.names.loaded, timeout=10)
        await c.shows("st approve Z")  # no Z... yet: the line stays as typed
        await c.type("\x15")  # Ctrl-U: clear the line
        await c.shows("")
        await run(c.gateway, "char new Zora", name="ana")
        await c.type("st approve Z\t")
        await c.shows("st approve Zora")


async def test_tab_completes_the_sender_s_macro_names(tmp_path: Path, vault_url: str) -> None:
    """``!h`` -> ``!hit`` (a macro of the person's); one added at the prompt is offered at the next Tab."""
    async with console(tmp_path, url=vault_url) as c:
        await run(c.gateway, "macro add hit = roll {1}")
        await run(c.gateway, "macro add other = roll 1", name="ana")  # another person's: not offered
        await c.type("!h\t")
        await c.shows("!hit")
        await c.type("\x15macro add soak = roll 2\r")
        await c.entered_line("macro add soak = roll 2")
        await c.type("!\t")
        await eventually(lambda: "!soak" in c.prompt.names.current.macros, timeout=10)
        await c.type("\x15!so\t")
        await c.shows("!soak")
        assert "!other" not in c.prompt.names.current.macros


def test_a_macro_completes_only_as_the_first_word() -> None:
    names = Names(commands=("roll",), macros=("!hit", "!heal"))
    assert sorted(completions("!h", names)) == [("!heal", -2), ("!hit", -2)]
    assert completions("roll !h", names) == []


async def test_up_arrow_recalls_the_previous_line(tmp_path: Path) -> None:
    async with console(tmp_path) as c:
        await c.type("help\r")
        await c.entered_line("help")
        await c.type("\x1b[A")
        await c.shows("help")
    # Kept beside the vault: the next session recalls it too.
    assert "+help" in (tmp_path / "console_history").read_text().splitlines()
    async with console(tmp_path) as again:
        await again.type("\x1b[A")
        await again.shows("help")


async def test_a_log_line_goes_above_the_prompt_and_the_typed_text_survives(tmp_path: Path) -> None:
    async with console(tmp_path, script="9,9,9,7,7,7") as c:
        await c.type("roll")
        await c.shows("roll")
        # Someone else rolls while Mira types: the roll goes to the Storyteller log, which the outbox
        # delivers to the console adapter.
        await run(c.gateway, "roll 3", name="ana")
        await eventually(lambda: "[ST log]" in c.screen.text, timeout=10, message="no ST log line shown")
        await c.shows("roll")  # what Mira typed is still being edited
        assert "mira> " in c.screen.text.rsplit("[ST log]", 1)[1]  # the prompt is drawn again below it
        assert "[ST log] ana rolls 3 dice: 9 9 9" in c.screen.text
        await c.type(" 3\r")
        await c.entered_line("roll 3")
        await eventually(lambda: "mira rolls 3 dice: 7 7 7" in c.screen.text, timeout=10)


async def test_ctrl_d_leaves_cleanly(tmp_path: Path) -> None:
    async with console(tmp_path) as c:
        await c.type("\x04")
        await asyncio.wait_for(c.task, 10)
        assert c.task.exception() is None


async def test_under_serve_the_adapter_prompts_on_the_terminal(tmp_path: Path, monkeypatch) -> None:
    """``gateway serve`` on a terminal: the same prompt; Ctrl-C there stops the server (the prompt
    holds the terminal in raw mode, so the key sends no SIGINT of its own)."""
    settings = Settings(vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"}, dice={"script": "9"})
    gateway = Gateway(settings, platforms=("console",))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    screen = Screen()
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, stopped.set)
    try:
        with create_pipe_input() as keys:
            output = terminal(screen)
            with create_app_session(input=keys, output=output):
                await gateway.start()
            try:
                prompt = gateway.adapters["console"].prompt  # type: ignore[attr-defined]
                keys.send_text("ro\t")
                await eventually(lambda: prompt.session.default_buffer.text == "roll", timeout=10)
                keys.send_text(" 1\r")
                await eventually(
                    lambda: "rolls 1 die: 9" in screen.text, timeout=10, message=lambda: screen.text
                )
                keys.send_text("\x03")
                await asyncio.wait_for(stopped.wait(), 10)
            finally:
                await gateway.stop()
    finally:
        loop.remove_signal_handler(signal.SIGINT)


async def test_names_are_read_once_until_stale() -> None:
    reads: list[int] = []
    now = [0.0]

    async def load() -> Names:
        reads.append(1)
        if len(reads) == 3:
            raise ConnectionError("the vault is gone")
        return Names(commands=(f"cmd{len(reads)}",))

    source = NameSource(load, ttl=30, clock=lambda: now[0])
    assert (await source.fresh()).commands == ("cmd1",)
    assert (await source.fresh()).commands == ("cmd1",) and len(reads) == 1  # cached
    await source.on_event(object())  # a sheet changed
    assert (await source.fresh()).commands == ("cmd2",)
    now[0] = 31  # past the TTL, and the vault fails: the names we had, read again next time
    assert (await source.fresh()).commands == ("cmd2",)
    assert (await source.fresh()).commands == ("cmd4",)


def test_where_the_history_is_kept(tmp_path: Path) -> None:
    vault = f"sqlite+aiosqlite:///{tmp_path / 'data' / 'vault.db'}"
    assert history_path({}, vault) == tmp_path / "data" / "console_history"
    assert history_path({"history": str(tmp_path / "h")}, vault) == tmp_path / "h"
    assert history_path({"history": ""}, vault) is None  # none kept: this session only
    assert history_path({}, "sqlite+aiosqlite:///:memory:") is None
    assert history_path({}, "postgresql+asyncpg://gw@db/vault") is None


async def test_the_operators_console_is_a_storyteller_everywhere_from_the_first_serve(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue 37: the terminal of ``serve`` vouches for its operator once and for all: the vault keeps
    ``console:NAME`` as a Storyteller, so a line without the terminal's role (the web's /st asks the
    vault the same way) is a Storyteller's too."""
    settings = Settings(
        vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"}, console={"name": "op"}, stlog={}
    )
    gateway = Gateway(settings, platforms=("console",))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    screen = Screen()
    with create_pipe_input() as keys:
        with create_app_session(input=keys, output=terminal(screen)):
            await gateway.start()
        try:
            no_role = console_message("st list", name="op", storyteller=False)

            async def listed() -> bool:
                replies = await gateway.services.handle(no_role)
                return replies[0].error is None

            for _ in range(100):
                if await listed():
                    break
                await asyncio.sleep(0.1)
            assert await listed()
            other = console_message("st list", name="someone", storyteller=False)
            assert (await gateway.services.handle(other))[0].error is not None
        finally:
            await gateway.stop()
