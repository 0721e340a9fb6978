-- Delivered posts are kept a day (for an operator looking into a complaint), then deleted: a round
-- post holds the turn's events again, so keeping them all would double what every turn stores.
-- The sweep finds the old ones through this index, without reading the rows' payloads.
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;
