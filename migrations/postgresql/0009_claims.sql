-- Several bot processes may share one PostgreSQL database. Before a process wakes a game (its deadline
-- or reminder) or delivers its posts, it takes a lease here: one row per (kind, game), owned by one
-- process until `expires_at`. A process that dies holding a lease loses it when it expires, and another
-- process's sweep takes the work over. One process alone (SQLite) never writes here.
CREATE TABLE claims (
    kind        TEXT    NOT NULL,   -- 'wake' or 'outbox'
    game_id     BIGINT NOT NULL,
    owner       TEXT    NOT NULL,   -- the holding process: host, pid and a random part
    session     BIGINT,            -- the holder's session on the database server, while it lives
    expires_at  DOUBLE PRECISION NOT NULL,   -- Unix seconds
    PRIMARY KEY (kind, game_id)
);
