### Discord only: private messages and ephemeral views.

discord--oops = Something went wrong on my side; nothing was changed. Please try again.
discord--hand_here = I can't send you private messages (your DMs are closed), so your hand is shown here, only to you, and it follows the game. Discord keeps such a view up to date for 15 minutes; after that press “My hand” again.
discord--hand_in_dm = Your hand, with its buttons, is in our private messages.
discord--hand_expired = Your private view of your hand has expired (Discord keeps it 15 minutes). Press “My hand” to see your cards again.
discord--guild_only = Tables are played in a server channel or thread, not here.
