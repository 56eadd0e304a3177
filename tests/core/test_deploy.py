"""The systemd units shipped in gateway/ops/deploy/: systemd itself accepts them, and the command lines they
run are ones the gateway's own parser takes (a renamed option would otherwise break a deployment
silently)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.ops.cli import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "gateway" / "ops" / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))
GATEWAY_BIN = "/opt/gateway/.venv/bin/gateway"


def exec_start(unit: Path) -> list[str]:
    lines = [line for line in unit.read_text().splitlines() if line.startswith("ExecStart=")]
    assert len(lines) == 1, f"{unit.name}: one ExecStart"
    return shlex.split(lines[0].removeprefix("ExecStart="))


def test_units_are_shipped() -> None:
    assert {u.name for u in UNITS} == {"gateway@.service", "gateway-migrate.service"}


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_command_lines_parse(unit: Path) -> None:
    argv = exec_start(unit)
    assert argv[0] == GATEWAY_BIN
    args = [word.replace("%i", "8081") for word in argv[1:]]
    parsed = build_parser().parse_args(args)
    assert parsed.command in {"serve", "db"}
    if parsed.command == "serve":
        assert parsed.port == 8081


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_systemd_accepts_the_unit(unit: Path, tmp_path: Path) -> None:
    # The units name the installed program; point them at this checkout's so `verify` can check it.
    real = Path(sys.executable).with_name("gateway")
    if not real.exists():
        pytest.skip("the gateway program is not installed next to this Python")
    for other in UNITS:  # gateway@ requires gateway-migrate: both must be there
        (tmp_path / other.name).write_text(other.read_text().replace(GATEWAY_BIN, str(real)))
    name = unit.name.replace("@.", "@8081.")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / name)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    problems = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        # Only what is said about our units: a container without systemd may complain of other things.
        if unit.stem.rstrip("@") in line or name in line
    ]
    assert done.returncode == 0 and not problems, done.stdout + done.stderr


def test_the_gateway_unit_lifts_the_open_file_limit() -> None:
    """systemd's default soft limit (1,024) is what 1,100 idle sockets exhausted (issue 30)."""
    text = (DEPLOY / "gateway@.service").read_text()
    limits = [line.split("=", 1)[1] for line in text.splitlines() if line.startswith("LimitNOFILE=")]
    assert limits and int(limits[0]) >= 8192
