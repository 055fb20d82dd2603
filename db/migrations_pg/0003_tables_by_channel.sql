-- A table closed because the bot lost its channel comes back when the bot can write
-- there again, if it is still the channel's newest table: found by channel, newest first.

CREATE INDEX tables_by_channel ON tables (platform, channel, id);
