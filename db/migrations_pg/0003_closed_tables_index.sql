-- Tables closed because the bot lost their channel come back when it can write there
-- again (a topic reopened, the bot added back): found by channel among closed tables.

CREATE INDEX tables_closed_by_channel ON tables (platform, channel) WHERE status = 'closed';
