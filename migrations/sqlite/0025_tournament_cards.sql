-- A tournament's sign-up: `starts_at` (NULL: when its creator starts it) and the card players join by
-- (`card_message_id`, in its channel); `told`: the last of its posts made (round k opened: k; over:
-- its rounds + 1; cancelled before its start: 1).
ALTER TABLE tournaments ADD COLUMN starts_at REAL;
ALTER TABLE tournaments ADD COLUMN card_message_id INTEGER;
ALTER TABLE tournaments ADD COLUMN told INTEGER NOT NULL DEFAULT 0;

-- A tournament's game says so (its card, its page, /stats): the tournament and the round.
ALTER TABLE games ADD COLUMN tournament_id INTEGER;
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
UPDATE games SET
    tournament_id = (SELECT tournament_id FROM tournament_games WHERE game_id = games.id),
    tournament_round = (SELECT round FROM tournament_games WHERE game_id = games.id)
WHERE id IN (SELECT game_id FROM tournament_games);

-- Tournaments already over or running have told what they had to tell.
UPDATE tournaments SET told = CASE status WHEN 'finished' THEN rounds + 1 WHEN 'running' THEN round ELSE 0 END;
