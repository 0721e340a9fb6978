"""Each server's language for what everyone in it reads, kept in the database and held in memory:
every interaction asks before it is acknowledged, so the answer must not wait on the store (all
choices are read once at start-up; a service opened without ``load`` reads each server once)."""

from __future__ import annotations

from i18n import ENGLISH, LANGUAGES, from_discord, joined, language_name, tr
from service.clock import Clock
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.storage import settings as chosen
from service.storage.store import Store


class ServerLanguages:
    def __init__(self, db: Store, clock: Clock):
        self.db, self.clock = db, clock
        self._known: dict[int, str] = {}
        self._loaded = False

    async def load(self) -> None:
        """Read every server's choice into memory."""
        stored = await chosen.server_languages(self.db)
        self._known = {guild: language if language in LANGUAGES else ENGLISH for guild, language in stored.items()}
        self._loaded = True

    async def of(self, guild_id: int | None) -> str:
        """The server's language; English for servers that never chose one, and in DMs."""
        if not guild_id:
            return ENGLISH
        if guild_id not in self._known and self._loaded:
            return ENGLISH
        if guild_id not in self._known:
            stored = await chosen.server_language(self.db, guild_id)
            self._known[guild_id] = stored if stored in LANGUAGES else ENGLISH
        return self._known[guild_id]

    async def set(self, guild_id: int | None, language: str, actor: Actor) -> str:
        """Choose the server's language (a language code or a Discord locale); managers only."""
        if not guild_id:
            raise GameError(tr("a language can only be chosen for a server, not in direct messages"))
        if not actor.is_admin:
            raise NotAllowed(tr("only server managers (Manage Server) can choose the server's language"))
        language_code = language if language in LANGUAGES else from_discord(language)
        if language_code is None:
            names = joined(f"{code} ({language_name(code)})" for code in LANGUAGES)
            raise GameError(tr("unknown language {language!r}; available: {names}", language=language, names=names))
        await chosen.save_server_language(self.db, guild_id, language_code, actor.user_id, self.clock.now())
        self._known[guild_id] = language_code
        return language_code

    async def for_reply(self, guild_id: int | None, user_locale: str | None) -> str:
        """The language of a reply only the asking user sees: his own when the bot speaks it, else the server's."""
        return from_discord(user_locale) or await self.of(guild_id)
