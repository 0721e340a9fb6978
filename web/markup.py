"""The few marks of Discord's text the game's lines use (``**bold**``, ```code```, ``\\`` before a
character meant as itself) as HTML, everything else escaped."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

MARKED = re.compile(r"([\\*`_~|>])")


def unmarked(name: str) -> str:
    """A player's name as plain characters even where it holds Discord's marks."""
    return MARKED.sub(r"\\\1", name)


def html(line: str) -> Markup:
    parts: list[str] = []
    bold = code = False
    i = 0
    while i < len(line):
        if line[i] == "\\" and not code and i + 1 < len(line):
            parts.append(escape(line[i + 1]))
            i += 2
        elif line.startswith("**", i) and not code:
            parts.append("</strong>" if bold else "<strong>")
            bold, i = not bold, i + 2
        elif line[i] == "`":
            parts.append("</code>" if code else "<code>")
            code, i = not code, i + 1
        else:
            parts.append(escape(line[i]))
            i += 1
    parts += ["</code>"] * code + ["</strong>"] * bold
    return Markup("".join(parts))
