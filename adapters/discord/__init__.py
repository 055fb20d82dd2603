"""The Discord adapter: slash commands, buttons and DMs in front of `bot.tables.Tables`."""
