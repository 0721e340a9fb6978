-- A computer seat plays at the level it was added with (NULL: the ruleset's strongest).
ALTER TABLE players ADD COLUMN ai_level TEXT;

-- Wake-up times, read by the sweep and the scheduler, straight from an index: the rows hold the
-- big states, and reading a column stored after the state walks its overflow pages.
CREATE INDEX games_wakeups ON games (status, paused_at, deadline_at, reminder_at);

-- Ratings: a game counts unless it was opened unrated. Ratings are derived from finished games
-- (applied in the order they ended, recorded in rated_games) and can be rebuilt from them.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;

CREATE TABLE ratings (
    scope    INTEGER NOT NULL,                 -- the server's guild id, or 0 for every server
    ruleset  TEXT    NOT NULL,
    player   TEXT    NOT NULL,                 -- "user:<id>", or "computer:<level>"
    name     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    points   INTEGER NOT NULL,
    PRIMARY KEY (scope, ruleset, player)
);

-- Each player's rating after each rated game (for the /stats chart).
CREATE TABLE rating_history (
    scope    INTEGER NOT NULL,
    ruleset  TEXT    NOT NULL,
    player   TEXT    NOT NULL,
    game_id  INTEGER NOT NULL,
    ordinal  REAL    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (scope, ruleset, player, game_id)
);

CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY,
    ended_at REAL    NOT NULL
);

-- A lobby opened with the Rematch button of a finished game (pressed twice, it opens one lobby).
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
