"""Telling TLS and plain text apart when a network's ``tls`` setting does not match its port.

A TLS client on a plain-text port sends a ClientHello the IRC server takes for a bad line, and the
handshake fails or hangs until ``connect_timeout``; a plain-text client on a TLS port gets a TLS
record back (an alert, 0x15, or a handshake, 0x16, then the version 0x03 0x0N) as its "first line".
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl

TLS_CONTENT_TYPES = ("\x15\x03", "\x16\x03")


def tls_record(first: str) -> bool:
    """Whether the start of the server's first answer is a TLS record, not an IRC line."""
    return first.startswith(TLS_CONTENT_TYPES)


def tls_answer_hint(host: str, port: int, *, plain: bool = False) -> str:
    """One line that says what is wrong and what to change."""
    if plain:
        return (
            f"{host} port {port} speaks TLS, but this network has tls = false: "
            f"set tls = true (or use the server's plain-text port, usually 6667)"
        )
    return (
        f"{host} port {port} speaks plain text, not TLS: set tls = false for this network, "
        f"or set port to the server's TLS port (usually 6697)"
    )


async def plain_text_answer(host: str, port: int, timeout: float) -> bool:
    """Whether the port answers a plain-text ``CAP LS`` with an IRC line (``:server ...``)."""
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"CAP LS 302\r\n")
            await writer.drain()
            line = await reader.readline()
    except (OSError, TimeoutError, ValueError):
        return False
    finally:
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()
    text = line.decode("latin-1")
    return text.startswith((":", "NOTICE ", "PING ", "ERROR ")) or " CAP " in text


async def tls_handshake_works(host: str, port: int, timeout: float) -> bool:
    """Whether the port completes a TLS handshake (certificate not checked: only the protocol is asked)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            _, writer = await asyncio.open_connection(host, port, ssl=context)
        return True
    except (OSError, TimeoutError, ssl.SSLError):
        return False
    finally:
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()
