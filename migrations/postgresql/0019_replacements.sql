-- Seats taken over (games.replacements: 'off', 'computer', 'open', 'open-auto'): a player who leaves
-- keeps his row with the seat he left (left_seat; seat is then NULL), and whoever plays on in it, a
-- computer or a member, has a row of its own marked took_over (rated for nobody). A member's request
-- to take a seat waits in seat_requests for the creator's answer (replacements 'open').
ALTER TABLE players ADD COLUMN left_seat BIGINT;
ALTER TABLE players ADD COLUMN took_over BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN replacements TEXT NOT NULL DEFAULT 'off';
CREATE TABLE seat_requests (
    game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    name      TEXT    NOT NULL,
    asked_at  DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, seat, user_id)
);
