-- Maps a server uploaded with /map upload: the map data as its ruleset reads it in options["map"],
-- the player counts it seats ("2,3,4"), and its name, unique in the server whatever its case;
-- published_at: since when every server may find and copy it (/map publish), NULL while it is not;
-- verdict: its fairness as computers' self-play measured it (JSON: service.fairness.Verdict), NULL until then.
CREATE TABLE server_maps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a verdict measured is written to its own map
    guild_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    folded TEXT NOT NULL,
    data TEXT NOT NULL,
    seats TEXT NOT NULL,
    author_id INTEGER NOT NULL,
    created_at REAL NOT NULL,
    published_at REAL,
    verdict TEXT,
    UNIQUE (guild_id, folded)
);
