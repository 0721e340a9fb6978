-- Players waiting for a game (/play): one entry a player and queue (`ruleset`, `speed`, `seats`);
-- `rating`: his rating in that game when he joined (he is matched with players near it); `queued_at`:
-- his place in the queue; `expires_at`: when the entry lapses; `guild_id`/`channel_id`: where he asked;
-- `missed`: ready checks he let lapse in a row (a second one takes him out of the queue).
CREATE TABLE queue_entries (
    user_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    speed TEXT NOT NULL,
    seats INTEGER NOT NULL,
    name TEXT NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    queued_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    missed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, ruleset, speed, seats, guild_id)
);
CREATE INDEX queue_entries_by_queue ON queue_entries (ruleset, speed, seats, guild_id, queued_at);

-- A ready check: players matched from a queue, each to press Ready by `expires_at`, posted in
-- `channel_id` (`message_id`, once posted); `status`: 'waiting', 'ready' (everyone answered: its game
-- opens, `game_id` once made), 'opened' (the game started) or 'lapsed' (someone did not answer);
-- `told`: the last of its states shown on its post. 'declined' (someone said not now) and 'failed'
-- (its game could not open) end it as 'lapsed' does.
CREATE TABLE ready_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ruleset TEXT NOT NULL,
    speed TEXT NOT NULL,
    seats INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    status TEXT NOT NULL,
    game_id INTEGER,
    told TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ready_checks_by_status ON ready_checks (status);

-- Who a ready check matched (their queue entries as they were: place, expiry) and when each answered.
CREATE TABLE ready_check_players (
    check_id INTEGER NOT NULL REFERENCES ready_checks (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    rating REAL NOT NULL,
    queued_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    missed INTEGER NOT NULL DEFAULT 0,
    ready_at REAL,
    PRIMARY KEY (check_id, user_id)
);
CREATE INDEX ready_check_players_by_user ON ready_check_players (user_id);
