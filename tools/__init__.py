"""Developer tools run from a checkout, not part of the bot: ``python -m tools.update_catalogs``."""
