"""IRC lines: parsing (with IRCv3 message tags), building, and the casemapping rules.

A line is ``[@tags SP] [:prefix SP] COMMAND params [:trailing]``; tags follow the IRCv3 message-tags
escaping (``\\:`` ``;``, ``\\s`` space, ``\\\\``, ``\\r``, ``\\n``). Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TAG_UNESCAPE = {":": ";", "s": " ", "\\": "\\", "r": "\r", "n": "\n"}
TAG_ESCAPE = {";": "\\:", " ": "\\s", "\\": "\\\\", "\r": "\\r", "\n": "\\n"}


def unescape_tag_value(value: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\":
            if i + 1 < len(value):
                nxt = value[i + 1]
                out.append(TAG_UNESCAPE.get(nxt, nxt))
            i += 2  # a lone trailing backslash is dropped, as the spec says
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def escape_tag_value(value: str) -> str:
    return "".join(TAG_ESCAPE.get(ch, ch) for ch in value)


@dataclass(frozen=True)
class Message:
    command: str
    params: tuple[str, ...] = ()
    prefix: str | None = None
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def nick(self) -> str | None:
        """The nick part of ``nick!user@host`` (or the server name)."""
        if self.prefix is None:
            return None
        return self.prefix.split("!", 1)[0].split("@", 1)[0]

    @property
    def userhost(self) -> str | None:
        """``user@host`` of the prefix, when the prefix carries one."""
        if self.prefix is None or "!" not in self.prefix:
            return None
        return self.prefix.split("!", 1)[1]

    def param(self, index: int, default: str = "") -> str:
        return self.params[index] if index < len(self.params) else default


def parse_line(line: str) -> Message | None:
    """One line without its CR-LF; None for an empty or malformed line."""
    line = line.rstrip("\r\n")
    tags: dict[str, str] = {}
    if line.startswith("@"):
        raw_tags, _, line = line[1:].partition(" ")
        for item in raw_tags.split(";"):
            if not item:
                continue
            key, sep, value = item.partition("=")
            tags[key] = unescape_tag_value(value) if sep else ""
        line = line.lstrip(" ")
    prefix: str | None = None
    if line.startswith(":"):
        prefix, _, line = line[1:].partition(" ")
        line = line.lstrip(" ")
    if not line:
        return None
    trailing: str | None = None
    if " :" in line:
        line, trailing = line.split(" :", 1)
    elif line.startswith(":"):
        line, trailing = "", line[1:]
    parts = [p for p in line.split(" ") if p]
    if trailing is not None:
        parts.append(trailing)
    if not parts:
        return None
    command = parts[0].upper()
    return Message(command=command, params=tuple(parts[1:]), prefix=prefix, tags=tags)


def build_line(command: str, *params: str, tags: dict[str, str] | None = None) -> str:
    """A line without CR-LF. The last parameter becomes trailing when it needs to."""
    for p in params[:-1]:
        if not p or " " in p or p.startswith(":") or any(c in p for c in "\r\n\0"):
            raise ValueError(f"middle parameter {p!r} is not valid on IRC")
    parts = [command]
    if params:
        *middle, last = params
        parts.extend(middle)
        if any(c in last for c in "\r\n\0"):
            raise ValueError("a parameter may not hold CR, LF or NUL")
        parts.append(f":{last}" if (not last or " " in last or last.startswith(":")) else last)
    line = " ".join(parts)
    if tags:
        rendered = ";".join(f"{k}={escape_tag_value(v)}" if v else k for k, v in tags.items())
        line = f"@{rendered} {line}"
    return line


def decode(raw: bytes) -> str:
    """UTF-8 first; old clients on some networks still send Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_RFC1459 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")
_STRICT = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\", "abcdefghijklmnopqrstuvwxyz{}|")
_ASCII = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def casefold(name: str, casemapping: str = "rfc1459") -> str:
    """Fold a nick or channel name the way the server compares them (ISUPPORT CASEMAPPING)."""
    table = {"ascii": _ASCII, "strict-rfc1459": _STRICT}.get(casemapping, _RFC1459)
    if casemapping not in ("ascii", "strict-rfc1459", "rfc1459"):
        return name.casefold()  # rfc7613 / utf8 mappings: Unicode case folding is the closest
    return name.translate(table)
