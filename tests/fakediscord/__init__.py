"""A local fake Discord (REST + Gateway on 127.0.0.1) that the real, unmodified discord.py talks to.

See :mod:`.harness` for the entry point, :class:`FakeDiscord`.
"""

from . import limits
from .harness import FakeDiscord
from .models import FakeAttachment, FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser, Violation
from .users import InteractionHandle, SimulationError

__all__ = [
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionHandle",
    "SimulationError",
    "Violation",
    "limits",
]
