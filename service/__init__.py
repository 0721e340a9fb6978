"""The game master between Discord and the engine (no Discord imports here).

``GameMaster`` keeps games, seats, secret orders, deadlines and the history in SQLite, resolves
every turn exactly once, and leaves announcements in an outbox for the Discord layer.
"""

from service.history import HistoryOps, PastTurn
from service.lobby import LobbyOps
from service.play import MyOrders, PlayOps
from service.ratings import RatingOps, Standing
from service.timekeeping import TimeOps
from service.usersettings import SettingsOps


class GameMaster(LobbyOps, PlayOps, TimeOps, HistoryOps, RatingOps, SettingsOps):
    """Every operation on games; see the mixins for each group."""


__all__ = ["GameMaster", "MyOrders", "PastTurn", "Standing"]
