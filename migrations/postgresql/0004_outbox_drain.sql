-- Draining a backlog reads the undelivered rows in id order from their own small index, so each
-- pass costs the rows it delivers, not the whole table. `tried_at` is the first delivery attempt:
-- a retry long after it can no longer count on Discord's nonce and looks for its earlier post.
ALTER TABLE outbox ADD COLUMN tried_at DOUBLE PRECISION;
DROP INDEX outbox_pending;
CREATE INDEX outbox_undelivered ON outbox (id) WHERE delivered_at IS NULL;
