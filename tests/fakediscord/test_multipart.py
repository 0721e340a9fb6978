"""The fake's one-pass multipart reader against aiohttp's streaming one, on bodies built as discord.py
builds them (``aiohttp.FormData(quote_fields=False)``)."""

from __future__ import annotations

import asyncio
import io
import json

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fakediscord.multipart import MalformedForm, Part, media_type, parse_form


class Buffer:
    def __init__(self):
        self.data = io.BytesIO()

    async def write(self, chunk: bytes) -> None:
        self.data.write(chunk)


def encoded(fields: list[tuple[str, bytes, str | None]]) -> tuple[str, bytes]:
    """(Content-Type, body) of a form as discord.py sends it: text fields, and files as file objects."""
    form = aiohttp.FormData(quote_fields=False)
    for name, data, filename in fields:
        if filename is None:
            form.add_field(name, data.decode())
        else:
            form.add_field(name, io.BytesIO(data), filename=filename, content_type="application/octet-stream")
    writer = form()
    buffer = Buffer()
    asyncio.run(writer.write(buffer))
    return writer.content_type, buffer.data.getvalue()


def test_reads_a_message_with_files_as_discord_py_sends_it():
    payload = json.dumps({"content": "**Round 1.**"}).encode()
    image = bytes(range(256)) * 400 + b"\r\n--not-the-boundary\r\n"
    content_type, body = encoded(
        [("payload_json", payload, None), ("files[0]", image, "game-1-0001.png"), ("files[1]", b"", "ключ 年.gif")]
    )
    assert media_type(content_type) == "multipart/form-data"
    assert parse_form(content_type, body) == [
        Part("payload_json", None, payload),
        Part("files[0]", "game-1-0001.png", image),
        Part("files[1]", "ключ 年.gif", b""),
    ]


HEADER_TEXT = st.text(st.characters(blacklist_characters='"\\', blacklist_categories=("Cs", "Cc")), min_size=1)
TEXT_FIELD = st.tuples(HEADER_TEXT, st.text().map(str.encode), st.none())
FILE_FIELD = st.tuples(HEADER_TEXT, st.binary(), HEADER_TEXT)


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.lists(st.one_of(TEXT_FIELD, FILE_FIELD), max_size=3), FILE_FIELD).map(lambda t: [*t[0], t[1]]))
def test_any_form_reads_back_as_sent(fields):
    """Any mix of text fields and files, the last a file (without one, the form is not multipart)."""
    content_type, body = encoded(fields)
    assert [(p.name, p.data, p.filename) for p in parse_form(content_type, body)] == fields


@pytest.mark.parametrize(
    "cut",
    [
        lambda body, boundary: body.replace(b"--" + boundary + b"--", b""),  # no closing boundary
        lambda body, boundary: b"x" + body,  # junk glued to the first boundary
        lambda body, boundary: body.replace(b"\r\n\r\n", b"\r\n", 1),  # headers run into the data
        lambda body, boundary: body.replace(b"Content-Disposition", b"Content-Dispo", 1),
    ],
)
def test_malformed_bodies_are_refused(cut):
    content_type, body = encoded([("payload_json", b"{}", None), ("files[0]", b"PNG", "a.png")])
    boundary = content_type.split("boundary=", 1)[1].strip('"').encode()
    with pytest.raises(MalformedForm):
        parse_form(content_type, cut(body, boundary))


def test_a_body_without_boundary_is_refused():
    with pytest.raises(MalformedForm):
        parse_form("multipart/form-data", b"--x\r\n\r\n\r\n--x--\r\n")
