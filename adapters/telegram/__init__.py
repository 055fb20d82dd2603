"""Telegram adapter: python-telegram-bot v22 in front of the platform-neutral `bot.Tables`."""
