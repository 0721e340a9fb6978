"""Players' names told apart: a name that looks like another player's, on the board or in a post,
gets the seat number boards give it ("alice #1", "аlice #2"), so nobody can pass for somebody else.

Names are compared as the board draws them (without what no bundled font has) by Unicode's
confusable skeletons (UTS #39, from ICU): a Cyrillic "а" is a Latin "a", "AIice" is "Alice", "m" is
"rn". Skeletons tell case apart, so the casefolded names are compared too: "Bob" is "bob".
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

import icu

from render.text import font_for

_SPOOF = icu.SpoofChecker()


def drawable(name: str) -> str:
    """What the board draws of a name: no invisible characters, nothing no bundled font has (emoji)."""
    kept = "".join(c for c in name if unicodedata.category(c)[0] not in "CZ" and font_for(c) is not None or c == " ")
    return " ".join(kept.split())


def told_apart(names: Sequence[str], shown: Callable[[str], str] = str) -> list[str]:
    """A game's ``names`` by seat, as ``shown`` writes them, each followed by its seat number where
    the board would draw it as nothing or like another's."""
    drawn = tuple(drawable(name) for name in names)
    alike = _alike(drawn)
    return [
        f"{shown(name)} #{seat + 1}" if seat in alike or not drawn[seat] else shown(name)
        for seat, name in enumerate(names)
    ]


@lru_cache(maxsize=4096)
def _alike(names: tuple[str, ...]) -> frozenset[int]:
    """The indexes of the names that look like another of ``names`` (kept: every name of a post or
    card asks about the same few games' names)."""
    looks = [_looks(name) for name in names]
    seen = Counter(key for keys in looks for key in keys)
    return frozenset(index for index, keys in enumerate(looks) if any(seen[key] > 1 for key in keys))


def _looks(name: str) -> set[str]:
    """What a name looks like, as written and casefolded (a name's two may be one)."""
    normal = unicodedata.normalize("NFKC", name)
    return {_SPOOF.getSkeleton(0, normal), _SPOOF.getSkeleton(0, normal.casefold())}
