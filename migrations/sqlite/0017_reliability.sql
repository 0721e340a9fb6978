-- Each member's turns across all his games: how many a game asked of him (a turn he had to play,
-- not one a stand-in played while he was away) and how many of those he answered before the
-- deadline. Counted from this migration on. A game may refuse joins below a rate (min_reliability,
-- a percentage; 0 refuses nobody).
CREATE TABLE reliability (
    user_id  INTEGER PRIMARY KEY,
    asked    INTEGER NOT NULL DEFAULT 0,
    on_time  INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE games ADD COLUMN min_reliability INTEGER NOT NULL DEFAULT 0;
