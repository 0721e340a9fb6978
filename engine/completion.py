"""Autocomplete, shared by the rulesets: the earlier order lines stay as the player typed them."""

from __future__ import annotations

import re
from collections.abc import Iterable


def split_last(text: str) -> tuple[str, str]:
    """``text`` cut before the line being typed: the earlier lines as typed (their last separator
    included), and that line."""
    *done, last = re.split(r"([;,\n])", text) if text else [""]
    return "".join(done), last


def after(head: str, lines: Iterable[str]) -> list[str]:
    """Each suggested line written after the earlier lines, once each."""
    return [f"{head} {line}".strip() if head else line for line in dict.fromkeys(lines)]
