"""Where the games are kept: everything that knows a database is behind it.

The game operations in ``service`` see a database only as ``service.storage.store`` describes it;
which database it is (a SQLite file or a PostgreSQL server), how its schema is migrated, how its
rows are packed and how one is copied into another are the business of this package alone, so a
store can change without the game master changing with it.
"""
