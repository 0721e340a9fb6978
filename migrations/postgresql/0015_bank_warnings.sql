-- How far a player on a time bank has been told it ran down: 0 not at all, 1 under a quarter, 2 under
-- a tenth (service/turns.py BANK_WARNINGS). Back to 0 when his bank is above a quarter again.
ALTER TABLE players ADD COLUMN bank_warned BIGINT NOT NULL DEFAULT 0;
