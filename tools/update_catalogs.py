"""The catalogs' source: every message the bot can show, gathered from the code.

Texts in code are marked with ``tr``/``ntr``/``tr_in``/``mark`` and found by Babel's extractor;
command names and descriptions (also those made from rulesets' option schemas) are gathered by
building the real command tree with a translator that records what it is asked; the names of
shipped maps and computer levels, which rulesets bring as data, are read from the rulesets. ``python -m
tools.update_catalogs`` (from a checkout: it is no part of the installed bot) merges them into each language's ``.po`` (new messages arrive untranslated, changed
ones fuzzy); tests/i18n checks that every message is translated.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import ENGLISH, LANGUAGES, LEVEL_NAME, MAP_NAME, NAME_CONTEXT, catalog_path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "service", "cogs", "i18n")
KEYWORDS = {"tr": (1,), "ntr": (1, 2), "tr_in": ((1, "c"), 2), "mark": (1,)}
PROJECT = "territory-bot"


def code_messages(root: Path = ROOT) -> Catalog:
    """Every marked text in the bot's packages, with where it is used."""
    catalog = Catalog(project=PROJECT)
    for package in PACKAGES:
        for filename, lineno, message, comments, context in extract_from_dir(
            root / package, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            catalog.add(message, locations=[(f"{package}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


async def command_messages() -> set[tuple[str, str | None]]:
    """(text, context) of every command, group, option and choice name and description."""
    from discord import app_commands

    from cogs.client import GameBot, install_commands
    from cogs.config import Config
    from cogs.translator import is_name
    from service.runtime import GameService
    from service.workers import CpuPool

    seen: set[tuple[str, str | None]] = set()

    class Recorder(app_commands.Translator):
        async def translate(self, string, locale, context):
            seen.add((string.message, NAME_CONTEXT if is_name(context) else None))
            return None

    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "catalog.sqlite3"
        pool = CpuPool(workers=0)
        service = await GameService.open(database, sink=None, pool=pool)
        try:
            async with GameBot(Config(token="-", database=database)) as bot:  # never connects
                await install_commands(bot, service)
                for command in bot.tree.get_commands():
                    await command.get_translated_payload(bot.tree, Recorder())
        finally:
            await service.close()
            pool.close()
    return seen


def ruleset_names() -> set[tuple[str, str]]:
    """(text, context) of the names rulesets bring as data: their shipped maps and computer levels."""
    from engine import RULESETS

    names = set()
    for rs in RULESETS.values():
        names |= {(level.name, LEVEL_NAME) for level in rs.bot_levels} | {
            (old, LEVEL_NAME) for old in rs.bot_level_aliases
        }
        names |= {(name, MAP_NAME) for option in rs.options_schema() if option.kind == "map" for name in option.choices}
    return names


def template() -> Catalog:
    """Every message the bot can show, as the source of each language's catalog."""
    catalog = code_messages()
    named = [*asyncio.run(command_messages()), *ruleset_names()]
    for text, context in sorted(named, key=lambda m: (m[1] or "", m[0])):
        if catalog.get(text, context) is None:
            catalog.add(
                text, locations=[("commands" if context in (None, NAME_CONTEXT) else "rulesets", 0)], context=context
            )
    return catalog


def main() -> None:
    source = template()
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        path = catalog_path(language)
        if path.is_file():
            with path.open("rb") as po:
                catalog = read_po(po, locale=language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project=PROJECT)
        catalog.update(source, no_fuzzy_matching=True)
        with path.open("wb") as po:
            write_po(po, catalog, width=120, ignore_obsolete=True, sort_output=False)
        untranslated = sum(1 for m in catalog if m.id and not (all(m.string) if m.pluralizable else m.string))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {untranslated} untranslated")


if __name__ == "__main__":
    main()
