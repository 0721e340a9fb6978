"""The game master between Discord and the engine (no Discord imports here).

``service.ops`` holds the operations on games (``GameMaster`` builds them), ``service.storage``
every statement on the database, ``service.runtime`` what runs on its own (the scheduler, the
outbox, the worker pool, leases between processes); announcements and what players read of them
are built in ``service.announcements``, ``service.posts`` and ``service.presenter``.
"""

from service.ops.history import PastTurn
from service.ops.master import GameMaster
from service.ops.play import MyOrders
from service.ops.ratings import Standing

__all__ = ["GameMaster", "MyOrders", "PastTurn", "Standing"]
