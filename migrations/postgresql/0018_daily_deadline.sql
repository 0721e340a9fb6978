-- Turns that end at a time of day (deadline_at): "20:00 Europe/Kyiv", "auto" until the game starts and
-- then "auto 20:00 UTC 4/4" (the hour chosen, and how many players were awake at it); NULL: a turn
-- ends its turn_time after it began (service/daily.py).
ALTER TABLE games ADD COLUMN daily_deadline TEXT;
