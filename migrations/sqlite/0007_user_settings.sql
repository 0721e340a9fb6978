-- Each user's reminder choices (/settings); a user without a row has the defaults: each game's own
-- reminder time, reminders by DM, no quiet hours, UTC.
CREATE TABLE user_settings (
    user_id       INTEGER PRIMARY KEY,
    lead_seconds  INTEGER CHECK (lead_seconds IS NULL OR lead_seconds > 0),  -- NULL: the game's own
    dm_reminders  INTEGER NOT NULL DEFAULT 1,
    quiet_start   INTEGER CHECK (quiet_start BETWEEN 0 AND 23),              -- local hours
    quiet_end     INTEGER CHECK (quiet_end BETWEEN 0 AND 23),
    time_zone     TEXT,                                                      -- an IANA name; NULL: UTC
    updated_at    REAL    NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

-- Each player's own reminder of the current turn: when it is due (NULL: none pending), and the turn
-- he was last reminded in, so that he gets at most one per turn. games.reminder_at is the earliest
-- due time of its players, so the wake-up index and the scheduler still hold one time per game.
ALTER TABLE players ADD COLUMN remind_at REAL;
ALTER TABLE players ADD COLUMN reminded_turn INTEGER;

-- Running games whose one reminder for everybody already went out: their players had it this turn.
UPDATE players SET reminded_turn = (SELECT turn FROM games WHERE games.id = players.game_id)
 WHERE user_id IS NOT NULL
   AND game_id IN (SELECT id FROM games WHERE status = 'running' AND reminder_at IS NULL);
