-- Affinity of tables to processes (Discord shards). A worker says what it is home for:
-- its platform and, for a sharded Discord process, the shard count and the shard ids it
-- holds gateway connections for. `channel_homes` gives a channel the guild it belongs to
-- (Discord sends a guild's events only to shard (guild_id >> 22) % shard_count); a table
-- is best driven by the worker whose shards hold its channel's guild. Only a cluster uses
-- these: a single process on SQLite drives everything and keeps no homes.

ALTER TABLE workers ADD COLUMN platform TEXT;
ALTER TABLE workers ADD COLUMN shard_count INTEGER CHECK (shard_count > 0);
ALTER TABLE workers ADD COLUMN shard_ids INTEGER[];

CREATE TABLE channel_homes (
    platform  TEXT   NOT NULL,
    channel   TEXT   NOT NULL,
    home      BIGINT NOT NULL,
    PRIMARY KEY (platform, channel)
);
