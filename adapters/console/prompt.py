"""The interactive prompt, on prompt_toolkit: line editing, history, Tab completion, and lines that
arrive while someone types (the Storyteller log) printed above the prompt, the typed text kept.

``input()`` in a thread (as before) could do none of this: a log line printed from the loop
overwrote the half-typed line, and Tab inserted spaces.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import to_formatted_text
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.patch_stdout import patch_stdout

from adapters.console.complete import ConsoleCompleter, NameSource

HISTORY_FILE = "console_history"


def history_path(section: dict[str, Any], vault_url: str) -> Path | None:
    """``[console] history`` when set (``""`` for none); else beside a SQLite vault file, the
    gateway's data folder; else None (the history lives as long as the session)."""
    if "history" in section:
        return Path(section["history"]).expanduser() if section["history"] else None
    scheme, _, rest = vault_url.partition(":///")
    if scheme.startswith("sqlite") and rest and not rest.startswith(":memory:"):
        return Path(rest.split("?")[0]).parent / HISTORY_FILE
    return None


def make_history(path: Path | None) -> History:
    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:  # a read-only folder: history for this session only, the console still works
        return InMemoryHistory()
    return FileHistory(str(path))


class ConsolePrompt:
    """One prompt session. ``input``/``output`` are the terminal's unless given (tests give
    prompt_toolkit's pipe input and a recording output)."""

    def __init__(
        self,
        message: str,
        names: NameSource,
        history: History,
        *,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.names = names
        self._own_terminal = input is None and output is None
        self.session: PromptSession[str] = PromptSession(
            message,
            history=history,
            completer=ConsoleCompleter(names),
            complete_while_typing=False,
            input=input,
            output=output,
        )

    async def lines(self) -> AsyncIterator[str]:
        """Each line entered; ends at Ctrl-D. Ctrl-C raises ``KeyboardInterrupt`` here (the terminal
        is in raw mode while the prompt is open, so it sends no SIGINT): the caller decides."""
        with self._patched():
            while True:
                try:
                    # The loop's own SIGINT handler (``serve``'s) stays: prompt_toolkit's would
                    # replace it and remove it after each line.
                    line = await self.session.prompt_async(handle_sigint=False)
                except EOFError:
                    return
                yield line

    def show(self, text: str) -> None:
        """Print a line: above the prompt while it is open (the prompt is drawn again below it,
        with what was typed), plainly otherwise."""
        fragments = to_formatted_text(text)  # plain text: a `<` in a reply is not markup
        app = self.session.app
        if app.is_running and app.context is not None:
            # In the prompt's own context, so that prompt_toolkit sees it running from any task.
            app.context.copy().run(print_formatted_text, fragments, output=self.session.output)
        else:
            print_formatted_text(fragments, output=self.session.output)

    @contextlib.contextmanager
    def _patched(self) -> Iterator[None]:
        """On the real terminal, other writes to stdout and stderr (log lines with ``-v``) go above
        the prompt too."""
        if not self._own_terminal:
            yield
            return
        with patch_stdout(raw=True):
            yield
