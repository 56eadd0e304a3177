"""Real IRC servers for the tests: miniircd (PyPI) and ngIRCd (Debian), each on a free loopback port.

Servers are child processes owned by one test; ``stop`` kills them, so nothing outlives the test.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_port(port: int, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if loop.time() > deadline:
                raise TimeoutError(f"nothing listens on 127.0.0.1:{port}") from None
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return


class ServerProcess:
    def __init__(self, argv: list[str], port: int, log_path: Path) -> None:
        self.argv = argv
        self.port = port
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child
        self.proc = subprocess.Popen(
            self.argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        log.close()
        try:
            await wait_port(self.port)
        except TimeoutError:
            await self.stop()
            raise RuntimeError(f"{self.argv[0]} did not start: {self.log_path.read_text()[-2000:]}") from None

    async def stop(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.kill()
        await asyncio.to_thread(proc.wait)

    async def restart(self) -> None:
        await self.stop()
        await self.start()


def miniircd(tmp: Path, port: int) -> ServerProcess:
    binary = Path(sys.executable).parent / "miniircd"
    argv = [str(binary), "--listen", "127.0.0.1", "--ports", str(port)]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv += ["--setuid", "root"]  # miniircd refuses to run as root without it
    return ServerProcess(argv, port, tmp / f"miniircd-{port}.log")


def ngircd_binary() -> str | None:
    return shutil.which("ngircd") or next(
        (p for p in ("/usr/sbin/ngircd", "/usr/bin/ngircd") if os.path.exists(p)), None
    )


def ngircd(tmp: Path, port: int, *, tls_port: int | None = None, cert: Path | None = None) -> ServerProcess:
    binary = ngircd_binary()
    assert binary is not None
    motd = tmp / "ngircd.motd"
    motd.write_text("test server\n")
    ssl = ""
    if tls_port and cert:
        ssl = f"""
[SSL]
    CertFile = {cert}
    KeyFile = {cert.with_suffix(".key")}
    Ports = {tls_port}
"""
    user = "root" if os.geteuid() == 0 else str(os.getuid())
    conf = tmp / f"ngircd-{port}.conf"
    conf.write_text(
        f"""[Global]
    Name = irc.test.local
    Info = nightcap test server
    Listen = 127.0.0.1
    Ports = {port}
    MotdFile = {motd}
    ServerUID = {user}
[Limits]
    MaxPenaltyTime = 0
    PingTimeout = 120
    PongTimeout = 60
    MaxNickLength = 30
[Options]
    DNS = no
    Ident = no
    PAM = no
{ssl}"""
    )
    return ServerProcess([binary, "-n", "-f", str(conf)], tls_port or port, tmp / f"ngircd-{port}.log")
