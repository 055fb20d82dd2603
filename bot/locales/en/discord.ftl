### Discord only: private messages and ephemeral views.

discord--oops = Something went wrong on my side; nothing was changed. Please try again.
discord--hand_here = I can't send you private messages (your DMs are closed), so your hand is shown here, only to you, and it follows the game. Discord keeps such a view up to date for 15 minutes; after that press “My hand” again.
discord--hand_in_dm = Your hand, with its buttons, is in our private messages.
discord--hand_expired = Your private view of your hand has expired (Discord keeps it 15 minutes). Press “My hand” to see your cards again.
discord--guild_only = Tables are played in a server channel or thread, not here.
discord--cannot_post = I can't post in this channel, so its table could not be shown: give me the rights to see it and send messages in it (in threads too, for a thread), or play in another channel. Nothing was changed.

# Slash commands: a command's name (lowercase, 1–32 letters, digits, - or _), its
# description (at most 100 characters), its options' names and descriptions.
discord--cmd--join = join
discord--cmd--join--desc = Take a seat at this channel's table
discord--cmd--leave = leave
discord--cmd--leave--desc = Leave this channel's table (a bot plays your seat in a game)
discord--cmd--start = start
discord--cmd--start--desc = Start the game (host or channel admin)
discord--cmd--addbot = addbot
discord--cmd--addbot--desc = Add a bot player to the lobby (host or channel admin)
discord--cmd--removebot = removebot
discord--cmd--removebot--desc = Remove a bot player from the lobby (host or channel admin)
discord--cmd--cancel = cancel
discord--cmd--cancel--desc = Cancel this channel's table (host or channel admin)
discord--cmd--table = table
discord--cmd--table--desc = Post the table again at the bottom of the channel
discord--cmd--scores = scores
discord--cmd--scores--desc = The scores of the game in this channel
discord--cmd--newgame = newgame
discord--cmd--newgame--desc = Open a table for a game in this channel
discord--cmd--newgame--game = game
discord--cmd--newgame--game--desc = The game to play
discord--cmd--newgame--options = options
discord--cmd--newgame--options--desc = Options, e.g. rounds=3 ox=yes deadline=off
discord--cmd--play = play
discord--cmd--play--desc = Play a move, e.g. 7 7 J
discord--cmd--play--move = move
discord--cmd--play--move--desc = Your move in the game's notation
discord--cmd--pass = pass
discord--cmd--pass--desc = Pass your turn
discord--cmd--hand = hand
discord--cmd--hand--desc = See your hand (only you can see it)
discord--cmd--kick = kick
discord--cmd--kick--desc = Remove a player from the table (host or admin)
discord--cmd--kick--member = member
discord--cmd--kick--member--desc = The player to remove
discord--cmd--options = options
discord--cmd--options--desc = See or change the table's options before it starts (host or admin)
discord--cmd--options--options = options
discord--cmd--options--options--desc = e.g. rounds=3 ox=yes deadline=off; empty to see them
discord--cmd--stats = stats
discord--cmd--stats--desc = Your results in finished games
discord--cmd--rules = rules
discord--cmd--rules--desc = The rules of a game
discord--cmd--rules--game = game
discord--cmd--rules--game--desc = Which game (default: the one played here)
discord--cmd--lang = lang
discord--cmd--lang--desc = The language I use with you, or in this channel
discord--cmd--lang--language = language
discord--cmd--lang--language--desc = Language
discord--cmd--lang--where = where
discord--cmd--lang--where--desc = Just for you (default) or the channel
discord--cmd--mydata = mydata
discord--cmd--mydata--desc = Get what I store about you, as a file
discord--cmd--forgetme = forgetme
discord--cmd--forgetme--desc = Delete what I store about you
discord--cmd--help = help
discord--cmd--help--desc = What I can do
# The choices offered in a command's list.
discord--choice--me = me
discord--choice--channel = channel
discord--cmd--leaderboard = leaderboard
discord--cmd--leaderboard--desc = This server's best players, game by game
discord--cmd--leaderboard--game = game
discord--cmd--leaderboard--game--desc = Which game (default: every rated game)
discord--cmd--leaderboard--season = season
discord--cmd--leaderboard--season--desc = A season, e.g. 2026-Q4 (default: the current one)
discord--cmd--rating = rating
discord--cmd--rating--desc = A player's ratings in this server
discord--cmd--rating--player = player
discord--cmd--rating--player--desc = Whose ratings (default: yours)
