-- Users whose direct messages refused a reminder (Discord's 50007) and who were told so in the game's
-- thread: they are told once, not at every reminder; a reminder that reaches them again clears it.
CREATE TABLE dm_refusals (
    user_id  INTEGER PRIMARY KEY,
    told_at  REAL    NOT NULL
);
