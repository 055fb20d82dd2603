"""A local table in the terminal: the bot's own commands, bot players as opponents."""
