"""Every message the bot can show is translated into each language, with the same placeholders, and
command names that Discord accepts: a new or changed English text fails here until
``python -m tools.update_catalogs`` has merged it and someone has translated it."""

from __future__ import annotations

import ast
import string
import unicodedata

import pytest
from babel.messages.pofile import read_po

from engine import RULESETS
from i18n import DOMAIN, ENGLISH, LANGUAGES, LEVEL_NAME, NAME_CONTEXT, catalog_path, domains, merged
from tools.update_catalogs import KEYWORDS, PACKAGES, ROOT, domain_of, template

TRANSLATED = [language for language in LANGUAGES if language != ENGLISH]


@pytest.fixture(scope="module")
def source():
    """(id, context) -> message, for every message extracted from the code and the command tree."""
    return {(m.id, m.context): m for m in template() if m.id}


def catalog(language: str):
    """Every domain's messages of ``language`` together, as the bot reads them."""
    return {(m.id, m.context): m for m in merged(language) if m.id}


def domain_catalog(language: str, domain: str):
    with catalog_path(language, domain).open("rb") as po:
        return {(m.id, m.context): m for m in read_po(po, locale=language) if m.id}


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of a message with their conversions, e.g. ["language!r", "names"]."""
    return sorted(
        f"{field}!{conversion}" if conversion else field
        for _, field, _, conversion in string.Formatter().parse(text)
        if field is not None
    )


def forms(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def valid_command_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where the script has case."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn" for ch in name)
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(source, language):
    translated = catalog(language)
    missing = [key for key in source if key not in translated]
    empty = [key for key, m in translated.items() if key in source and not all(forms(m))]
    fuzzy = [key for key, m in translated.items() if m.fuzzy]
    assert missing == [], f"run `python -m tools.update_catalogs` and translate: {missing[:10]}"
    assert empty == [] and fuzzy == [], f"untranslated: {empty[:10]}, fuzzy: {fuzzy[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_game_has_its_texts_in_its_own_catalog(source, language):
    """A game's rules, events, board, options, maps and levels are translated in its own package;
    the bot's catalog holds only what no single game owns."""
    assert list(domains()) == [DOMAIN, *RULESETS]
    for domain in domains():
        held = domain_catalog(language, domain)
        assert held, f"{domain} has no {language} catalog"
        assert [key for key in held if key in source and domain_of(source[key]) != domain] == []
    conquest = domain_catalog(language, "conquest")
    assert any(path.startswith("render/boards/conquest.py") for m in conquest.values() for path, _ in m.locations)
    assert ("Extreme", LEVEL_NAME) not in conquest  # every game has it: the bot's


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogs_hold_nothing_the_code_no_longer_says(source, language):
    stale = [key for key in catalog(language) if key not in source]
    assert stale == [], f"run `python -m tools.update_catalogs` to drop: {stale[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders(source, language):
    wrong = []
    for key, message in catalog(language).items():
        if key not in source:
            continue
        english = message.id[-1] if isinstance(message.id, tuple) else message.id
        wrong += [(english, form) for form in forms(message) if placeholders(form) != placeholders(english)]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_messages_have_every_form_of_the_language(language):
    counts = {"uk": 3, "zh_Hans": 1}
    plural = [m for m in catalog(language).values() if isinstance(m.id, tuple)]
    assert plural, "counted messages are marked with ntr"
    assert {len(m.string) for m in plural} == {counts[language]}


@pytest.mark.parametrize("language", TRANSLATED)
def test_translated_command_names_are_names_discord_accepts(language):
    names = [m.string for (_, context), m in catalog(language).items() if context == NAME_CONTEXT]
    assert names and [name for name in names if not valid_command_name(name)] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translated_command_texts_fit_discord(language):
    """Discord refuses the whole command tree at start-up when one localized description or choice
    name is over 100 characters."""
    texts = [
        m.string
        for (_, context), m in catalog(language).items()
        if context != NAME_CONTEXT and any(file == "commands" for file, _ in m.locations)
    ]
    assert texts and [text for text in texts if len(text) > 100] == []


def test_no_message_is_hidden_inside_an_f_string():
    """Babel's extractor reads an f-string as one string token, so ``f"{tr('…')}"`` would never reach the
    catalogs (and would stay English): messages are made outside f-strings."""
    hidden = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    hidden += [
                        f"{path.relative_to(ROOT)}:{call.lineno}"
                        for call in ast.walk(node)
                        if isinstance(call, ast.Call)
                        and getattr(call.func, "id", None) in KEYWORDS
                        and any(isinstance(arg, ast.Constant) for arg in call.args)
                    ]
    assert hidden == []
