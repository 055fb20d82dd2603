-- Finding one person's tables without reading everybody's: /mydata and /forgetme cost in
-- proportion to that person's own tables, however many other games the database holds.
-- A person's id is in seats (theirs, or one a bot took over from them), results (already
-- indexed by results_by_user), as a table's host, in hand messages' `extra`, and in the
-- user lists of a table's settings (db.repository.USER_LISTS).

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_former_user ON seats (former_user_id) WHERE former_user_id IS NOT NULL;
CREATE INDEX tables_by_host ON tables (host, platform);
CREATE INDEX messages_by_user ON messages ((extra::json ->> 'user')) WHERE key LIKE 'hand:%';

-- The user ids in a table's settings lists (takeovers: [id, name] pairs; kicked and
-- unreachable: ids), kept by the trigger below whenever the settings are written: a
-- table is found through any of them. Rows only say "look at this table": the settings
-- themselves are the truth.
CREATE TABLE settings_people (
    user_id   TEXT    NOT NULL,
    table_id  BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, table_id)
);

CREATE INDEX settings_people_by_table ON settings_people (table_id);

CREATE FUNCTION settings_people_of(settings TEXT) RETURNS SETOF TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT CASE WHEN json_typeof(item) = 'array' THEN item ->> 0
                         ELSE item #>> '{}' END
    FROM json_each(settings::json) AS list,
         json_array_elements(CASE WHEN json_typeof(list.value) = 'array' THEN list.value
                                  ELSE '[]'::json END) AS item
    WHERE list.key IN ('takeovers', 'kicked', 'unreachable')
      AND json_typeof(item) IN ('string', 'array')
$$;

CREATE FUNCTION settings_people_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.settings IS NOT DISTINCT FROM OLD.settings THEN
            RETURN NULL;
        END IF;
        DELETE FROM settings_people WHERE table_id = NEW.id;
    END IF;
    INSERT INTO settings_people (user_id, table_id)
    SELECT person, NEW.id FROM settings_people_of(NEW.settings) AS person
    WHERE person IS NOT NULL;
    RETURN NULL;
END;
$$;

CREATE TRIGGER settings_people_on_write AFTER INSERT OR UPDATE OF settings ON tables
    FOR EACH ROW EXECUTE FUNCTION settings_people_refresh();

-- The tables stored before this migration.
INSERT INTO settings_people (user_id, table_id)
SELECT person, id FROM tables, settings_people_of(tables.settings) AS person
WHERE person IS NOT NULL;
