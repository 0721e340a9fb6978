"""The game master: the operations on games, each its own small object over the one shared ``Games``.

A caller holds the operation it uses (a cog that takes orders holds ``master.play``); the game master
only builds them, once, over one store, clock, worker pool and set of rulesets.
"""

from __future__ import annotations

from typing import Any

from service.clock import Clock
from service.ops.absence import Absence
from service.ops.games import Games
from service.ops.history import History
from service.ops.lobby import Lobby
from service.ops.lookup import Lookup
from service.ops.maps import ServerMaps
from service.ops.matchmaking import Matchmaking
from service.ops.play import Play
from service.ops.ratings import Ratings
from service.ops.seasons import Seasons
from service.ops.seats import Seats
from service.ops.timekeeping import Timekeeping
from service.ops.tournaments import Tournaments
from service.ops.usersettings import UserSettings
from service.storage.store import Store


class GameMaster:
    def __init__(self, db: Store, clock: Clock, **shared: Any):
        """``shared``: what ``Games`` takes beside the store and clock (rulesets, pool, claims, fault)."""
        self.games = Games(db, clock, **shared)
        self.lookup = Lookup(self.games)
        self.lobby = Lobby(self.games)
        self.maps = ServerMaps(self.games)
        self.play = Play(self.games)
        self.absence = Absence(self.games)
        self.seats = Seats(self.games)
        self.timekeeping = Timekeeping(self.games)
        self.history = History(self.games)
        self.ratings = Ratings(db, self.games.rulesets)
        self.seasons = Seasons(db, clock)
        self.tournaments = Tournaments(self.games, self.lobby, self.play)
        self.matchmaking = Matchmaking(self.games, self.lobby, self.ratings)
        self.games.on_finish.append(self.tournaments.game_ended)
        self.games.on_finish.append(self.ratings.game_ended)
        self.settings = UserSettings(self.games)
