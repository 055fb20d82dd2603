-- Web sign-ins that may be used once (Telegram's launch data, a Discord link's token), by
-- a hash or nonce of theirs: every process of the bot refuses one another process took
-- already. Kept until it would have expired anyway; nothing here names a person.

CREATE TABLE spent_logins (
    key   TEXT PRIMARY KEY,
    until DOUBLE PRECISION NOT NULL
);
