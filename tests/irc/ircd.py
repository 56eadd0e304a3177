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


# --------------------------------------------------------------------------- InspIRCd + Atheme

INSPIRCD_CONF = """<config format="xml">
<server name="irc.test.local" description="nightcap test" network="TestNet">
<admin name="Admin" nick="admin" email="admin@test.local">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{link_port}" type="servers">
<connect name="main" allow="*" timeout="60" pingfreq="120" hardsendq="1M" softsendq="8192" recvq="8192"
  threshold="100" commandrate="100000" fakelag="off" localmax="100" globalmax="100" useident="no"
  limit="500" maxchans="20" resolvehostnames="no">
<pid file="{dir}/inspircd.pid">
<options prefixquit="Quit: " syntaxhints="no" exemptchanops="">
<security hidesplits="no" hideulines="no" announceinvites="dynamic" maxtargets="20">
<performance netbuffersize="10240" somaxconn="128" softlimit="1024" clonesonconnect="no" quietbursts="yes">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{dir}/inspircd.log">
<dns server="127.0.0.1" timeout="1">
<module name="spanningtree">
<module name="services_account">
<module name="sasl">
<module name="cap">
<module name="ircv3">
<module name="ircv3_accounttag">
<module name="ircv3_ctctags">
<module name="ircv3_echomessage">
<module name="ircv3_servertime">
<module name="ircv3_msgid">
<sasl target="services.test.local" requiressl="no">
<link name="services.test.local" ipaddr="127.0.0.1" port="{link_port}" allowmask="127.0.0.0/8"
  sendpass="linkpw" recvpass="linkpw">
<uline server="services.test.local" silent="yes">
<files motd="{dir}/motd">
"""

ATHEME_CONF = """loadmodule "modules/protocol/inspircd";
loadmodule "modules/backend/opensex";
loadmodule "modules/crypto/pbkdf2v2";
loadmodule "modules/nickserv/main";
loadmodule "modules/nickserv/register";
loadmodule "modules/nickserv/identify";
loadmodule "modules/saslserv/main";
loadmodule "modules/saslserv/plain";
pbkdf2v2 { };
serverinfo {
    name = "services.test.local"; desc = "Atheme IRC Services"; numeric = "00A"; recontime = 1;
    netname = "TestNet"; hidehostsuffix = "users.test"; adminname = "admin";
    adminemail = "admin@test.local"; registeremail = "noreply@test.local";
    loglevel = { error; info; admin; network; }; maxlogins = 5; maxusers = 50; mdlimit = 30;
    emaillimit = 10; emailtime = 300; auth = none; casemapping = rfc1459;
};
uplink "irc.test.local" { host = "127.0.0.1"; password = "linkpw"; port = {link_port}; };
nickserv { nick = "NickServ"; user = "NickServ"; host = "services.test.local"; real = "Nickname Services";
    maxnicks = 5; expire = 30; };
saslserv { nick = "SaslServ"; user = "SaslServ"; host = "services.test.local"; real = "SASL Agent"; };
general {
    helpchan = "#help"; helpurl = "http://test.local"; permissive_mode; join_chans; leave_chans;
    flood_msgs = 0; flood_time = 10; ratelimit_uses = 100; ratelimit_period = 1; kline_time = 7;
    clone_time = 0; commit_interval = 5; default_clone_allowed = 50; default_clone_warn = 40;
    uplink_sendq_limit = 1048576; language = "en";
};
database { };
"""


def inspircd_atheme_binaries() -> tuple[str, str, str] | None:
    found = (shutil.which("inspircd"), shutil.which("atheme-services"), shutil.which("setpriv"))
    if None in found:
        return None
    return found  # type: ignore[return-value]


class InspircdAtheme:
    """InspIRCd 3 with Atheme linked as its services server (NickServ, SaslServ), both from Debian."""

    def __init__(self, workdir: Path) -> None:
        binaries = inspircd_atheme_binaries()
        assert binaries is not None
        self.inspircd_bin, self.atheme_bin, self.setpriv = binaries
        self.dir = workdir
        self.port, self.link_port = free_port(), free_port()
        self.procs: list[subprocess.Popen[bytes]] = []

    async def start(self) -> None:
        d = self.dir
        os.chmod(d, 0o755)  # Atheme runs as nobody and must read its config and write its database
        (d / "motd").write_text("nightcap test network\n")
        (d / "inspircd.conf").write_text(
            INSPIRCD_CONF.format(port=self.port, link_port=self.link_port, dir=d)
        )
        (d / "atheme.conf").write_text(ATHEME_CONF.replace("{link_port}", str(self.link_port)))
        data = d / "atheme-data"
        data.mkdir()
        argv = [self.inspircd_bin, "--nofork", "--config", str(d / "inspircd.conf")]
        if os.geteuid() == 0:
            argv.append("--runasroot")
        self._spawn(argv, d / "inspircd.out")
        await wait_port(self.port)
        atheme = [self.atheme_bin, "-n", "-c", str(d / "atheme.conf"), "-D", str(data)]
        atheme += ["-l", str(data / "atheme.log"), "-p", str(data / "atheme.pid")]
        if os.geteuid() == 0:  # Atheme refuses to run as root
            os.chown(data, 65534, 65534)
            atheme = [self.setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *atheme]
        self._spawn(atheme, d / "atheme.out")
        log, out = d / "inspircd.log", d / "atheme.out"
        for _ in range(200):
            if out.exists() and "finished synching with uplink" in out.read_text():
                return
            await asyncio.sleep(0.05)
        raise RuntimeError(
            "Atheme did not link to InspIRCd:\n"
            + (d / "atheme.out").read_text()[-2000:]
            + (log.read_text()[-2000:] if log.exists() else "")
        )

    def _spawn(self, argv: list[str], out: Path) -> None:
        with open(out, "ab") as sink:
            self.procs.append(
                subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            )

    async def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.kill()
            await asyncio.to_thread(proc.wait)
        self.procs.clear()
