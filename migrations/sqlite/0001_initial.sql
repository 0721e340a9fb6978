-- Games, their players, programmed orders, the full history of every transition, and the outbox.
-- Times are Unix seconds (REAL). JSON columns hold engine data (state, options, events).

CREATE TABLE games (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    thread_id         INTEGER,
    lobby_message_id  INTEGER,
    creator_id        INTEGER NOT NULL,
    ruleset           TEXT    NOT NULL,
    options           TEXT    NOT NULL DEFAULT '{}',
    status            TEXT    NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    min_players       INTEGER NOT NULL,
    max_players       INTEGER NOT NULL,
    seed              INTEGER NOT NULL,
    state             TEXT,
    turn              INTEGER NOT NULL DEFAULT 0,      -- resolved turns so far; orders belong to a turn
    seq               INTEGER NOT NULL DEFAULT 0,      -- history rows so far (setup, resolves, removals)
    version           INTEGER NOT NULL DEFAULT 0,      -- bumped by every write, for optimistic locking
    time_mode         TEXT    NOT NULL DEFAULT 'round'
                      CHECK (time_mode IN ('round', 'bank', 'increment', 'none')),
    round_seconds     INTEGER NOT NULL DEFAULT 86400,
    bank_seconds      INTEGER NOT NULL DEFAULT 259200,
    increment_seconds INTEGER NOT NULL DEFAULT 3600,
    reminder_seconds  INTEGER NOT NULL DEFAULT 3600,
    missed_limit      INTEGER NOT NULL DEFAULT 3,
    turn_started_at   REAL,
    deadline_at       REAL,
    reminder_at       REAL,
    paused_at         REAL,
    result            TEXT,                            -- JSON outcome once finished
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_deadline ON games (status, deadline_at);

CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       INTEGER,                              -- NULL for a computer player
    name          TEXT    NOT NULL,
    seat          INTEGER,                              -- assigned at start
    missed        INTEGER NOT NULL DEFAULT 0,           -- missed turns in a row
    bank_left     REAL,                                 -- clock modes: seconds left at turn start
    draw_agreed   INTEGER NOT NULL DEFAULT 0,
    joined_at     REAL    NOT NULL,
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, seat)
);
CREATE INDEX players_by_user ON players (user_id);

-- Programmed orders of the current turn, one row per seat; `passed` makes them final.
CREATE TABLE orders (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    text       TEXT    NOT NULL DEFAULT '',
    passed     INTEGER NOT NULL DEFAULT 0,
    passed_at  REAL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, seat)
);

-- Every transition of a running game, enough to replay it from the first state. Its JSON is kept
-- deflated (service/storage/packing.py): bytes, so BLOB (SQLite keeps any value whatever the column's type;
-- PostgreSQL needs the bytes type).
CREATE TABLE history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,                      -- 0 is the setup, then one per transition
    turn         INTEGER NOT NULL,                      -- the turn the transition happened in
    kind         TEXT    NOT NULL CHECK (kind IN ('setup', 'resolve', 'remove')),
    payload      BLOB    NOT NULL,                      -- JSON: setup, orders by seat, or the removal
    events       BLOB    NOT NULL,                      -- JSON list of engine events
    state_after  BLOB    NOT NULL,                      -- (all three deflated: service/storage/packing.py)
    at           REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Announcements for the Discord layer, delivered after commit and retried until acknowledged.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    payload       TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_attempt  REAL    NOT NULL,
    last_error    TEXT,
    delivered_at  REAL
);
CREATE INDEX outbox_pending ON outbox (delivered_at, next_attempt);
