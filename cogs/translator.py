"""Commands in the user's language: names and descriptions through discord.py's translator (sent
with the command sync as Discord's ``*_localizations``), and replies made in the language chosen for
each interaction before its command, autocomplete or button runs (see ``i18n`` for which wins)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import client_service, service_of
from i18n import ENGLISH, NAME_CONTEXT, commands, from_discord, set_language, tr, tr_in, using

NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def is_name(context: app_commands.TranslationContextTypes) -> bool:
    """Names (of commands, groups, options) have Discord's own spelling rules and their own catalog context."""
    return context.location in NAMES


class CatalogTranslator(app_commands.Translator):
    """Looks command texts up in the message catalogs; English is the source, so it needs no entry."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = from_discord(locale.value)
        if language in (None, ENGLISH):
            return None
        with using(language):
            text = tr_in(NAME_CONTEXT, string.message) if is_name(context) else tr(string.message)
        return text if text != string.message else None


def quote_commands_of(tree: app_commands.CommandTree) -> None:
    """Texts in a language quote this tree's commands (and their options) by their names in it."""
    commands.register(
        {
            command.qualified_name: [parameter.name for parameter in getattr(command, "parameters", ())]
            for command in tree.walk_commands()
        }
    )


async def reply_language(interaction: discord.Interaction) -> str:
    """The language of what only this user will see: his own, if the bot speaks it, else the server's."""
    return await service_of(interaction).languages.for_reply(interaction.guild_id, interaction.locale.value)


async def server_language(client: discord.Client, guild_id: int | None) -> str:
    """The language of what everyone in the server sees."""
    return await client_service(client).languages.of(guild_id)


class LocalisedTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_language(await reply_language(interaction))
        return True


class RepliesInUsersLanguage:
    """A button whose replies are in the clicking user's language."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_language(await reply_language(interaction))
        return True
