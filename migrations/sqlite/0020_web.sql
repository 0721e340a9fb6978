-- The web site (bot.py web): each server's choice with /config web ('public': its page lists its
-- games; 'unlisted', for a server without a row: each game reachable only by its signed link; 'off':
-- no pages), and the secret those links are signed with, made once by whichever process needs it
-- first, so that every bot and web process signs alike without being told a key.
CREATE TABLE server_web (
    guild_id INTEGER PRIMARY KEY,
    mode TEXT NOT NULL,
    set_by INTEGER NOT NULL,
    set_at REAL NOT NULL
);
CREATE TABLE site_secret (
    id INTEGER PRIMARY KEY,
    secret TEXT NOT NULL,
    made_at REAL NOT NULL
);
