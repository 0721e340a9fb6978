-- Every series of a server's seasons (a row each time /config season starts one: a new length, or
-- seasons turned off with days 0), so that a game is placed in the season running when it ended
-- whatever came after (ratings rebuilt from the games place them again the same way).
CREATE TABLE season_series (
    guild_id INTEGER NOT NULL,
    started_at REAL NOT NULL,
    first INTEGER NOT NULL,
    days INTEGER NOT NULL,
    PRIMARY KEY (guild_id, started_at)
);
INSERT INTO season_series (guild_id, started_at, first, days) SELECT guild_id, started_at, first, days FROM seasons;
