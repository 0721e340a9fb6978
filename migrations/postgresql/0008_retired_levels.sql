-- Conquest, gra and fortress had one computer level, "standard"; they now have Easy, Medium, Hard and
-- Extreme. A computer seated at the old level plays on at the new level that plays as it did: Easy
-- in conquest and gra (the same greedy player), Medium in fortress. Their ratings are recomputed
-- from the games (the next leaderboard read rates them again, in the order they ended), so that the
-- old level's computer players are rated as the new level's.
UPDATE players SET ai_level = 'Easy'
 WHERE ai_level = 'standard'
   AND game_id IN (SELECT id FROM games WHERE ruleset IN ('conquest', 'gra'));
UPDATE players SET ai_level = 'Medium'
 WHERE ai_level = 'standard'
   AND game_id IN (SELECT id FROM games WHERE ruleset = 'fortress');
DELETE FROM rated_games WHERE game_id IN (SELECT id FROM games WHERE ruleset IN ('conquest', 'gra', 'fortress'));
DELETE FROM rating_history WHERE ruleset IN ('conquest', 'gra', 'fortress');
DELETE FROM ratings WHERE ruleset IN ('conquest', 'gra', 'fortress');
