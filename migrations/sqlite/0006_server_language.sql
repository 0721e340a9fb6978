-- The language a server's public posts are made in (round posts, announcements, board images),
-- chosen by a server manager with /config language; a server without a row speaks English.
CREATE TABLE server_language (
    guild_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    set_by INTEGER NOT NULL,
    set_at REAL NOT NULL
);
