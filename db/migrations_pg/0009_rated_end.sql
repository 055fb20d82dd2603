-- A rated game's end in the statement that stores its last move (docs/ratings.md,
-- "Cost"): the ratings were computed beforehand, from rows read outside any transaction
-- or remembered from earlier ends (`db.pg_ratings`), and this function writes them only
-- if what they came from is still there. It takes the community's row lock (as
-- `LOCK_COMMUNITY`), then checks, on rows read after the lock, that no entry of the
-- community waits, that the log's newest entry (which decides the season) is still
-- `newest`, that the table still plays for `end_community`, and that each person's rating
-- is still the (`old_mus`, `old_sigmas`) it was computed from (NULL: none yet). If not, it
-- fails with serialization_failure: the whole statement, the move with it, is undone, and
-- the caller tries again from a fresh read, or the long way (`store_ratings.rate_game`).
-- SQLite has no counterpart: its game ends run in one process, on one connection.
CREATE FUNCTION rate_end(
    end_table BIGINT, end_community TEXT, newest BIGINT,
    end_game TEXT, end_season TEXT, end_at DOUBLE PRECISION, end_players INTEGER,
    entrants TEXT[], places INTEGER[],           -- the placings, in their order
    named TEXT[], names TEXT[],                  -- each person's name at the table
    people TEXT[], old_mus DOUBLE PRECISION[], old_sigmas DOUBLE PRECISION[],
    rated TEXT[], mus DOUBLE PRECISION[], sigmas DOUBLE PRECISION[], shown_now INTEGER[],
    deltas INTEGER[]                             -- each rated person's new rating
) RETURNS BIGINT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    applied BIGINT;
    logged BIGINT;
    entry BIGINT;
BEGIN
    INSERT INTO rating_state AS s (community, applied_seq, logged_seq)
    VALUES (end_community, 0, 0)
    ON CONFLICT (community) DO UPDATE SET applied_seq = s.applied_seq
    RETURNING s.applied_seq, s.logged_seq INTO applied, logged;
    -- A statement of its own: its snapshot is taken after the lock was granted.
    IF applied <> logged
            OR (SELECT max(seq) FROM rating_log) IS DISTINCT FROM newest
            OR (SELECT community FROM tables WHERE id = end_table)
               IS DISTINCT FROM end_community
            OR EXISTS (SELECT FROM unnest(people, old_mus, old_sigmas) AS p (who, mu, sigma)
                       LEFT JOIN ratings AS r ON r.community = end_community
                           AND r.game = end_game AND r.season = end_season
                           AND r.player = p.who
                       WHERE r.mu IS DISTINCT FROM p.mu
                          OR r.sigma IS DISTINCT FROM p.sigma) THEN
        RAISE EXCEPTION 'ratings of % moved since they were read', end_community
            USING ERRCODE = 'serialization_failure';
    END IF;
    INSERT INTO rating_log (table_id, community, game, season, finished_at, players)
    VALUES (end_table, end_community, end_game, end_season, end_at, end_players)
    RETURNING seq INTO entry;
    INSERT INTO rating_entrants (seq, pos, participant, place)
    SELECT entry, e.pos - 1, e.who, e.place
    FROM unnest(entrants, places) WITH ORDINALITY AS e (who, place, pos);
    INSERT INTO rating_names (community, player, name)
    SELECT end_community, n.who, n.name FROM unnest(named, names) AS n (who, name)
    ON CONFLICT (community, player) DO UPDATE SET name = excluded.name
    WHERE rating_names.name <> excluded.name;  -- the same name: no new row version
    INSERT INTO ratings AS r (community, game, season, player, mu, sigma, shown, games)
    SELECT end_community, end_game, end_season, x.who, x.mu, x.sigma, x.shown, 1
    FROM unnest(rated, mus, sigmas, shown_now) AS x (who, mu, sigma, shown)
    ON CONFLICT (community, game, season, player) DO UPDATE SET mu = excluded.mu,
        sigma = excluded.sigma, shown = excluded.shown, games = r.games + 1;
    INSERT INTO rating_changes (seq, player, community, game, season, shown, delta)
    SELECT entry, x.who, end_community, end_game, end_season, x.shown, x.delta
    FROM unnest(rated, shown_now, deltas) AS x (who, shown, delta);
    UPDATE rating_state SET applied_seq = entry, logged_seq = entry
    WHERE community = end_community;
    RETURN entry;
END
$$;
