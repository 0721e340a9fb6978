"""Errors a player or admin causes in the game master; the bot shows their message as it is."""


class GameError(Exception):
    """Base: the request was refused and nothing changed."""


class GameNotFound(GameError):
    pass


class NotAllowed(GameError):
    """The user may not do this (not a player, not the creator or an admin, not his turn)."""


class WrongPhase(GameError):
    """The game is not in a state where this can happen (not started, already over, paused)."""


class Conflict(GameError):
    """Somebody else changed the game at the same moment; try again."""
