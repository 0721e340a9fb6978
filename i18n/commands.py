"""Commands quoted in texts, under the names the reader's Discord shows them by.

A message quotes a command in English ("use `/orders give`", "`/game join game:12`"); Discord lists
it to a Ukrainian or Chinese member by its localised name (``/накази віддати``), so a text in his
language quotes it by that name too. The names come from the catalog's command-name entries, the
same ones the command translator syncs; which words form a command (``/game create conquest`` is
one, ``/rules conquest`` is ``/rules`` with a value) comes from the command tree, which the bot
registers here once it has built it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

_OPTIONS: dict[tuple[str, ...], frozenset[str]] = {}  # every command path, with its options' names

_QUOTED = re.compile(r"(?<![\w/:.<])/[a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*:?)*")


def register(commands: Mapping[str, Collection[str]]) -> None:
    """Learn the commands texts may quote: each by its full name ("orders give") with its options' names."""
    for name, options in commands.items():
        _OPTIONS[tuple(name.split())] = frozenset(options)


def localised(text: str, name: Callable[[str], str]) -> str:
    """``text`` with each command it quotes (and its options written ``option:``) renamed by ``name``."""
    return _QUOTED.sub(lambda found: _renamed(found.group(), name), text) if _OPTIONS else text


def _renamed(quoted: str, name: Callable[[str], str]) -> str:
    words = quoted[1:].split(" ")
    path: tuple[str, ...] = ()
    while len(path) < len(words) and (*path, words[len(path)]) in _OPTIONS:
        path = (*path, words[len(path)])
    if not path:
        return quoted
    options = _OPTIONS[path]
    shown = [name(word) for word in path]
    rest = words[len(path) :]
    while rest and rest[0].endswith(":") and rest[0][:-1] in options:
        shown.append(name(rest[0][:-1]) + ":")
        rest = rest[1:]
    return "/" + " ".join(shown + rest)
