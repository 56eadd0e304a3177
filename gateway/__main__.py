"""``python3 -m gateway ...``: from a source checkout, first make sure ``.venv`` is set up, then run.

Only the standard library is used before the hand-over, so this works on a machine that has nothing
but Python. The virtual environment is (re)installed when ``pyproject.toml`` changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".nightcap-gateway-installed"


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _wanted_stamp() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def _ensure_venv() -> None:
    wanted = _wanted_stamp()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and _venv_python().exists():
        return
    if not _venv_python().exists():
        print(f"gateway: creating {VENV} (first run) ...", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("gateway: installing dependencies into .venv ...", file=sys.stderr, flush=True)
    pip = [str(_venv_python()), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-e", f"{ROOT}[test]"], check=True)
    STAMP.write_text(wanted)


def main() -> None:
    in_checkout = (ROOT / "pyproject.toml").is_file() and (ROOT / "gateway").is_dir()
    if in_checkout and Path(sys.prefix).resolve() != VENV.resolve() and not os.environ.get("GATEWAY_NO_VENV"):
        _ensure_venv()
        python = str(_venv_python())
        os.execv(python, [python, "-m", "gateway", *sys.argv[1:]])
    from gateway.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
