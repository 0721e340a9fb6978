-- Queues shared among servers (/config matchmaking): a server whose `shared` is 1 has its players wait
-- in the shared queues (a queue's `guild_id` 0) with every other server that shares, instead of its own.
CREATE TABLE matchmaking_servers (
    guild_id INTEGER PRIMARY KEY,
    shared INTEGER NOT NULL,
    set_by INTEGER NOT NULL,
    set_at REAL NOT NULL
);

-- A queue entry's `guild_id` is its queue's (a server's own, or 0: shared); `home_guild_id` is the
-- server he queued from (his ready check is posted there, his game mirrored there).
ALTER TABLE queue_entries ADD COLUMN home_guild_id INTEGER NOT NULL DEFAULT 0;
UPDATE queue_entries SET home_guild_id = guild_id;
ALTER TABLE ready_check_players ADD COLUMN guild_id INTEGER NOT NULL DEFAULT 0;
UPDATE ready_check_players SET guild_id = (SELECT guild_id FROM ready_checks WHERE id = check_id);

-- A ready check's posts: one in each channel its players queued from (`message_id`, once posted).
-- A check's `channel_id` is where its game opens (the channel of the player waiting longest).
CREATE TABLE ready_check_posts (
    check_id INTEGER NOT NULL REFERENCES ready_checks (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    message_id INTEGER,
    PRIMARY KEY (check_id, channel_id)
);
INSERT INTO ready_check_posts (check_id, channel_id, guild_id, message_id)
    SELECT id, channel_id, guild_id, message_id FROM ready_checks;
ALTER TABLE ready_checks DROP COLUMN message_id;

-- A game mirrored in another server (a shared queue matched players of several servers): its card
-- (`lobby_message_id`) and thread there, once posted; every public post goes to each mirror's thread too.
CREATE TABLE game_mirrors (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    lobby_message_id INTEGER,
    thread_id INTEGER,
    PRIMARY KEY (game_id, guild_id)
);
-- Who plays a mirrored game from a server it is mirrored in (his thread, his links are there).
CREATE TABLE game_mirror_players (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_mirrors_by_thread ON game_mirrors (thread_id);
CREATE INDEX game_mirrors_by_guild ON game_mirrors (guild_id);
CREATE INDEX game_mirrors_by_channel ON game_mirrors (channel_id);
