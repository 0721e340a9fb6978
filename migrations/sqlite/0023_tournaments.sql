-- Tournaments (service.ops.tournaments): a format ('swiss', 'round-robin' or 'pools') of `rounds`
-- rounds of games of one ruleset with `options` (JSON) and `round_seconds` a turn; `status`: 'signup',
-- 'running', 'finished' or 'cancelled'; `round`: the round being played (0 before the start).
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    options TEXT NOT NULL,
    round_seconds INTEGER NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL,
    created_at REAL NOT NULL
);

-- Its players in the order they entered; `withdrawn_at`: since when he is paired no more.
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined_at REAL NOT NULL,
    withdrawn_at REAL,
    PRIMARY KEY (tournament_id, user_id)
);

-- Each round's tables: the members by seat (JSON; one alone: a bye), the game played (NULL for a bye),
-- and each member's points once it is over (JSON {"user id": points}).
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    seats TEXT NOT NULL,
    game_id INTEGER,
    points TEXT,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_games_by_game ON tournament_games (game_id);
