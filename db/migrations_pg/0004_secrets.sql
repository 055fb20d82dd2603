-- Secrets the bot makes for itself on first run, by name. "buttons" keys the tags that
-- make table references in button payloads and deep links unguessable: whoever reads
-- this table can forge them, so it is as private as the bot's token.

CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
