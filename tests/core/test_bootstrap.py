"""``python3 -m gateway``'s own set-up of ``.venv``: serve installs the runtime, test the test extra.

The logic runs here with pip replaced by a recorder (a fake ``.venv`` whose Python exists), so no
package is downloaded. ``test_fresh_checkout_serves_then_tests`` does it for real in a copy of the
checkout with a new venv and pip reaching the index; it takes a minute or more on a cold pip cache,
so it runs only with ``GATEWAY_TEST_BOOTSTRAP=1``.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pytest

from gateway.__main__ import (
    STAMP_NAME,
    ensure_venv,
    extras_for,
    progress_line,
    requirement,
    run_pip,
    uv_options,
    uv_progress_line,
    venv_python,
)
from tests.core.test_cli import _free_port

REPO = Path(__file__).resolve().parents[2]


def checkout(tmp_path: Path) -> Path:
    """A project root with a pyproject and a .venv whose Python already exists (no venv is made)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n')
    python = venv_python(root / ".venv")
    python.parent.mkdir(parents=True)
    python.write_text("")
    return root


class Pip:
    def __init__(self, status: int = 0, said: Sequence[str] = ()) -> None:
        self.calls: list[list[str]] = []
        self.status = status
        self.said = list(said)

    def __call__(self, command: Sequence[str], out: TextIO) -> tuple[int, list[str]]:
        self.calls.append(list(command))
        return self.status, self.said


def no_uv() -> None:
    return None


@pytest.mark.parametrize("with_uv", [False, True])
def test_serve_installs_the_runtime_and_test_the_test_extra(tmp_path: Path, with_uv: bool) -> None:
    root = checkout(tmp_path)
    pip, out = Pip(), io.StringIO()
    uv = (lambda: "/bin/uv") if with_uv else no_uv
    kw = (
        {"out": out, "pip": Pip(status=9), "uv": uv, "uv_run": pip}
        if with_uv
        else {"out": out, "pip": pip, "uv": uv}
    )
    ensure_venv(root, extras_for(["serve", "--port", "9000"]), **kw)  # type: ignore[arg-type]
    assert pip.calls[0][-2:] == ["-e", str(root)]
    if with_uv:
        assert pip.calls[0][:5] == ["/bin/uv", "pip", "install", "--python", str(venv_python(root / ".venv"))]
    tool = "uv" if with_uv else "pip"
    assert f"installing the runtime into .venv with {tool}" in out.getvalue()
    assert f"({tool})" in out.getvalue().splitlines()[-1]
    ensure_venv(root, extras_for(["serve"]), **kw)  # type: ignore[arg-type]
    assert len(pip.calls) == 1  # installed: nothing to do
    ensure_venv(root, extras_for(["test", "-x"]), **kw)  # type: ignore[arg-type]
    assert pip.calls[1][-2:] == ["-e", f"{root}[test]"]
    ensure_venv(root, extras_for(["serve"]), **kw)  # type: ignore[arg-type]
    ensure_venv(root, extras_for(["test"]), **kw)  # type: ignore[arg-type]
    assert len(pip.calls) == 2  # the test tools are enough for serve, and stay
    (root / "pyproject.toml").write_text('[project]\nname = "y"\n')
    ensure_venv(root, extras_for(["serve"]), **kw)  # type: ignore[arg-type]
    assert pip.calls[2][-2:] == ["-e", f"{root}[test]"]  # a changed pyproject keeps the tools


