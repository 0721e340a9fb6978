-- A player away (/away): until when (NULL: not away), the computer level that stands in for him
-- (NULL: the ruleset's default), and how much of the game's away allowance (games.away_days, 0: none)
-- he has used, in seconds. Orders a stand-in gave carry its level (orders.stand_in), for history.
ALTER TABLE players ADD COLUMN away_until REAL;
ALTER TABLE players ADD COLUMN away_level TEXT;
ALTER TABLE players ADD COLUMN away_used REAL NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN stand_in TEXT;
ALTER TABLE games ADD COLUMN away_days INTEGER NOT NULL DEFAULT 14;
