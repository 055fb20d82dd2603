-- Ratings (docs/ratings.md), as db/migrations/0006_ratings.sql. The rating log is the truth: one entry per rated game,
-- written in the transaction that stores the game's end, never deleted by retention
-- (it holds no names, and no reference to the table that retention may delete). The
-- other tables derive from it and `python -m bot ratings rebuild` recomputes them.

-- The community (a Telegram chat, a Discord server, the console) a table plays for,
-- stored when it opens: `<platform>:<id>`. NULL for tables opened before: not rated.
ALTER TABLE tables ADD COLUMN community TEXT;

CREATE TABLE rating_log (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id     BIGINT  NOT NULL,                   -- no foreign key: the table may go
    community    TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    season       TEXT    NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    players      INTEGER NOT NULL,                   -- seats at the table
    rules        TEXT,                               -- The Game's variant; else NULL
    score        INTEGER                             -- The Game's cards left; else NULL
);
CREATE INDEX rating_log_by_community ON rating_log (community, seq);
CREATE INDEX rating_log_seasons ON rating_log (community, season);
CREATE INDEX rating_log_by_table ON rating_log (table_id);

-- Each entry's participants with their placing: `u:<user id>`, `bot:<level>`, or a
-- forgotten person's stand-in `gone:<random>`.
CREATE TABLE rating_entrants (
    seq          BIGINT  NOT NULL REFERENCES rating_log (seq),
    pos          INTEGER NOT NULL,
    participant  TEXT    NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (seq, pos)
);
CREATE INDEX rating_entrants_by_participant ON rating_entrants (participant);

-- How far each community's derived ratings have taken in its log (all of it when the two
-- numbers are equal, the usual case: a game's end then applies its own entry without
-- reading it back); its row is also the
-- lock that puts two games ending at once in one community into sequence order.
CREATE TABLE rating_state (
    community    TEXT    PRIMARY KEY,
    applied_seq  BIGINT  NOT NULL,  -- the last entry applied
    logged_seq   BIGINT  NOT NULL   -- the last entry logged
);

-- Derived: each person's current rating per community, game and season.
CREATE TABLE ratings (
    community  TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    season     TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    shown      INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (community, game, season, player)
);
-- A leaderboard's order (ties by player in byte order, descending, as SQLite), read
-- backwards: the top 10 stop after 10 entries; and covering, so counting the players
-- above someone reads it alone.
CREATE INDEX ratings_board ON ratings (community, game, season, shown, player COLLATE "C",
                                       games);
CREATE INDEX ratings_by_player ON ratings (player);

-- Derived: each rated game's new shown number and change per person.
CREATE TABLE rating_changes (
    seq        BIGINT  NOT NULL,
    player     TEXT    NOT NULL,
    community  TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    season     TEXT    NOT NULL,
    shown      INTEGER NOT NULL,
    delta      INTEGER NOT NULL,
    PRIMARY KEY (seq, player)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player, community, game, season, seq);

-- Derived: a cooperative game's team records per community, player count and rules.
CREATE TABLE team_records (
    community    TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    players      INTEGER NOT NULL,
    rules        TEXT    NOT NULL,
    games        INTEGER NOT NULL,
    best_score   INTEGER NOT NULL,
    best_seq     BIGINT  NOT NULL,  -- the record-setting game: its entrants are named
    perfect      INTEGER NOT NULL,
    under_ten    INTEGER NOT NULL,
    streak       INTEGER NOT NULL,
    best_streak  INTEGER NOT NULL,
    PRIMARY KEY (community, game, players, rules)
);

-- The name a person last played under in a community, for leaderboards: not in the log
-- (which holds no names), not derived, dropped by /forgetme.
CREATE TABLE rating_names (
    community  TEXT NOT NULL,
    player     TEXT NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (community, player)
);
CREATE INDEX rating_names_by_player ON rating_names (player);
CREATE INDEX rating_names_by_name ON rating_names (community, name);
