"""The bot's languages: English (the source text), Ukrainian and Simplified Chinese.

Catalogs are gettext ``.po`` files, one per domain and language, read with Babel when first needed
(no compile step: a fresh checkout runs as it is): the bot's own texts in
``i18n/locales/<language>/LC_MESSAGES/messages.po``, and each game's (its rules, events, board,
options, maps and levels) in its own package, ``engine/<name>/locales/<language>/LC_MESSAGES/<name>.po``. Importing this
package installs them as the engine's catalog source, so ``tr``/``ntr`` anywhere (engine, render,
service, cogs) speak the language set with ``using``.

Which language a text is made in: posts everyone in a game's channel or thread sees (round posts,
announcements, board images) use the server's language, set by an admin with ``/config language``
(English until then); a reply only the asking user sees uses his Discord client's language when the
bot speaks it, else the server's. A translated text quotes commands by their names in its language
(``i18n.commands``).
"""

from __future__ import annotations

import gettext
import importlib
import io
from functools import cache
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from engine import RULESETS
from engine.i18n import (
    ENGLISH,
    LEVEL_NAME,
    MAP_NAME,
    NAME_CONTEXT,
    current,
    install,
    joined,
    level_title,
    map_title,
    mark,
    ntr,
    option_name,
    set_language,
    tr,
    tr_in,
    using,
)
from i18n.commands import localised

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "LEVEL_NAME",
    "LOCALES",
    "MAP_NAME",
    "NAME_CONTEXT",
    "current",
    "from_discord",
    "joined",
    "language_name",
    "level_title",
    "map_title",
    "mark",
    "ntr",
    "option_name",
    "set_language",
    "tr",
    "tr_in",
    "translations",
    "using",
]

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "messages"

# Our language codes, and the Discord locales that mean each.
LANGUAGES = {ENGLISH: ("en-US", "en-GB"), "uk": ("uk",), "zh_Hans": ("zh-CN",)}

NAMES = {ENGLISH: "English", "uk": "Українська", "zh_Hans": "简体中文"}


def language_name(language: str) -> str:
    """A language as its speakers write it."""
    return NAMES[language]


def from_discord(locale: str | None) -> str | None:
    """Our language for a Discord locale ("zh-CN" -> "zh_Hans"), or None when the bot does not speak it."""
    return next((language for language, locales in LANGUAGES.items() if locale in locales), None)


@cache
def domains() -> dict[str, Path]:
    """Each catalog domain and its ``locales`` folder: the bot's own texts, then every game's, kept in
    the game's engine package (named after it)."""
    games = {name: Path(importlib.import_module(f"engine.{name}").__path__[0]) / "locales" for name in RULESETS}
    return {DOMAIN: LOCALES, **games}


def catalog_path(language: str, domain: str = DOMAIN) -> Path:
    return domains()[domain] / language / "LC_MESSAGES" / f"{domain}.po"


def catalog_paths(language: str) -> list[Path]:
    """The catalogs of ``language`` in every domain that has one."""
    return [path for domain in domains() if (path := catalog_path(language, domain)).is_file()]


def merged(language: str, project: str | None = None) -> Catalog:
    """Every domain's catalog of ``language`` as one (a message id belongs to one domain)."""
    catalog = Catalog(locale=language, project=project, fuzzy=False)
    for path in catalog_paths(language):
        with path.open("rb") as po:
            for message in read_po(po, locale=language):
                if message.id:
                    catalog[message.id] = message
    return catalog


class CommandQuoting(Translations):
    """A catalog whose texts quote commands by their names in its language (see ``i18n.commands``)."""

    def gettext(self, message: str) -> str:
        return localised(super().gettext(message), self._name)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return localised(super().ngettext(singular, plural, n), self._name)

    def _name(self, word: str) -> str:
        return cast(str, self.pgettext(NAME_CONTEXT, word))  # Babel annotates str | object; a catalog holds text


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogs of ``language`` in every domain, as one (read once per process); English and unknown
    codes translate nothing. Fuzzy entries are left out, so a translation not yet reviewed shows the
    English text."""
    if language == ENGLISH or not catalog_paths(language):
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, merged(language))
    compiled.seek(0)
    return CommandQuoting(compiled, domain=DOMAIN)


install(translations)
