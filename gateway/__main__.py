"""``python3 -m gateway ...``: from a source checkout, first make sure ``.venv`` is set up, then run.

Only the standard library is used before the hand-over, so this works on a machine that has nothing
but Python. ``serve`` and every other command install the runtime only (``-e .``); ``test`` installs
the test extra too (``.[test]``). What was installed is kept in a stamp file with the hash of
``pyproject.toml``: a change of either installs again.

The install uses uv when it can be had (on PATH, in this user's cache, or fetched once from the
package index by pip into that cache): a venv in a tenth of a second and the wheels in about two,
against pip's 3 + 15 s. uv reads neither ``pip.conf`` nor ``PIP_*``, so pip's index settings
(``pip config list``: index, extra indexes, find-links, constraints, certificate, timeout) are
passed on. When uv cannot be had or fails, pip does it, as before. One line shows the progress,
rewritten in place on a terminal.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

# hashlib, shutil, subprocess and venv are imported where they are used: every ``gateway`` command
# starts here, and only the first run of a checkout (or a changed pyproject.toml) installs anything.

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
    import hashlib

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


_UV_STEP = re.compile(r"^(Resolved|Prepared|Installed|Audited|Uninstalled) (\d+) packages?")


def uv_progress_line(text: str) -> str | None:
    """A short line for one of uv's, or None for noise (its `` + name==version`` lines)."""
    step = _UV_STEP.match(text.strip())
    if step:
        return f"  {step.group(1).lower()} {step.group(2)} packages"
    if text.startswith(("error", "ERROR")):
        return f"  {text.strip()}"
    return None


class Progress:
    """One status line: on a terminal rewritten in place; elsewhere (a log, CI) only errors are
    printed, so the log does not fill with a line per package."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.tty = out.isatty()
        self.shown = False

    def show(self, text: str) -> None:
        if self.tty:
            self.out.write(f"\r\033[K{text[:100]}")
            self.out.flush()
            self.shown = True
        elif text.lstrip().lower().startswith("error"):
            print(text, file=self.out, flush=True)

    def done(self) -> None:
        if self.shown:
            self.out.write("\r\033[K")
            self.out.flush()
            self.shown = False


def run_pip(command: Sequence[str], out: TextIO) -> tuple[int, list[str]]:
    """Run pip or uv, showing its progress on one line of ``out``; the exit status and all it said."""
    import subprocess

    lines: list[str] = []
    count = 0
    progress = Progress(out)
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            count += bool(_COLLECTING.match(line.strip()))
            shown = progress_line(line, count) or uv_progress_line(line)
            if shown is not None:
                progress.show(shown)
    progress.done()
    return proc.returncode, lines


# --- uv --------------------------------------------------------------------------------------------


def uv_home() -> Path:
    """Where a uv fetched for this user lives (one copy for every checkout)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "nightcap-gateway" / "uv"


def find_uv(out: TextIO = sys.stderr) -> str | None:
    """A uv binary: ``GATEWAY_UV`` (``0`` turns uv off), PATH, this user's cache, else fetched
    into the cache by pip (with pip's own settings). None when it cannot be had."""
    import shutil
    import subprocess

    chosen = os.environ.get("GATEWAY_UV")
    if chosen == "0":
        return None
    if chosen:
        return chosen
    found = shutil.which("uv")
    if found:
        return found
    home = uv_home()
    cached = home / "bin" / "uv"
    if cached.exists():
        return str(cached)
    print("gateway: fetching uv (the fast installer) once for this user ...", file=out, flush=True)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "--target",
            str(home),
            "uv",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return str(cached) if done.returncode == 0 and cached.exists() else None


def pip_settings() -> dict[str, str]:
    """pip's effective settings (``pip config list``): the environment's ``PIP_*`` over the files."""
    import subprocess

    try:
        listed = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    found: dict[str, str] = {}
    from_env: set[str] = set()
    for line in listed.splitlines():
        match = re.match(r"^([^.=]*)\.([\w-]+)='(.*)'$", line.strip())
        if not match:
            continue
        scope, key, value = match.groups()
        if scope == ":env:" or key not in from_env:
            found[key] = value
        if scope == ":env:":
            from_env.add(key)
    return found


def _usable(location: str) -> bool:
    """pip skips a local index or find-links folder that does not exist; uv would stop: skip it too."""
    if location.startswith("file://"):
        return Path(location.removeprefix("file://")).exists()
    return "://" in location or Path(location).exists()


