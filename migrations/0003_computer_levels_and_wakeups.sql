-- A computer seat plays at the level it was added with (NULL: the ruleset's strongest).
ALTER TABLE players ADD COLUMN ai_level TEXT;

-- Wake-up times, read by the sweep and the scheduler, straight from an index: the rows hold the
-- big states, and reading a column stored after the state walks its overflow pages.
CREATE INDEX games_wakeups ON games (status, paused_at, deadline_at, reminder_at);
