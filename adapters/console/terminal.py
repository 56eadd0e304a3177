"""Reading the terminal without holding the process open.

``input()`` blocks, so it runs in a thread; a *daemon* thread, because a thread from the default
executor would keep ``gateway serve`` alive after Ctrl-C until someone pressed Enter. One line is
read per request, so the prompt appears only when the previous answer has been printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading


async def read_line(prompt: str) -> str:
    """The next line typed at ``prompt``; raises ``EOFError`` at end of input (Ctrl-D)."""
    with contextlib.suppress(ImportError):  # line editing and history where the platform has it
        import readline  # noqa: F401
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(line or "")

    def work() -> None:
        try:
            line = input(prompt)
        except BaseException as exc:  # EOFError, KeyboardInterrupt: hand them to the loop
            loop.call_soon_threadsafe(settle, None, exc if isinstance(exc, Exception) else EOFError())
        else:
            loop.call_soon_threadsafe(settle, line, None)

    threading.Thread(target=work, name="console-input", daemon=True).start()
    return await future
