-- The language a person's chat app runs in, as the platform last reported it. Private
-- answers follow it when the person chose no /lang; stored so a restart keeps it.

ALTER TABLE user_settings ADD COLUMN locale TEXT;
