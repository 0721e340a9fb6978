-- A game whose posts Discord refuses for a permission the bot lacks in its thread: which permissions
-- (held_for), and when the bot stopped its clock for it (held_at; NULL when a manager had stopped it
-- already). Nobody misses a turn he was never shown; the clock runs again once a post gets through.
ALTER TABLE games ADD COLUMN held_for TEXT;
ALTER TABLE games ADD COLUMN held_at DOUBLE PRECISION;
