"""The catalogs' source: every message the bot can show, gathered from the code.

Texts in code are marked with ``tr``/``ntr``/``tr_in``/``mark`` and found by Babel's extractor;
command names and descriptions (also those made from rulesets' option schemas) are gathered by
building the real command tree with a translator that records what it is asked; the names of
shipped maps and computer levels, which rulesets bring as data, are read from the rulesets. ``python -m
tools.update_catalogs`` (from a checkout: it is no part of the installed bot) merges them into each
language's ``.po`` files (new messages arrive untranslated, changed ones fuzzy); tests/i18n checks
that every message is translated. A message only one game says (in its engine package, its board
drawing, its options, maps and levels) goes to that game's own domain; every other to the bot's.
"""

from __future__ import annotations

import asyncio
import copy
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from i18n import DOMAIN, ENGLISH, LANGUAGES, LEVEL_NAME, MAP_NAME, NAME_CONTEXT, catalog_path, domains, merged

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "service", "cogs", "i18n", "web")
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")]  # the site's pages too
KEYWORDS = {"tr": (1,), "ntr": (1, 2), "tr_in": ((1, "c"), 2), "mark": (1,)}
PROJECT = "territory-bot"
HEADERS = {"uk": "Ukrainian", "zh_Hans": "Simplified Chinese"}  # the first line of a language's catalogs


def code_messages(root: Path = ROOT) -> Catalog:
    """Every marked text in the bot's packages, with where it is used."""
    catalog = Catalog(project=PROJECT)
    for package in PACKAGES:
        for filename, lineno, message, comments, context in extract_from_dir(
            root / package, method_map=METHODS, keywords=KEYWORDS, options_map={"**.html": {"trim_blocks": "true"}}
        ):
            catalog.add(message, locations=[(f"{package}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


async def command_messages() -> set[tuple[str, str | None]]:
    """(text, context) of every command, group, option and choice name and description."""
    from discord import app_commands

    from cogs.client import GameBot, install_commands
    from cogs.config import Config
    from cogs.translator import is_name
    from service.runtime.gameservice import GameService
    from service.runtime.workers import CpuPool

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


def ruleset_names() -> set[tuple[str, str | None]]:
    """(text, context) of the names rulesets bring as data: their shipped maps and computer levels,
    and the labels of the choices ``/game create`` offers as players type (not in the command tree)."""
    from engine import RULESETS
    from service.gameoptions import creation_options

    labels = {(label, None) for rs in RULESETS.values() for option in creation_options(rs) for label in option.labels}
    return labels.union(*(names_of(rs) for rs in RULESETS.values()))


def names_of(rs) -> set[tuple[str, str]]:
    """(text, context) of one ruleset's computer levels (old names too) and shipped maps."""
    names = {(level.name, LEVEL_NAME) for level in rs.bot_levels} | {(old, LEVEL_NAME) for old in rs.bot_level_aliases}
    return names | {
        (name, MAP_NAME) for option in rs.options_schema() if option.kind == "map" for name in option.choices
    }


def texts_of(rs) -> set[tuple[str, str | None]]:
    """(text, context) of what one ruleset brings to the commands and catalogs: its names, and its
    options' names, descriptions and choice labels."""
    texts = names_of(rs)
    for option in rs.options_schema():
        texts |= {(option.name, NAME_CONTEXT), (option.description, None)} | {(label, None) for label in option.labels}
    return texts


def domain_of(message: Message) -> str:
    """The catalog domain of ``message``: the game's own when that game alone says it, else the bot's."""
    from engine import RULESETS

    owners = set()
    for file, _ in message.locations:
        parts = file.split("/")
        if parts[0] == "engine" and len(parts) > 2 and parts[1] in RULESETS:
            owners.add(parts[1])
        elif file.startswith("render/boards/") and parts[-1].removesuffix(".py") in RULESETS:
            owners.add(parts[-1].removesuffix(".py"))
        elif file in ("commands", "rulesets"):
            key = (message.id, message.context)
            owners |= {name for name, rs in RULESETS.items() if key in texts_of(rs)} or {DOMAIN}
        else:
            owners.add(DOMAIN)
    return owners.pop() if len(owners) == 1 else DOMAIN


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


def split(source: Catalog) -> dict[str, Catalog]:
    """``source`` as one template per domain."""
    parts = {domain: Catalog(project=PROJECT) for domain in domains()}
    for message in source:
        if message.id:
            parts[domain_of(message)][message.id] = message
    return parts


def main() -> None:
    parts = split(template())
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        translated = merged(language, PROJECT)  # every domain's, read before any file is rewritten: messages move
        for domain, part in parts.items():
            path = catalog_path(language, domain)
            catalog = copy.deepcopy(translated)
            catalog.update(part, no_fuzzy_matching=True)
            whose = PROJECT if domain == DOMAIN else f"{PROJECT}'s game {domain}"
            catalog.header_comment = f"# {HEADERS[language]} messages of {whose}."
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as po:
                write_po(po, catalog, width=120, ignore_obsolete=True, sort_output=False)
            untranslated = sum(1 for m in catalog if m.id and not (all(m.string) if m.pluralizable else m.string))
            print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {untranslated} untranslated")


if __name__ == "__main__":
    main()
