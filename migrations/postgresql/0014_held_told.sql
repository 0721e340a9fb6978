-- Whom the bot has told of its game's current hold (held_for): "u<user id>" for a DM, "c<channel id>"
-- for the game's channel, comma-separated; NULL when nobody yet. A notice that failed (Discord down,
-- a 5xx) is tried again with the held post, and nobody is told twice; a release forgets the list.
ALTER TABLE games ADD COLUMN held_told TEXT;
