"""The few marks of Discord's text the game's lines use (``**bold**``, ```code```, ``\\`` before a
character meant as itself) as HTML, everything else escaped."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

MARKED = re.compile(r"([\\*`_~|>])")


def unmarked(name: str) -> str:
    """A player's name as plain characters even where it holds Discord's marks."""
    return MARKED.sub(r"\\\1", name)


TOKENS = re.compile(r"\\(.)|(\*\*)|(`)|([^\\*`]+|[\\*])", re.DOTALL)  # \x, **, `, or plain text


def html(line: str) -> Markup:
    parts: list[str] = []
    bold = code = False
    for meant, stars, tick, text in TOKENS.findall(line):
        if meant and code:  # inside code a backslash is itself, and a backtick still ends it
            parts.append("\\" + ("</code>" if meant == "`" else escape(meant)))
            code = code and meant != "`"
        elif meant:
            parts.append(escape(meant))
        elif stars and not code:
            parts.append("</strong>" if bold else "<strong>")
            bold = not bold
        elif tick:
            parts.append("</code>" if code else "<code>")
            code = not code
        else:
            parts.append(escape(stars or text))
    parts += ["</code>"] * code + ["</strong>"] * bold
    return Markup("".join(parts))
