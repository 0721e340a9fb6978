"""Each server's language for what everyone in it reads, kept in the database and held in memory:
every interaction asks before it is acknowledged, so the answer must not wait on the store (all
choices are read once at start-up; a service opened without ``load`` reads each server once)."""

from __future__ import annotations

from i18n import ENGLISH, LANGUAGES, from_discord, joined, language_name, tr
from service.clock import Clock
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.storage.store import Store


class ServerLanguages:
    def __init__(self, db: Store, clock: Clock):
        self.db, self.clock = db, clock
        self._known: dict[int, str] = {}
        self._loaded = False

    async def load(self) -> None:
        """Read every server's choice into memory."""
        async with self.db.reading() as conn:
            async with conn.execute("SELECT guild_id, language FROM server_language") as cur:
                rows = await cur.fetchall()
        self._known = {guild: language if language in LANGUAGES else ENGLISH for guild, language in rows}
        self._loaded = True

    async def of(self, guild_id: int | None) -> str:
        """The server's language; English for servers that never chose one, and in DMs."""
        if not guild_id:
            return ENGLISH
        if guild_id not in self._known and self._loaded:
            return ENGLISH
        if guild_id not in self._known:
            async with self.db.reading() as conn:
                async with conn.execute("SELECT language FROM server_language WHERE guild_id = ?", (guild_id,)) as cur:
                    row = await cur.fetchone()
            self._known[guild_id] = row[0] if row and row[0] in LANGUAGES else ENGLISH
        return self._known[guild_id]

    async def set(self, guild_id: int | None, language: str, actor: Actor) -> str:
        """Choose the server's language (a language code or a Discord locale); managers only."""
        if not guild_id:
            raise GameError(tr("a language can only be chosen for a server, not in direct messages"))
        if not actor.is_admin:
            raise NotAllowed(tr("only server managers (Manage Server) can choose the server's language"))
        chosen = language if language in LANGUAGES else from_discord(language)
        if chosen is None:
            names = joined(f"{code} ({language_name(code)})" for code in LANGUAGES)
            raise GameError(tr("unknown language {language!r}; available: {names}", language=language, names=names))
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO server_language (guild_id, language, set_by, set_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, set_by = excluded.set_by, "
                "set_at = excluded.set_at",
                (guild_id, chosen, actor.user_id, self.clock.now()),
            )
        self._known[guild_id] = chosen
        return chosen

    async def for_reply(self, guild_id: int | None, user_locale: str | None) -> str:
        """The language of a reply only the asking user sees: his own when the bot speaks it, else the server's."""
        return from_discord(user_locale) or await self.of(guild_id)