def uv_options(pip: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """uv's options and environment for pip's settings (``pip_settings()``)."""
    args: list[str] = []
    env: dict[str, str] = {}
    if "index-url" in pip:
        args += ["--default-index", pip["index-url"]]
    extra = [url for url in pip.get("extra-index-url", "").split() if _usable(url)]
    for url in extra:
        args += ["--index", url]
    if extra or "find-links" in pip:
        args += ["--index-strategy", "unsafe-best-match"]  # pip's way: the best version of any index
    for place in pip.get("find-links", "").split():
        if _usable(place):
            args += ["--find-links", place]
    for name in pip.get("constraint", "").split():
        if Path(name).is_file():
            args += ["--constraint", name]
    if pip.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        args.append("--no-index")
    for host in pip.get("trusted-host", "").split():
        args += ["--allow-insecure-host", host]
    if "cert" in pip:
        env["SSL_CERT_FILE"] = pip["cert"]
    if "timeout" in pip or "default-timeout" in pip:
        env["UV_HTTP_TIMEOUT"] = pip.get("timeout") or pip["default-timeout"]
    return args, env


def run_uv(command: Sequence[str], out: TextIO) -> tuple[int, list[str]]:
    """``run_pip`` for a uv command; ``uv pip install`` gets pip's index settings (asking pip for
    them costs a Python start with pip imported: only where they count)."""
    if list(command[1:3]) != ["pip", "install"]:
        return run_pip(command, out)
    args, env = uv_options(pip_settings())
    previous = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    try:
        return run_pip([*command, *args], out)
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def ensure_venv(
    root: Path,
    extras: Sequence[str] = (),
    *,
    out: TextIO = sys.stderr,
    pip: Callable[[Sequence[str], TextIO], tuple[int, list[str]]] = run_pip,
    uv: Callable[[], str | None] | None = None,
    uv_run: Callable[[Sequence[str], TextIO], tuple[int, list[str]]] = run_uv,
) -> Path:
    """Create ``root/.venv`` if need be and install what ``extras`` needs; its Python's path.
    With uv (``uv()``, default ``find_uv``) when it can be had, else pip. Raises ``SystemExit`` with
    the installer's last lines when the install fails."""
    import venv

    venv_dir = root / ".venv"
    stamp_file = venv_dir / STAMP_NAME
    python = venv_python(venv_dir)
    if python.exists() and installed_enough(stamp_file, root, extras):
        return python
    started = time.monotonic()
    uv_binary = (uv or (lambda: find_uv(out)))()
    # Keep what was installed before (a test run's tools stay for the next test run).
    previous = stamp_file.read_text().split("\n")[1:] if stamp_file.is_file() else []
    wanted = sorted(set(extras) | set(previous))
    what = "the runtime and the test tools" if "test" in wanted else "the runtime"
    if not python.exists():
        print(f"gateway: creating {venv_dir} (first run) ...", file=out, flush=True)
        # --seed: pip in the venv too (tests install packages with it; it is the fallback).
        made = (
            uv_binary is not None
            and uv_run(
                [
                    uv_binary,
                    "venv",
                    "--seed",
                    "--no-python-downloads",
                    "--python",
                    sys.executable,
                    str(venv_dir),
                ],
                out,
            )[0]
            == 0
        )
        if not made:
            venv.EnvBuilder(with_pip=True).create(venv_dir)
    tool = "uv" if uv_binary is not None else "pip"
    print(f"gateway: installing {what} into .venv with {tool} ...", file=out, flush=True)
    target = requirement(root, wanted)
    if uv_binary is not None:
        status, lines = uv_run([uv_binary, "pip", "install", "--python", str(python), "-e", target], out)
        if status != 0:
            print(f"gateway: uv failed (exit status {status}); installing with pip instead ...", file=out)
            tool = "pip"
    if tool == "pip":
        status, lines = pip(
            [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-e", target], out
        )
    if status != 0:
        tail = "\n".join(lines[-15:])
        raise SystemExit(f"{tail}\ngateway: installing into .venv failed ({tool} exit status {status})")
    stamp_file.write_text(_stamp(root, wanted))
    print(f"gateway: .venv ready in {time.monotonic() - started:.1f} s ({tool})", file=out, flush=True)
    return python


def main() -> None:
    venv_dir = ROOT / ".venv"
    in_checkout = (ROOT / "pyproject.toml").is_file() and (ROOT / "gateway").is_dir()
    outside = Path(sys.prefix).resolve() != venv_dir.resolve()
    if in_checkout and outside and not os.environ.get("GATEWAY_NO_VENV"):
        python = str(ensure_venv(ROOT, extras_for(sys.argv[1:])))
        os.execv(python, [python, "-m", "gateway", *sys.argv[1:]])
    from gateway.ops.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
