"""multipart/form-data bodies read in one pass over the bytes.

aiohttp's streaming reader looks for the boundary chunk by chunk in Python and parses each header
through the email package: a few milliseconds per uploaded board image, spent in the bot's process
when the fake runs beside it. Uploads are whole in memory anyway, so the body is split on its
delimiter instead (RFC 7578: ``--boundary`` lines, each part's headers, a blank line, its bytes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

# A header parameter: name=token or name="quoted string" (backslash escapes inside the quotes).
_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


class MalformedForm(ValueError):
    """The body is not the multipart/form-data its Content-Type announces."""


@dataclass(frozen=True)
class Part:
    name: str
    filename: str | None
    data: bytes


def media_type(content_type: str) -> str:
    """``multipart/form-data`` of ``multipart/form-data; boundary=…``, lower-cased."""
    return content_type.split(";", 1)[0].strip().lower()


def parameters(header: str) -> dict[str, str]:
    """The ``key=value`` parameters after a header's first value, unquoted, keys lower-cased."""
    found = {}
    for key, value in _PARAM.findall(header):
        quoted = value.startswith('"')
        found[key.lower()] = re.sub(r"\\(.)", r"\1", value[1:-1]) if quoted else value.strip()
    return found


def parse_form(content_type: str, body: bytes) -> list[Part]:
    boundary = parameters(content_type).get("boundary")
    if not boundary:
        raise MalformedForm("multipart body without a boundary")
    delimiter = b"--" + boundary.encode("latin-1")
    start = body.find(delimiter)
    if start < 0 or (start > 0 and body[start - 2 : start] != b"\r\n"):
        raise MalformedForm("multipart body without its first boundary")
    chunks = body[start + len(delimiter) :].split(b"\r\n" + delimiter)
    if not chunks[-1].startswith(b"--"):
        raise MalformedForm("multipart body without its closing boundary")
    return [_part(chunk) for chunk in chunks[:-1]]


def _part(chunk: bytes) -> Part:
    if not chunk.startswith(b"\r\n"):
        raise MalformedForm("a boundary line not followed by a line break")
    head, separator, data = chunk[2:].partition(b"\r\n\r\n")
    if not separator:
        raise MalformedForm("a part without the blank line after its headers")
    headers = {}
    for line in head.decode("utf-8", "replace").split("\r\n"):
        key, colon, value = line.partition(":")
        if not colon:
            raise MalformedForm(f"a part header without a colon: {line!r}")
        headers[key.strip().lower()] = value.strip()
    disposition = headers.get("content-disposition", "")
    if media_type(disposition) != "form-data":
        raise MalformedForm("a part without 'Content-Disposition: form-data'")
    params = parameters(disposition)
    filename = params.get("filename")
    if "filename*" in params:  # RFC 5987: charset'language'percent-encoded
        charset, _, encoded = params["filename*"].partition("'")
        filename = unquote(encoded.partition("'")[2], encoding=charset or "utf-8")
    return Part(params.get("name", ""), filename, data)
