"""Where a game is on the web site (``bot.py web``), and whether it is there at all.

A game's page is found only by its link, which carries a signature of the server and game it names:
a bare id cannot be guessed into a page. Each server chooses with ``/config web``: ``public`` (its
own page lists its games), ``unlisted`` (the default: only the links posted in Discord lead to its
games) or ``off`` (none of its pages answer). Every process reads the one secret from the database,
so links made by any bot open on any web process."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from i18n import tr
from service.clock import Clock
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.storage import website as stored
from service.storage.store import Store

PUBLIC, UNLISTED, OFF = "public", "unlisted", "off"
MODES = (PUBLIC, UNLISTED, OFF)
SIGNATURE_BYTES = 12  # 96 bits: beyond guessing, short enough for a link


@dataclass(frozen=True)
class Signer:
    """Signs what a link names (a server and a game) with the site's secret, and checks a signature."""

    secret: str

    def signature(self, guild_id: int, game_id: int) -> str:
        digest = hmac.new(self.secret.encode(), f"game:{guild_id}:{game_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:SIGNATURE_BYTES]).decode().rstrip("=")

    def genuine(self, guild_id: int, game_id: int, signature: str) -> bool:
        return hmac.compare_digest(self.signature(guild_id, game_id).encode(), signature.encode())


def game_path(signer: Signer, guild_id: int, game_id: int) -> str:
    return f"/s/{guild_id}/g/{game_id}-{signer.signature(guild_id, game_id)}"


def mode_of(stored_mode: str | None) -> str:
    """A server's choice as stored (None: it made none)."""
    return stored_mode if stored_mode in MODES else UNLISTED


def server_path(guild_id: int) -> str:
    return f"/s/{guild_id}"


class Website:
    """The site as a bot process sees it: links for its posts (with ``public_url`` set), and the
    servers' choices, which the web process reads afresh at every page."""

    def __init__(self, db: Store, clock: Clock, public_url: str | None = None):
        self.db, self.clock = db, clock
        self.public_url = public_url.rstrip("/") if public_url else None
        self._signer: Signer | None = None

    async def signer(self) -> Signer:
        if self._signer is None:
            self._signer = Signer(await stored.secret(self.db, secrets.token_urlsafe(32), self.clock.now()))
        return self._signer

    async def mode(self, guild_id: int) -> str:
        async with self.db.reading() as conn:
            return mode_of((await stored.server_and_game(conn, guild_id, None))[1])

    async def game_url(self, guild_id: int, game_id: int) -> str | None:
        """The game's page, for a link in Discord; None where there is no site or the server turned it off."""
        if self.public_url is None or await self.mode(guild_id) == OFF:
            return None
        return self.public_url + game_path(await self.signer(), guild_id, game_id)

    def server_url(self, guild_id: int) -> str | None:
        return None if self.public_url is None else self.public_url + server_path(guild_id)

    async def set_mode(self, guild_id: int | None, mode: str, actor: Actor) -> str:
        """Choose how the server's games are on the site; managers only."""
        if not guild_id:
            raise GameError(tr("the web pages can only be chosen for a server, not in direct messages"))
        if not actor.is_admin:
            raise NotAllowed(
                tr("only server managers (Manage Server) can choose how the server's games are on the web")
            )
        if mode not in MODES:
            raise GameError(tr("unknown choice {mode!r}; choose public, unlisted or off", mode=mode))
        await stored.save_server_mode(self.db, guild_id, mode, actor.user_id, self.clock.now())
        return mode
