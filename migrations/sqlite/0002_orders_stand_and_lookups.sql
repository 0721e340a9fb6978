-- A game option: at a deadline, orders given but not passed are played instead of thrown away.
ALTER TABLE games ADD COLUMN orders_stand INTEGER NOT NULL DEFAULT 0;

-- Lookups that commands make: the game played in a thread, the open games of a channel.
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_channel ON games (channel_id, status);