def test_a_failing_uv_falls_back_to_pip(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    pip, out = Pip(), io.StringIO()
    ensure_venv(root, (), out=out, pip=pip, uv=lambda: "/bin/uv", uv_run=Pip(status=2))
    assert pip.calls[0][1:4] == ["-m", "pip", "install"]
    assert "uv failed (exit status 2); installing with pip instead" in out.getvalue()
    assert (root / ".venv" / STAMP_NAME).exists()


def test_pip_index_settings_are_carried_over_to_uv(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    constraints = tmp_path / "c.txt"
    constraints.write_text("torch<=2\n")
    pip = {
        "index-url": "https://mirror.example/simple",
        "extra-index-url": f"file://{tmp_path}/missing https://more.example/simple",
        "find-links": str(wheels),
        "constraint": str(constraints),
        "cert": "/etc/ssl/certs/ca.crt",
        "default-timeout": "180",
    }
    args, env = uv_options(pip)
    assert args == [
        "--default-index",
        "https://mirror.example/simple",
        "--index",
        "https://more.example/simple",  # a local index that does not exist is skipped, as pip does
        "--index-strategy",
        "unsafe-best-match",
        "--find-links",
        str(wheels),
        "--constraint",
        str(constraints),
    ]
    assert env == {"SSL_CERT_FILE": "/etc/ssl/certs/ca.crt", "UV_HTTP_TIMEOUT": "180"}


def test_a_failed_install_says_so_and_installs_again_next_time(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    pip = Pip(status=1, said=["Collecting nope", "ERROR: No matching distribution found for nope"])
    with pytest.raises(SystemExit) as failed:
        ensure_venv(root, (), out=io.StringIO(), pip=pip, uv=no_uv)
    assert str(failed.value).endswith("gateway: installing into .venv failed (pip exit status 1)")
    assert "No matching distribution" in str(failed.value)
    assert not (root / ".venv" / STAMP_NAME).exists()


def test_progress_lines_count_packages() -> None:
    assert requirement(Path("/p"), ()) == "/p" and requirement(Path("/p"), ["test"]) == "/p[test]"
    assert progress_line("Collecting aiohttp>=3.9 (from nightcap-gateway==0.1.0)", 1) == "  [1] aiohttp>=3.9"
    assert progress_line("  Downloading aiohttp-3.14.5-cp311.whl (1.7 MB)", 1) is None
    assert progress_line("Installing collected packages: a, b", 24) == "  installing 24 packages ..."
    assert uv_progress_line("Resolved 39 packages in 1.21s") == "  resolved 39 packages"
    assert uv_progress_line(" + aiohttp==3.14.5") is None


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_run_pip_shows_one_line_that_updates_from_a_real_process() -> None:
    script = "print('Collecting a'); print('  Downloading a.whl'); print('Collecting b (from a)')"
    out = Terminal()
    status, lines = run_pip([sys.executable, "-c", script], out)
    assert status == 0 and len(lines) == 3
    # On a terminal: one line rewritten in place, then cleared; no line per package.
    assert out.getvalue() == "\r\033[K  [1] a\r\033[K  [2] b\r\033[K"
    assert "\n" not in out.getvalue()
    logged = io.StringIO()  # in a log: nothing but errors
    script = "print('Collecting a'); print('ERROR: no a')"
    run_pip([sys.executable, "-c", script], logged)
    assert logged.getvalue() == "  ERROR: no a\n"


@pytest.mark.skipif(not os.environ.get("GATEWAY_TEST_BOOTSTRAP"), reason="set GATEWAY_TEST_BOOTSTRAP=1")
def test_fresh_checkout_serves_then_tests(tmp_path: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    root = tmp_path / "checkout"
    for name in files:
        if (REPO / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    python = shutil.which("python3") or sys.executable
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GATEWAY_", "VIRTUAL_ENV"))}
    port = _free_port()
    proc = subprocess.Popen(
        [python, "-m", "gateway", "serve", "--port", str(port)],
        cwd=root,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        shown: list[str] = []
        for line in proc.stderr:  # the set-up's progress, up to the hand-over
            shown.append(line)
            if line.startswith("gateway: .venv ready") or line.startswith("Traceback"):
                break
        assert any(line.startswith("gateway: creating") for line in shown), shown
        assert any("installing the runtime" in line for line in shown), shown
        deadline = time.monotonic() + 60
        status = None
        while status is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                    status = resp.status
            except OSError:
                time.sleep(0.3)
        assert status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    venv_py = str(venv_python(root / ".venv"))
    assert subprocess.run([venv_py, "-c", "import pytest"], capture_output=True).returncode != 0
    tested = subprocess.run(
        [python, "-m", "gateway", "test", "--version"], cwd=root, env=environ, capture_output=True, text=True
    )
    assert tested.returncode == 0, tested.stderr
    assert "installing the runtime and the test tools" in tested.stderr
    assert "pytest" in tested.stdout + tested.stderr


def test_gateway_test_without_the_test_tools_says_how_to_get_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from gateway.ops import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "pytest" else real(name))
    with pytest.raises(SystemExit) as done:
        cli.main(["test", "-x"])
    assert done.value.code == 2
    assert "`python3 -m gateway test` installs them" in capsys.readouterr().err
