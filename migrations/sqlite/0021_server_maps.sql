-- Maps a server uploaded with /map upload: the map data as its ruleset reads it in options["map"],
-- the player counts it seats ("2,3,4"), and its name, unique in the server whatever its case.
CREATE TABLE server_maps (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    data TEXT NOT NULL,
    seats TEXT NOT NULL,
    author_id INTEGER NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (guild_id, folded)
);
