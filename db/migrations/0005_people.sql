-- Finding one person's tables without reading everybody's: /mydata and /forgetme cost in
-- proportion to that person's own tables, however many other games the database holds.
-- A person's id is in seats (theirs, or one a bot took over from them), results (already
-- indexed by results_by_user), as a table's host, in hand messages' `extra`, and in the
-- user lists of a table's settings (db.repository.USER_LISTS).

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_former_user ON seats (former_user_id) WHERE former_user_id IS NOT NULL;
CREATE INDEX tables_by_host ON tables (host, platform);
CREATE INDEX messages_by_user ON messages (json_extract(extra, '$.user'))
    WHERE key LIKE 'hand:%';

-- The user ids in a table's settings lists (takeovers: [id, name] pairs; kicked and
-- unreachable: ids), kept by the triggers below whenever the settings are written: a
-- table is found through any of them. Rows only say "look at this table": the settings
-- themselves are the truth. (Settings are json.dumps text of validated values; a text
-- that is not JSON would only go unindexed, never fail the write.)
CREATE TABLE settings_people (
    user_id   TEXT    NOT NULL,
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, table_id)
) WITHOUT ROWID;

CREATE INDEX settings_people_by_table ON settings_people (table_id);

CREATE TRIGGER settings_people_on_insert AFTER INSERT ON tables
BEGIN
    INSERT OR IGNORE INTO settings_people (user_id, table_id)
    SELECT CASE WHEN item.type = 'array' THEN json_extract(item.value, '$[0]')
                ELSE item.value END, new.id
    FROM json_each(CASE WHEN json_valid(new.settings) THEN new.settings ELSE '{}' END) AS list,
         json_each(list.value) AS item
    WHERE list.key IN ('takeovers', 'kicked', 'unreachable') AND list.type = 'array'
      AND (item.type = 'text' OR item.type = 'array');
END;

CREATE TRIGGER settings_people_on_update AFTER UPDATE OF settings ON tables
WHEN old.settings IS NOT new.settings
BEGIN
    DELETE FROM settings_people WHERE table_id = new.id;
    INSERT OR IGNORE INTO settings_people (user_id, table_id)
    SELECT CASE WHEN item.type = 'array' THEN json_extract(item.value, '$[0]')
                ELSE item.value END, new.id
    FROM json_each(CASE WHEN json_valid(new.settings) THEN new.settings ELSE '{}' END) AS list,
         json_each(list.value) AS item
    WHERE list.key IN ('takeovers', 'kicked', 'unreachable') AND list.type = 'array'
      AND (item.type = 'text' OR item.type = 'array');
END;

-- The tables stored before this migration.
INSERT OR IGNORE INTO settings_people (user_id, table_id)
SELECT CASE WHEN item.type = 'array' THEN json_extract(item.value, '$[0]')
            ELSE item.value END, tables.id
FROM tables, json_each(CASE WHEN json_valid(tables.settings) THEN tables.settings
                               ELSE '{}' END) AS list,
     json_each(list.value) AS item
WHERE list.key IN ('takeovers', 'kicked', 'unreachable') AND list.type = 'array'
  AND (item.type = 'text' OR item.type = 'array');
