-- A computer seat plays at the level it was added with (NULL: the ruleset's strongest).
ALTER TABLE players ADD COLUMN ai_level TEXT;
