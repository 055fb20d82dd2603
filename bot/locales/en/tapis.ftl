### Tapis: the lobby, tables, hands, refusals, help and rules.

# counts: "1 card", "3 cards" (see `count`)
n--card =
    { $n ->
        [one] { $n } card
       *[other] { $n } cards
    }
n--chip =
    { $n ->
        [one] { $n } chip
       *[other] { $n } chips
    }
n--move =
    { $n ->
        [one] { $n } move
       *[other] { $n } moves
    }
# a final score in each game's own unit (final ranking, /scores)
n--score--ochs-esel =
    { $n ->
        [one] { $n } penalty point
       *[other] { $n } penalty points
    }
n--score--the-game =
    { $n ->
        [one] { $n } card left
       *[other] { $n } cards left
    }
n--score--nix-fur-ungut =
    { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
n--score--michigan =
    { $n ->
        [one] { $n } chip
       *[other] { $n } chips
    }
# Each game's name as players of the language know it (in every sentence naming a game).
game--ochs-esel = Ochs & Esel
game--the-game = The Game
game--nix-fur-ungut = Nix für Ungut
game--michigan = Michigan
# languages and settings
lang_unknown = I speak these languages: { $langs }.
lang_set_personal = I will talk to you in English.
lang_set_channel = This channel now plays in English.
admin_only = Only a channel admin can do that.
mentions_on = I will mention you when your turn starts.
mentions_off = I will no longer mention you when your turn starts.
# lobby
unknown_game = I don't know the game “{ $text }”. Games: { $games }.
bad_option_word = I can't read the option “{ $word }”: write key=value, e.g. rounds=3.
bad_table_setting = “{ $key }={ $value }” is not a valid table setting (deadline: off or 30–86400 seconds; bot_delay: 0–30 seconds).
bad_options = These options don't work: { $message }
bad_deadline_range = These options don't work: “deadline” goes from { $low } to { $high } seconds, or off.
bad_bot_delay_range = These options don't work: “bot_delay” goes from { $low } to { $high } seconds.
option--unknown_option = { $game } has no option “{ $key }” (options: { $options }).
option--not_a_number = “{ $key }” takes a whole number.
option--not_yes_no = “{ $key }” takes yes or no.
option--out_of_range = “{ $key }” goes from { $low } to { $high }.
option--invalid = “{ $key }” cannot take that value.
table_exists = This channel already has a table ({ $game }, { $status }). Finish or /cancel it first.
table_exists_short = This channel already has another table.
status_lobby = waiting for players
status_playing = in play
status_finished = finished
status_cancelled = cancelled
status_closed = closed
storage_failed = I couldn't save that just now; nothing changed. Please try again.
lobby_opened = Table for { $game } opened. Others can /join; the host starts with /start.
no_table = There is no open table in this channel. Start one with /newgame.
already_seated = You are already at this table.
table_full = The table is full ({ $max } players at most).
joined = You joined the table for { $game }.
seat_reclaimed = { $name } is back and takes their seat again.
reclaimed = Welcome back: your seat is yours again.
game_running = A game is already running here and no seat is free.
takeover_queued = You will take over a bot's seat when the next round starts.
takeover_no_rounds = { $game } has no rounds: its bots keep their seats until the game ends. You can join the next one.
takeover_last_round = This is the last round of { $game }: the bots keep their seats until the game ends. You can join the next one.
takeover_last_round--michigan = This is the last deal of { $game }: the bots keep their seats until the game ends. You can join the next one.
takeover_full = Every bot seat at { $game } is already promised to someone waiting for the next round. You can join the next game.
left = You left the table.
not_seated = You are not playing at this table.
seat_to_bot_left = { $name } left; { $bot } plays their seat. They can /join to come back.
seat_to_bot_forgotten = A player left; { $bot } plays their seat.
left_game = You left the game; a bot plays your seat. /join to come back.
left_closed = You left and the table is closed (nobody else was seated).
host_moved = { $name } is now the host.
not_in_lobby = That is only possible before the game starts.
host_only = Only the host can do that.
host_or_admin_only = Only the host or a channel admin can do that.
bot_added = A bot joined the table.
no_bot = There is no bot to remove.
bot_removed = A bot left the table.
already_started = The game has already started.
player_count =
    { $count ->
        [one] { $count } player can't play this: it needs { $low } to { $high }.
       *[other] { $count } players can't play this: it needs { $low } to { $high }.
    }
started = { $game } has started. Your hand arrives privately.
cancelled_by = { $name } cancelled the table.
cancelled = The table is cancelled.
no_such_player = Nobody called “{ $name }” plays at this table.
cannot_kick_self = You can't kick yourself; use /leave.
kicked = { $name } was removed from the table.
kick_done = { $name } is no longer at the table.
kicked_out = You were removed from this table; you can join the next one.
took_over = { $name } takes over the seat of { $bot }.
# moves
no_game = No game is being played in this channel.
bad_button = That button isn't one of mine.
out_of_date = This message is out of date: the table has moved on and nothing was played. Check the table and try again.
seat_taken_by_bot = A bot plays your seat now; /join to take it back.
move_done = Done.
your_turn = { $name }, it's your turn ({ $game }).
your_turn_goes_on = { $name }, it's still your turn ({ $game }).
reminder = { $name }, your turn ends in { $seconds } s; then I play for you.
afk_move = { $name } ran out of time; I played for them.
seat_to_bot_afk = { $name } ran out of time again; { $bot } plays their seat. /join to return.
you_were_replaced = You ran out of time in { $game } ({ $title }); a bot plays your seat. Use /join there to take it back.
cannot_reach = I can't send { $name } their hand privately. { $name }: open a private chat with me (or allow DMs), or press “My hand” on the table; until then your turns run on the deadline.
cannot_reach_waits = I can't send { $name } their hand privately. { $name }: open a private chat with me (or allow DMs), or press “My hand” on the table; until then the table waits for you.
# rendering
lobby_title = 🃏 { $game } — waiting for players
lobby_players = Players ({ $count }, { $low }–{ $high }):
lobby_host = host
lobby_options = Options: { $options }
lobby_hint = Join with the button or /join; the host starts with /start.
table_title = 🃏 { $game } — { $status }
table_turn = To play: { $names }
table_round = Round { $round }/{ $rounds }
table_round_open = Round { $round }
table_seat = { $marker }{ $name }: { $cards }, { $score } pts
table_seat_noscore = { $marker }{ $name }: { $cards }
table_last = Last moves:
table_over = Game over.
table_cancelled = This table was cancelled.
table_closed = This table is closed.
table_back = The table is back: the game goes on where it stopped.
hand_title = 🂠 { $game } · { $title }
hand_cards = Your hand: { $cards }
hand_empty = Your hand is empty.
hand_your_turn = ▶ Your turn. Tap a move or type /play …
hand_not_your_turn = Your moves appear here when it is your turn.
hand_bot = A bot plays your seat; /join in the channel to take it back.
hand_more = Not shown: { $count }; type /play followed by the move.
btn_join = Join
btn_leave = Leave
btn_addbot = Add bot
btn_options = Options
btn_removebot = Remove bot
opt_yes = yes
opt_no = no
opt_off = off
opt_random = random
opt_custom = custom
opt_default = default
options_now = Options: { $options }. The host changes them with /options key=value.
options_changed = Options now: { $options }.
btn_start = Start
btn_hand = My hand
btn_rematch = Rematch
btn_pass = Pass
round_over = Round { $round } is over. Points this round:
round_line = { $name }: { $points } (total { $total })
# Only the settlement of cards left: pay cards and antes moved chips during the deal.
round_over--michigan = Deal { $round } is over. A chip per card left, paid to whoever went out; totals are before the next deal's antes:
# The game's last deal: no next deal, no antes; its totals are the final ones.
round_over--michigan--last = The last deal ({ $round }) is over. A chip per card left, paid to whoever went out; final totals:
round_over--ochs-esel = Round { $round } is over. Penalty points (lowest total wins):
final_title = 🏁 { $game } is over. Final ranking:
final_line = { $rank }. { $name } — { $score }
scores_title = Scores ({ $game }):
scores_line = { $name }: { $score }
stats_none = No finished games yet.
stats_title = Statistics for { $name }:
stats_line = { $game }: { $played } played, { $wins } won, average place { $rank }
# refusals (engine codes)
refusal--not_your_turn = It's not your turn: waiting for { $names }.
refusal--not_your_turn--turn_ended = Your hand ran out before the end of that message, which ended your turn: nothing was played.
refusal--game_over = The game is over.
refusal--bad_notation = I can't read “{ $text }” as a move.{ $hint }
refusal--unknown_card = “{ $text }” is not a card of this game.{ $hint }
refusal--card_not_in_hand = You don't have { $cards } in your hand.
refusal--must_match_count = Play exactly { $count }, as many as the leader.
refusal--too_low = Too low: you need at least { $needed } to beat the table.
refusal--too_low--unbeatable = Nothing beats jokers alone: you can only pass.
refusal--leader_cannot_pass = You lead this trick: you must play, not pass.
refusal--animal_alone = Play { $animal } alone, with no other card.
refusal--animal_only_leads = You can play { $animal } only to lead a trick.
refusal--animal_just_received = You just received { $animal }: you can lead it two tricks later at the earliest.
refusal--must_play_one_card = In this trick everyone plays exactly one card; no passing.
refusal--not_a_set = A set is cards of one value (jokers may join): { $cards } is not.
refusal--below_minimum = Play at least { $needed } this turn before ending it.
refusal--not_playable = { $card } can't go on { $pile } (top card { $top }).
refusal--unknown_pile = “{ $text }” is not a pile: use A1, A2, D1 or D2.
refusal--unknown_row = “{ $text }” is not a row: quad, run4, triple, run3, pair, run2, single or none.
refusal--bid_too_low = Bid at least { $min }.
refusal--bid_too_high = You can bid at most { $max }.
refusal--joker_limit = A combination may hold one joker at most.
refusal--joker_single_only = In turn 5 (or as your last card) a joker can only be played as a single.
refusal--must_change_suit = Lead a different suit than { $previous }: you hold another one.
refusal--no_card_of_suit = You hold no card of that suit ({ $suit }).
refusal--none_needs_empty_hand = “Nothing” is only for an empty hand; you still hold { $hand_size }.
refusal--not_a_combination = { $cards } is not a { $row }.
refusal--not_bidding_phase = Nobody is bidding right now.
refusal--not_dealer_decision = That is the dealer's decision, and it is not being made now.
refusal--not_playing_phase = Cards are not being played right now.
refusal--super_not_allowed = The super chip can't be used here.
refusal--super_not_allowed--joker = The super chip only goes with a combination without jokers.
refusal--super_not_allowed--turn_5 = The super chip can't be played in turn 5; it is placed as a normal chip.
refusal--super_used = You already used your super chip this round.
refusal--generic = That move isn't allowed ({ $code }).
# after a move that could not be read ({hint} above, with its leading space): how to
# write one in that game
hint--ochs-esel = Write the cards to play, e.g. 7 7 J, or pass; D leads the donkey.
hint--the-game = Write a card and a pile, e.g. 23 A1 (several: 23 A1, 77 D2), or end.
hint--nix-fur-ungut = Write the row, then the cards, e.g. pair 5 J, run3 2 3 4 super, or none.
hint--michigan = Moves: lead H (suits S H D C), swap, keep, auction, bid 5, pass.
# help and rules
help =
    Commands: /newgame <game> [options] · /join · /leave · /start · /play <move> · /pass · /hand · /table · /options · /scores · /stats · /rules [game] · /cancel · /kick <player> · /lang <de|en|fr> · /mentions on|off · /help
    Games: { $games }
rules_pick = Rules of which game? { $games }
newgame_usage = Open a table with /newgame <game> [option=value …], e.g. /newgame ochs rounds=3 ox=yes. Games:
newgame_game = • { $id } — { $name }, { $low }–{ $high } players; options: { $options }
newgame_table_options = Any table: deadline=<seconds>|off (default 300), bot_delay=<seconds>, rated=no for a friendly game (not rated).
needs_private_chat = { $name }: I can't write to you privately yet, and your cards are dealt there. Open { $link } and press Start: you will be seated at once.
needs_private_chat_short = Open the private chat with me and press Start: you will be seated.
error_generic = Something went wrong on my side; nothing changed. Please try again.
mentions_usage = Use /mentions on or /mentions off.
cmd--newgame = Open a table: /newgame <game> [options]
cmd--join = Take a seat at the table
cmd--leave = Leave the table
cmd--addbot = Add a bot player (host)
cmd--removebot = Remove a bot player from the lobby (host)
cmd--start = Start the game (host)
cmd--start_private = Open the private chat where your hands arrive
cmd--play = Play a move: /play <move>
cmd--pass = Pass
cmd--hand = Send me my hand again
cmd--table = Show the table again
cmd--rules = Rules: /rules [game]
cmd--scores = Scores of the game
cmd--stats = My statistics
cmd--cancel = Cancel the table (host or admin)
cmd--kick = Remove a player (host or admin)
cmd--lang = Language: /lang de|en|fr
cmd--options = Table options before the start: /options key=value (host)
cmd--mentions = Mention me when my turn starts: /mentions on|off
cmd--help = How to play with me
console_resume = Resuming your game of { $game }.
console_pick_game = Which game?
console_options = Options (the defaults: { $defaults }), Enter to keep them:
console_bots = How many bot opponents ({ $low }–{ $high }, Enter for { $default })?
console_no_button = There is no choice with that number in the list above.
console_bad_bots = Type a number from { $low } to { $high }, or Enter.
console_help = In this terminal: type a move, or #N to press button N; /quit to stop (the game is saved).
rules_options = Options (/newgame <game> name=value, or the lobby's Options button):
optdesc--rounds = number of rounds, 1 to 20
optdesc--ox = yes: the Ochs variant (the ox and the donkey start in the middle)
optdesc--min_play = cards to play each turn while the draw pile lasts, 1 to 5 (expert: 3)
optdesc--hand_minus_one = yes: every hand holds one card fewer (expert)
optdesc--first = the seat, as numbered in the lobby, that plays first
optdesc--personne = yes: Monsieur Personne plays along
optdesc--board = other cell values, e.g. board={ "{" }"pair": [5, 3, 1]{ "}" }
optdesc--chips = chips each player starts with, 1 to 1000
optdesc--hands_per_player = how many times each player deals, 1 to 10
optdesc--deadline = time for a turn (30s to 24h, or off); then the bot plays for you
optdesc--bot_delay = seconds a bot player waits before moving, 0 to 30
rules--ochs-esel = Ochs & Esel (3–12 players): get rid of your cards. The leader plays one or more cards of one value; each other player, once, beats with the same number of strictly higher cards or passes; the highest leads next. A joker joins any value; jokers alone are worth 14. The donkey (20 penalty points) can only be led, alone: then everyone plays one card (joker = 1) and the highest takes all the cards into hand. A round ends after a trick that left someone without cards; the cards left in hand are penalty points (face value, joker 14). Lowest total after the rounds wins. Option ox=yes: the ox (15) goes to the winner of trick 1, the donkey to the winner of trick 2; an ox trick's cards are kept face down as penalties. Moves: `7 7 J`, `pass`, `D` (lead the donkey).
rules--the-game = The Game (1–5, cooperative): play all 98 cards onto four piles, A1 A2 going up from 1 and D1 D2 going down from 100. On your turn play at least 2 cards (1 once the draw pile is empty), then draw back up. Exactly 10 backwards is allowed (35 on 45 up, 75 on 65 down). You may not say which cards you hold. The game is lost when the player to act can't play their minimum. Moves: `23 A1`, `23 A1, 77 D2`, `end`. Signals, at any time: `signal A1 stop` (please don't play here), `signal D2 small` (no big jump here), `signal A1 off`.
rules--nix-fur-ungut = Nix für Ungut (2–5): each turn play a combination from your hand and put a chip on its row: quad (4 of a kind), run4 (4 in a row), triple (3 of a kind), run3, pair, run2, single (one card), none (no card left). A new chip pushes the row's chips along; the one pushed off scores nothing. One joker per combination at most. Your super chip doubles its cell. 4 rounds of 5 turns; most points wins. With personne=yes, Monsieur Personne plays from the draw pile and is ranked too, but is not a player: the best of the people wins. Moves: `pair 5 J`, `run3 2 3 4 super`, `none`.
rules--michigan = Michigan (3–8): chips on the pay cards JS QD KC AH. The dealer may swap for the extra hand, keep, or auction it (a bid is at most your own chips; who cannot outbid passes). The leader plays the lowest card of a suit; whoever holds the next card in that suit must play it (I play forced cards for you) until the ace or a dead card; the last to play leads again. Playing a pay card wins its chips; the first player out collects a chip per card from everyone. Moves: `lead H`, `swap`, `keep`, `auction`, `bid 5`, `pass`.

## Imported from i18n.py

# --- trust-input ---
option--too_high = “{ $key }” goes up to { $high }.
option--too_low = “{ $key }” starts at { $low }.
option_number_too_long = The number given for “{ $key }” is too long: { $max } digits at most.
option_value_too_long = The value of “{ $key }” is too long: { $max } characters at most.
option_value_too_deep = The value of “{ $key }” nests too deeply: { $max } levels of brackets at most.
too_many_options = That is too many options at once: { $max } at most.
move_too_long = That move is too long for me to read: { $max } characters at most.
storage_unavailable = I can't reach my records just now; nothing changed. Please try again in a moment.
move_unstorable = I can't store that move, so it was not played.
table_unstorable = This table reached a result I cannot store and is closed; nothing after the last stored move counts. Open a new one with /newgame.
table_unrestorable = This table could not be restored after an update and is closed. Open a new one with /newgame.
lobby_busy = The table was changing at the same moment; nothing changed. Please try again.
# --- service ---
former_player = a former player
cmd--forgetme = Delete what I store about you
cmd--mydata = Get what I store about you, as a file
forget_ask = This removes your settings and language, and your name from every table and result I keep (scores stay, as “a former player”, so other players' statistics stay whole). If you are playing now, a bot takes your seat. Your own statistics are gone for good. Are you sure?
btn_forget = Yes, forget me
btn_keep = No, keep my data
forget_done = Done: I no longer store your name, settings or language. Playing again later starts afresh.
forget_kept = Nothing was deleted.
forget_expired = That confirmation has expired; send /forgetme again.
forget_too_soon = You asked me to forget you less than a minute ago, so nothing was changed this time; you can ask again in { $seconds ->
        [one] one second
       *[other] { $seconds } seconds
    }.
private_only = Send me that in a private chat: the answer is about you alone.
group_only = Tables are played in a group or one of its topics: add me to a group and type this there. Here, in private, your hands arrive.
as_yourself = Write that as yourself, not on behalf of a channel or as an anonymous admin: I seat and deal cards to people. Nothing was changed.
cannot_post_here = I'm not allowed to send messages in “{ $chat }” (or in that topic, if it is closed), so I can't show a table there and opened none. An admin can give me that right, or reopen the topic; then type the command again. Nothing was changed.
mydata_caption = Everything I store about you, as JSON.
mydata_failed = I couldn't read your data just now; please try again.
mydata_too_soon = You asked for your data less than a minute ago; you can ask again in { $seconds ->
        [one] one second
       *[other] { $seconds } seconds
    }.
help_privacy = Your data: /mydata sends what I store about you, /forgetme deletes it (in a private chat with me).
# --- screens ---
error_after_change = Something went wrong on my side after your action was saved: it counts, and the table shows where things stand.
# --- trust-authority ---
button_elsewhere = This button belongs to a table in another chat: it does nothing here.
button_not_your_hand = This button is not on your hand for that table: use the buttons of your latest hand message.
rights_unknown = I couldn't check your rights just now; try again in a moment. Nothing was changed.
bad_link = This link does not lead to a table: ask for a fresh one in the table's chat.
not_a_member = Only members of the table's chat can sit at it: join that chat first.
# --- console ---
stats_line_team = { $game }: { $played } played, { $wins } won, { $lost } lost (as a team)
refusal--card_not_in_hand--short = You hold only { $held } { $card }: { $played } needs { $wanted }.
refusal--too_low--short = You hold only { $held } { $card }: { $played } needs { $wanted } (and it would take at least { $needed } to beat the table).
word--1 = one
word--2 = two
word--3 = three
word--4 = four
word--5 = five
word--6 = six
word--7 = seven
word--8 = eight
word--9 = nine
word--10 = ten
word--11 = eleven
word--12 = twelve
option--bad_entry = “{ $key }”: “{ $item }” is not one of { $allowed }.
option--wrong_length = “{ $key }”: { $item } takes exactly { $length } values.
option--too_small = “{ $key }”: the values for { $item } must be at least { $low }.
option--bad_shape = “{ $key }” is written like { $key }={ $example }.
option--entry_not_a_number = “{ $key }”: the values for { $item } must be whole numbers.
final_extra_ahead = { $extra } is not a player: among the people, { $names } won.

## Imported from bots_i18n.py

# --- bots ---
refusal--no_signal_to_withdraw = You have no signal on { $pile } to withdraw.
refusal--signal_already_given = You already gave that signal on { $pile }.
refusal--unknown_signal = “{ $text }” is not a signal: write stop (please don't play here), small (no big jump here) or off, e.g. signal A1 stop.
bad_bots_level = “bots={ $value }” is not a bot level; levels: { $levels }.
bots--easy = easy
bots--strong = strong
optdesc--bots = how the table's bots play (added bots and AFK takeovers): easy or strong
