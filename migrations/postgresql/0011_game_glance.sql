-- What a list of games shows of a running one without parsing its state: the seats who act this
-- turn, and the turn as the ruleset names and counts it ("move phase 7 of 12"). Written with the
-- state by every turn's commit; NULL in rows from before, which are read the long way.
ALTER TABLE games ADD COLUMN glance TEXT;
