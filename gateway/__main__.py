"""``python3 -m gateway ...``: from a source checkout, first make sure ``.venv`` is set up, then run.

Only the standard library is used before the hand-over, so this works on a machine that has nothing
but Python. ``serve`` and every other command install the runtime only (``pip install -e .``);
``test`` installs the test extra too (``.[test]``). What was installed is kept in a stamp file with
the hash of ``pyproject.toml``: a change of either installs again. While pip works, each package it
collects is shown on one short line, so a first start of a minute or two does not look hung.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
STAMP_NAME = ".nightcap-gateway-installed"
_COLLECTING = re.compile(r"^Collecting ([^\s(]+)")


def venv_python(venv_dir: Path) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def extras_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The extras a command needs: the test suite's tools for ``test``, nothing else otherwise."""
    return ("test",) if list(argv[:1]) == ["test"] else ()


def requirement(root: Path, extras: Iterable[str]) -> str:
    """What pip installs: ``ROOT`` (the runtime) or ``ROOT[test]``."""
    wanted = sorted(extras)
    return f"{root}[{','.join(wanted)}]" if wanted else str(root)


def _stamp(root: Path, extras: Iterable[str]) -> str:
    digest = hashlib.sha256((root / "pyproject.toml").read_bytes()).hexdigest()
    return "\n".join([digest, *sorted(extras)])


def installed_enough(stamp_file: Path, root: Path, extras: Iterable[str]) -> bool:
    """Whether ``.venv`` holds this ``pyproject.toml`` with at least these extras."""
    if not stamp_file.is_file():
        return False
    digest, *have = stamp_file.read_text().split("\n")
    return digest == _stamp(root, ()) and set(extras) <= set(have)


def progress_line(text: str, count: int) -> str | None:
    """A short line for one of pip's (``count`` packages so far), or None for noise."""
    text = text.strip()
    collecting = _COLLECTING.match(text)
    if collecting:
        return f"  [{count}] {collecting.group(1)}"
    if text.startswith("Installing collected packages"):
        return f"  installing {count} packages ..."
    if text.startswith("ERROR"):
        return f"  {text}"
    return None


def run_pip(command: Sequence[str], out: TextIO) -> tuple[int, list[str]]:
    """Run pip, showing its progress on ``out``; the exit status and everything it printed."""
    lines: list[str] = []
    count = 0
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            count += bool(_COLLECTING.match(line.strip()))
            shown = progress_line(line, count)
            if shown is not None:
                print(shown, file=out, flush=True)
    return proc.returncode, lines


def ensure_venv(
    root: Path,
    extras: Sequence[str] = (),
    *,
    out: TextIO = sys.stderr,
    pip: Callable[[Sequence[str], TextIO], tuple[int, list[str]]] = run_pip,
) -> Path:
    """Create ``root/.venv`` if need be and install what ``extras`` needs; its Python's path.
    Raises ``SystemExit`` with pip's last lines when the install fails."""
    venv_dir = root / ".venv"
    stamp_file = venv_dir / STAMP_NAME
    python = venv_python(venv_dir)
    if python.exists() and installed_enough(stamp_file, root, extras):
        return python
    started = time.monotonic()
    if not python.exists():
        print(f"gateway: creating {venv_dir} (first run) ...", file=out, flush=True)
        venv.EnvBuilder(with_pip=True).create(venv_dir)
    # Keep what was installed before (a test run's tools stay for the next test run).
    previous = stamp_file.read_text().split("\n")[1:] if stamp_file.is_file() else []
    wanted = sorted(set(extras) | set(previous))
    what = "the runtime and the test tools" if "test" in wanted else "the runtime"
    print(f"gateway: installing {what} into .venv (a minute or two the first time) ...", file=out, flush=True)
    status, lines = pip(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-e", requirement(root, wanted)],
        out,
    )
    if status != 0:
        tail = "\n".join(lines[-15:])
        raise SystemExit(f"{tail}\ngateway: installing into .venv failed (pip exit status {status})")
    stamp_file.write_text(_stamp(root, wanted))
    print(f"gateway: .venv ready in {time.monotonic() - started:.0f} s", file=out, flush=True)
    return python


def main() -> None:
    venv_dir = ROOT / ".venv"
    in_checkout = (ROOT / "pyproject.toml").is_file() and (ROOT / "gateway").is_dir()
    outside = Path(sys.prefix).resolve() != venv_dir.resolve()
    if in_checkout and outside and not os.environ.get("GATEWAY_NO_VENV"):
        python = str(ensure_venv(ROOT, extras_for(sys.argv[1:])))
        os.execv(python, [python, "-m", "gateway", *sys.argv[1:]])
    from gateway.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
