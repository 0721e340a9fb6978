"""Where the words players read are translated: the engine marks its texts and asks here.

The engine stays standard-library only: it knows neither where catalogs live nor how they are
read. ``tr`` looks a message up in the catalog of the language in force (a context variable, so
concurrent posts to servers in different languages never mix), then fills its ``{placeholders}``.
Until a catalog source is installed (the ``i18n`` package does it when imported), and for any
message a catalog lacks, the English source text is used.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

ENGLISH = "en"

LANGUAGE: ContextVar[str] = ContextVar("language", default=ENGLISH)

_UNTRANSLATED = gettext.NullTranslations()
_source: Callable[[str], gettext.NullTranslations] = lambda language: _UNTRANSLATED


def install(source: Callable[[str], gettext.NullTranslations]) -> None:
    """Set where catalogs come from: a function of a language code."""
    global _source
    _source = source


def current() -> str:
    """The language texts are made in now."""
    return LANGUAGE.get()


def set_language(language: str) -> None:
    """Make texts in ``language`` for the rest of the running task (one interaction's replies)."""
    LANGUAGE.set(language)


@contextmanager
def using(language: str) -> Iterator[None]:
    """Make texts in ``language`` within the block."""
    token = LANGUAGE.set(language)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


def _fill(text: str, values: dict[str, Any]) -> str:
    return text.format(**values) if values else text


def tr(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled from ``values``."""
    return _fill(_source(LANGUAGE.get()).gettext(message), values)


def ntr(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of a counted message for ``n`` (Ukrainian has three); ``{n}`` is filled in too."""
    return _fill(_source(LANGUAGE.get()).ngettext(singular, plural, n), {"n": n, **values})


def tr_in(context: str, message: str, /) -> str:
    """``message`` as translated for one context (a command's name rather than the same word in a sentence)."""
    return _source(LANGUAGE.get()).pgettext(context, message)


def mark(message: str, /) -> str:
    """Marks a text that is translated later, where it is shown (``tr(constant)``); returns it unchanged."""
    return message


NAME_CONTEXT = "command name"  # the catalog context of command, group and option names
MAP_NAME = "map name"  # the catalog context of shipped maps' names
LEVEL_NAME = "computer level"  # the catalog context of computer players' level names


def option_name(name: str) -> str:
    """An option as the reader's Discord names it in the command (``turn_time`` is ``час-ходу`` in Ukrainian)."""
    return tr_in(NAME_CONTEXT, name)


GENERATED = "generated-"  # how the name of a generated map begins ("generated-medium-3p")
MAP_SIZES = (mark("small"), mark("medium"), mark("large"))  # size words in generated maps' names
_GENERATED_DETAILS = re.compile(r"(?P<size>[a-z]+|\d+x\d+)(?:-(?P<players>\d+)p)?(?:-mode(?P<mode>\d+))?")


def map_title(name: str) -> str:
    """A map as players read it: a shipped map's name translated (its id stays what is stored and typed),
    a generated one said to be generated, a map given as data by its own name."""
    if name.startswith(GENERATED):
        return _generated_title(name.removeprefix(GENERATED))
    return tr_in(MAP_NAME, name)


def _generated_title(details: str) -> str:
    """A generated map's id read out ("generated-medium-3p" is "generated medium, 3 players"): its size
    (a word or width x height), then the players it was made for or its mode, if the id says them."""
    parts = _GENERATED_DETAILS.fullmatch(details)
    if parts is None:
        return tr("generated {details}", details=details)
    size, players, mode = parts.group("size", "players", "mode")
    size = tr(size) if size in MAP_SIZES else size  # a word is translated, width x height reads alike
    if players:
        return tr("generated {size}, {players}", size=size, players=ntr("{n} player", "{n} players", int(players)))
    if mode:
        return tr("generated {size}, mode {mode}", size=size, mode=mode)
    return tr("generated {size}", size=size)


def level_title(name: str) -> str:
    """A computer level as players read it ("Hard" is stored, "Складний" shown)."""
    return tr_in(LEVEL_NAME, name)


def joined(items: Iterable[object]) -> str:
    """Names listed for players the way the current language lists them ("Alice, Bob"; Chinese "甲、乙")."""
    return tr_in("list separator", ", ").join(map(str, items))


def titled(ids: Iterable[str], title: Callable[[str], str]) -> str:
    """Names listed for a message as players read them, each with the id to type where it differs
    ("Корона (crown), Дуель (duel)")."""
    return joined(shown if (shown := title(name)) == name else f"{shown} ({name})" for name in ids)
