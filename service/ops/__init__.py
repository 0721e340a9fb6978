"""The operations on games: each a small class given what it needs, built by ``service.ops.master``."""
