"""The adapter against ngIRCd from Debian: the flood limiter, nick fallback, TLS with certificate checks."""

from __future__ import annotations

import shutil
import statistics
import subprocess
from pathlib import Path

import pytest

from gateway.vault import repo
from tests.irc.conftest import Harness, connection, eventually
from tests.irc.ircd import free_port

INTERVAL = 0.15
BURST = 4


async def test_flood_limiter_holds_the_rate_during_a_storyteller_log_burst(irc: Harness) -> None:
    server = await irc.ngircd()
    st = await irc.client(server.port, "storyteller", "#st")
    gateway = await irc.gateway(
        {
            "test": {
                "host": "127.0.0.1",
                "port": server.port,
                "channels": ["#game"],
                "send_interval": INTERVAL,
                "send_burst": BURST,
            }
        },
        stlog=["irc:test/#st"],  # the bot joins Storyteller-log channels by itself
    )
    await st.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    settings = gateway.services.settings
    async with gateway.services.vault.transaction() as session:
        for i in range(30):
            await repo.write_stlog(
                session,
                targets=settings.stlog.targets,
                person_id=None,
                character_id=None,
                channel_key="irc:test/#game",
                kind="roll",
                text=f"stlog line {i + 1:02d}",
                result={},
                now=gateway.services.clock(),
                who="test",
                where="irc:test/#game",
            )
    gateway.outbox.wake()
    lines = await st.messages_from("nightcap", 30)
    assert [ln.text for ln in lines] == [f"stlog line {i + 1:02d}" for i in range(30)]
    assert {ln.command for ln in lines} == {"PRIVMSG"} and {ln.params[0] for ln in lines} == {"#st"}

    at = [ln.at - lines[0].at for ln in lines]
    # Token bucket: in any stretch of time, at most BURST lines plus one per INTERVAL (one line of
    # slack for delivery jitter on the way through the server).
    for i in range(30):
        for j in range(i + 1, 30):
            assert j - i + 1 <= BURST + (at[j] - at[i]) / INTERVAL + 1, (i, j, at[j] - at[i])
    assert at[-1] >= (30 - BURST - 1) * INTERVAL
    gaps = [b - a for a, b in zip(at[BURST:], at[BURST + 1 :], strict=False)]
    median = statistics.median(gaps)
    print(f"flood limiter: {len(lines)} lines in {at[-1]:.2f} s, median paced gap {median:.3f} s")
    assert 0.9 * INTERVAL <= median <= 2.5 * INTERVAL


async def test_all_nicks_taken_falls_back_to_digits(irc: Harness) -> None:
    server = await irc.ngircd()
    first = await irc.client(server.port, "nightcap", "#game")
    await irc.client(server.port, "nightcap_", "#game")
    gateway = await irc.gateway(
        {
            "test": {
                "host": "127.0.0.1",
                "port": server.port,
                "channels": ["#game"],
                "nick_fallbacks": ["nightcap_"],
            }
        }
    )
    join = await first.wait_for(lambda ln: ln.command == "JOIN" and ln.nick not in ("nightcap", "nightcap_"))
    assert join.nick.startswith("nightcap") and join.nick[8:].isdigit() and len(join.nick) == 11
    assert connection(gateway).nick == join.nick


def make_cert(tmp: Path) -> Path:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert = tmp / "server.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", str(cert.with_suffix(".key")), "-out", str(cert),
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert


async def test_tls_with_certificate_checks(irc: Harness, tmp_path: Path) -> None:
    cert = make_cert(tmp_path)
    plain, tls = free_port(), free_port()
    from tests.irc.ircd import ngircd, ngircd_binary

    if ngircd_binary() is None:
        pytest.skip("ngircd is not installed")
    server = ngircd(tmp_path, plain, tls_port=tls, cert=cert)
    irc.servers.append(server)
    await server.start()
    alice = await irc.client(plain, "alice", "#game")
    common = {"host": "127.0.0.1", "port": tls, "tls": True, "channels": ["#game"]}
    gateway = await irc.gateway(
        {
            "trusted": {**common, "tls_ca_file": str(cert)},
            "untrusted": {**common, "nick": "impostor"},  # same server, certificate not trusted
        },
        wait=False,
    )
    trusted = connection(gateway, "trusted")
    untrusted = connection(gateway, "untrusted")
    await eventually(lambda: _true(trusted.ready.is_set()), timeout=15)
    await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap")
    irc.dice.extend([9, 9])
    await alice.say("#game", "!roll 2")
    line = await alice.wait_for(lambda ln: ln.command == "PRIVMSG" and ln.nick == "nightcap")
    assert line.text.startswith("alice rolls 2 dice: 9 9 → 2 (Solid) #")

    await eventually(lambda: _true(untrusted.last_error is not None), timeout=15)
    assert "CERTIFICATE_VERIFY_FAILED" in (untrusted.last_error or "")
    assert untrusted.registrations == 0 and not untrusted.ready.is_set()


async def _true(value: bool) -> bool:
    return value
