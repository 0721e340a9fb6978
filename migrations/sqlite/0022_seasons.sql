-- A server's seasons (/config season): each lasts `days`; season `first` began at `started_at`, the
-- next ones follow on (a new length starts a new series, numbered on); `channel_id`: where each
-- season's final table is posted; `told`: the last season whose final table was posted.
CREATE TABLE seasons (
    guild_id INTEGER PRIMARY KEY,
    days INTEGER NOT NULL,
    first INTEGER NOT NULL,
    started_at REAL NOT NULL,
    channel_id INTEGER NOT NULL,
    told INTEGER NOT NULL
);

-- Ratings within one season of a server: each season starts everyone afresh (as `ratings`, by season).
CREATE TABLE season_ratings (
    guild_id INTEGER NOT NULL,
    season INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    points INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, ruleset, player)
);
