"""A real Synapse homeserver for the Matrix tests, started by the suite on a free loopback port.

Synapse lives in its own virtual environment (``.venv-synapse/`` at the top of the checkout, or
``GATEWAY_TEST_SYNAPSE_VENV``), created on first use and kept: its dependency tree (Twisted and
friends) stays out of the gateway's own environment. The version is pinned below and can be
overridden with ``GATEWAY_TEST_SYNAPSE_VERSION``.

The config is written by hand, not generated: server name ``localhost``, SQLite in a file (so a restart
keeps the state), no federation key servers, registration without verification, presence off, cheap
password hashing, and every ``rc_*`` limit raised so only the test that wants rate limiting gets it
(through the admin API's per-user override).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SYNAPSE_VERSION = os.environ.get("GATEWAY_TEST_SYNAPSE_VERSION", "1.163.2")
VENV = Path(os.environ.get("GATEWAY_TEST_SYNAPSE_VENV", ROOT / ".venv-synapse"))
SHARED_SECRET = "nightcap-test-shared-secret"

_HIGH = {"per_second": 10000, "burst_count": 10000}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_synapse_venv() -> tuple[Path, float]:
    """The venv's python, installing Synapse on first use; returns (python, seconds spent installing)."""
    stamp = VENV / f".synapse-{SYNAPSE_VERSION}"
    if stamp.exists():
        return venv_python(), 0.0
    VENV.parent.mkdir(parents=True, exist_ok=True)
    lock_path = VENV.with_name(VENV.name + ".lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists():
            return venv_python(), 0.0
        started = time.monotonic()
        if not venv_python().exists():
            venv.EnvBuilder(with_pip=True).create(VENV)
        done = subprocess.run(
            [
                str(venv_python()),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "-q",
                f"matrix-synapse=={SYNAPSE_VERSION}",
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"installing matrix-synapse failed:\n{done.stdout}\n{done.stderr}")
        for old in VENV.glob(".synapse-*"):
            old.unlink()
        stamp.write_text(SYNAPSE_VERSION)
        return venv_python(), time.monotonic() - started


def _config(directory: Path, port: int) -> dict[str, Any]:
    return {
        "server_name": "localhost",
        "public_baseurl": f"http://127.0.0.1:{port}/",
        "pid_file": str(directory / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(directory / "homeserver.db")}},
        "log_config": str(directory / "log.yaml"),
        "media_store_path": str(directory / "media"),
        "signing_key_path": str(directory / "localhost.signing.key"),
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "report_stats": False,
        "enable_metrics": False,
        "enable_registration": True,
        "enable_registration_without_verification": True,
        "registration_shared_secret": SHARED_SECRET,
        "macaroon_secret_key": secrets.token_hex(16),
        "form_secret": secrets.token_hex(16),
        "bcrypt_rounds": 4,
        "presence": {"enabled": False},
        "url_preview_enabled": False,
        "federation_domain_whitelist": [],
        "rc_message": _HIGH,
        "rc_registration": _HIGH,
        "rc_login": {"address": _HIGH, "account": _HIGH, "failed_attempts": _HIGH},
        "rc_joins": {"local": _HIGH, "remote": _HIGH},
        "rc_joins_per_room": _HIGH,
        "rc_invites": {"per_room": _HIGH, "per_user": _HIGH, "per_issuer": _HIGH},
        "rc_room_creation": _HIGH,
        "rc_3pid_validation": _HIGH,
        "rc_admin_redaction": _HIGH,
        "rc_presence": {"per_user": _HIGH},
        "rc_delayed_event_mgmt": _HIGH,
        "rc_key_requests": _HIGH,
        "rc_profile": _HIGH,
        "rc_reports": _HIGH,
        "rc_user_directory": _HIGH,
    }


_LOG = """\
version: 1
formatters:
  plain: {format: '%(asctime)s %(name)s %(levelname)s %(message)s'}
handlers:
  file: {class: logging.FileHandler, filename: 'LOGFILE', formatter: plain}
root: {level: WARNING, handlers: [file]}
disable_existing_loggers: false
"""


class Synapse:
    """One Synapse process; ``start``/``stop``/``restart`` keep the same port and database."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.python, self.install_seconds = ensure_synapse_venv()
        self.start_seconds: list[float] = []
        directory.mkdir(parents=True, exist_ok=True)
        # JSON is YAML: no YAML library needed on this side.
        (directory / "homeserver.yaml").write_text(json.dumps(_config(directory, self.port), indent=1))
        (directory / "log.yaml").write_text(_LOG.replace("LOGFILE", str(directory / "homeserver.log")))
        subprocess.run(
            [
                str(self.python),
                "-m",
                "synapse.app.homeserver",
                "--config-path",
                str(directory / "homeserver.yaml"),
                "--generate-keys",
            ],
            check=True,
            cwd=directory,
            capture_output=True,
        )

    def start(self, timeout: float = 120.0) -> None:
        assert self.process is None, "already running"
        started = time.monotonic()
        out = open(self.directory / "stdout.log", "ab")  # noqa: SIM115 - lives as long as the process
        self.process = subprocess.Popen(
            [str(self.python), "-m", "synapse.app.homeserver", "--config-path", "homeserver.yaml"],
            cwd=self.directory,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        out.close()
        deadline = started + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"synapse exited with {self.process.returncode}: {self.log_tail()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/_matrix/client/versions", timeout=2) as resp,
            ):
                if resp.status == 200:
                    self.start_seconds.append(time.monotonic() - started)
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"synapse did not answer within {timeout} s: {self.log_tail()}")

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self, lines: int = 30) -> str:
        texts = []
        for name in ("stdout.log", "homeserver.log"):
            path = self.directory / name
            if path.exists():
                texts.append("\n".join(path.read_text(errors="replace").splitlines()[-lines:]))
        return "\n".join(texts)

    # -- admin helpers (plain HTTP, synchronous: they run between awaits in tests) --------------------

    def _http(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.loads(resp.read() or b"{}")

    def register_admin(self, username: str, password: str) -> str:
        """An admin account through the shared-secret registration API; returns its access token."""
        nonce = self._http("GET", "/_synapse/admin/v1/register")["nonce"]
        mac = hmac.new(SHARED_SECRET.encode(), digestmod=hashlib.sha1)
        mac.update(b"\x00".join([nonce.encode(), username.encode(), password.encode(), b"admin"]))
        body = {"nonce": nonce, "username": username, "password": password, "admin": True}
        body["mac"] = mac.hexdigest()
        return str(self._http("POST", "/_synapse/admin/v1/register", body)["access_token"])

    def override_ratelimit(self, admin_token: str, user_id: str, per_second: float, burst: int) -> None:
        path = f"/_synapse/admin/v1/users/{urllib.request.quote(user_id)}/override_ratelimit"
        self._http("POST", path, {"messages_per_second": per_second, "burst_count": burst}, admin_token)

    def clear_ratelimit(self, admin_token: str, user_id: str) -> None:
        path = f"/_synapse/admin/v1/users/{urllib.request.quote(user_id)}/override_ratelimit"
        self._http("DELETE", path, None, admin_token)


if __name__ == "__main__":  # manual check: python tests/matrix/synapse.py
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        server = Synapse(Path(tmp))
        print(f"install {server.install_seconds:.1f} s", file=sys.stderr)
        server.start()
        server.restart()
        print(f"started in {server.start_seconds}", file=sys.stderr)
        server.stop()
