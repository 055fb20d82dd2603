-- Tapis storage, first schema. Applied by db/sqlite.py inside one transaction together
-- with `PRAGMA user_version = 1`. JSON columns hold compact json.dumps text.

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,           -- JSON object
    settings    TEXT    NOT NULL,           -- JSON object, owned by bot/
    seed        INTEGER NOT NULL,
    status      TEXT    NOT NULL
        CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'closed')),
    host        TEXT    NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    snapshot    TEXT,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- One open table per channel: a second /newgame in the same channel must find the first.
-- Also serves unfinished_tables() and open_table_in(), which only look at open tables.
CREATE UNIQUE INDEX tables_one_open_per_channel
    ON tables (platform, channel) WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    user_id         TEXT,
    name            TEXT    NOT NULL,
    is_bot          INTEGER NOT NULL DEFAULT 0,
    afk_strikes     INTEGER NOT NULL DEFAULT 0,
    former_user_id  TEXT,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- The move log is the truth, the snapshot a cache: rows are only ever appended, and
-- deleted as a whole when a new game starts at the same table (reset_moves).
CREATE TABLE moves (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    seat        INTEGER NOT NULL,
    move        TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER moves_are_append_only BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

CREATE TABLE messages (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    chat        TEXT    NOT NULL,
    message_id  TEXT    NOT NULL,
    extra       TEXT    NOT NULL DEFAULT '{}',  -- JSON object
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;

-- One deadline per table (the seat whose turn it is).
CREATE TABLE deadlines (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    due_at      REAL    NOT NULL,
    remind_at   REAL,
    reminded    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE user_settings (
    platform    TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    lang        TEXT,
    mentions    INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (platform, user_id)
) WITHOUT ROWID;

CREATE TABLE channel_settings (
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    lang        TEXT,
    PRIMARY KEY (platform, channel)
) WITHOUT ROWID;

CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     TEXT,
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id, table_id) WHERE user_id IS NOT NULL;
