"""Every sentence a user reads, in English and French.

A small typed catalogue rather than gettext: the bot has a few hundred strings, two
languages, and tests check that both languages have every key and that every refusal
code the engines raise has a sentence.
"""

import logging
from typing import Any

log = logging.getLogger(__name__)

LANGS = ("en", "fr")

EN: dict[str, str] = {
    # counts: "1 card", "3 cards" (see `count`)
    "n.card": "{n} cards", "n.card.one": "{n} card",
    "n.chip": "{n} chips", "n.chip.one": "{n} chip",
    "n.move": "{n} moves", "n.move.one": "{n} move",
    # a final score in each game's own unit (final ranking, /scores)
    "n.score.ochs-esel": "{n} penalty points", "n.score.ochs-esel.one": "{n} penalty point",
    "n.score.the-game": "{n} cards left", "n.score.the-game.one": "{n} card left",
    "n.score.nix-fur-ungut": "{n} points", "n.score.nix-fur-ungut.one": "{n} point",
    "n.score.michigan": "{n} chips", "n.score.michigan.one": "{n} chip",
    # languages and settings
    "lang_unknown": "I speak these languages: {langs}.",
    "lang_set_personal": "I will talk to you in English.",
    "lang_set_channel": "This channel now plays in English.",
    "admin_only": "Only a channel admin can do that.",
    "mentions_on": "I will mention you when your turn starts.",
    "mentions_off": "I will no longer mention you when your turn starts.",
    # lobby
    "unknown_game": "I don't know the game “{text}”. Games: {games}.",
    "bad_option_word": "I can't read the option “{word}”: write key=value, e.g. rounds=3.",
    "bad_table_setting": "“{key}={value}” is not a valid table setting (deadline: off or "
                         "30–86400 seconds; bot_delay: 0–30 seconds).",
    "bad_options": "These options don't work: {message}",
    "option.unknown_option": "{game} has no option “{key}” (options: {options}).",
    "option.not_a_number": "“{key}” takes a whole number.",
    "option.not_yes_no": "“{key}” takes yes or no.",
    "option.out_of_range": "“{key}” goes from {low} to {high}.",
    "option.invalid": "“{key}” cannot take that value.",
    "table_exists": "This channel already has a table ({game}, {status}). Finish or /cancel "
                    "it first.",
    "table_exists_short": "This channel already has another table.",
    "status_lobby": "waiting for players",
    "status_playing": "in play",
    "status_finished": "finished",
    "status_cancelled": "cancelled",
    "status_closed": "closed",
    "storage_failed": "I couldn't save that just now; nothing changed. Please try again.",
    "lobby_opened": "Table for {game} opened. Others can /join; the host starts with /start.",
    "no_table": "There is no open table in this channel. Start one with /newgame.",
    "already_seated": "You are already at this table.",
    "table_full": "The table is full ({max} players at most).",
    "joined": "You joined the table for {game}.",
    "seat_reclaimed": "{name} is back and takes their seat again.",
    "reclaimed": "Welcome back: your seat is yours again.",
    "game_running": "A game is already running here and no seat is free.",
    "takeover_queued": "You will take over a bot's seat when the next round starts.",
    "left": "You left the table.",
    "not_seated": "You are not playing at this table.",
    "seat_to_bot_left": "{name} left; {bot} plays their seat. They can /join to come back.",
    "left_game": "You left the game; a bot plays your seat. /join to come back.",
    "left_closed": "You left and the table is closed (nobody else was seated).",
    "host_moved": "{name} is now the host.",
    "not_in_lobby": "That is only possible before the game starts.",
    "host_only": "Only the host can do that.",
    "host_or_admin_only": "Only the host or a channel admin can do that.",
    "bot_added": "A bot joined the table.",
    "no_bot": "There is no bot to remove.",
    "bot_removed": "A bot left the table.",
    "already_started": "The game has already started.",
    "player_count": "{count} players can't play this: it needs {low} to {high}.",
    "started": "{game} has started. Your hand arrives privately.",
    "cancelled_by": "{name} cancelled the table.",
    "cancelled": "The table is cancelled.",
    "no_such_player": "Nobody called “{name}” plays at this table.",
    "cannot_kick_self": "You can't kick yourself; use /leave.",
    "kicked": "{name} was removed from the table.",
    "kick_done": "{name} is no longer at the table.",
    "kicked_out": "You were removed from this table; you can join the next one.",
    "took_over": "{name} takes over the seat of {bot}.",
    # moves
    "no_game": "No game is being played in this channel.",
    "bad_button": "That button isn't one of mine.",
    "out_of_date": "This message is out of date: the table has moved on and nothing was "
                   "played. Check the table and try again.",
    "seat_taken_by_bot": "A bot plays your seat now; /join to take it back.",
    "move_done": "Done.",
    "your_turn": "{name}, it's your turn ({game}).",
    "your_turn_goes_on": "{name}, it's still your turn ({game}).",
    "reminder": "{name}, your turn ends in {seconds} s; then I play for you.",
    "afk_move": "{name} ran out of time; I played for them.",
    "seat_to_bot_afk": "{name} ran out of time again; {bot} plays their seat. /join to return.",
    "you_were_replaced": "You ran out of time in {game} ({title}); a bot plays your seat. "
                         "Use /join there to take it back.",
    "cannot_reach": "I can't send {name} their hand privately. {name}: open a private chat "
                    "with me (or allow DMs), or press “My hand” on the table; until then "
                    "your turns run on the deadline.",
    "cannot_reach_waits": "I can't send {name} their hand privately. {name}: open a private "
                          "chat with me (or allow DMs), or press “My hand” on the table; until "
                          "then the table waits for you.",
    # rendering
    "lobby_title": "🃏 {game} — waiting for players",
    "lobby_players": "Players ({count}, {low}–{high}):",
    "lobby_host": "host",
    "lobby_options": "Options: {options}",
    "lobby_hint": "Join with the button or /join; the host starts with /start.",
    "table_title": "🃏 {game} — {status}",
    "table_turn": "To play: {names}",
    "table_round": "Round {round}/{rounds}",
    "table_round_open": "Round {round}",
    "table_seat": "{marker}{name}: {cards}, {score} pts",
    "table_seat_noscore": "{marker}{name}: {cards}",
    "table_last": "Last moves:",
    "table_over": "Game over.",
    "table_cancelled": "This table was cancelled.",
    "table_closed": "This table is closed.",
    "table_back": "The table is back: the game goes on where it stopped.",
    "hand_title": "🂠 {game} · {title}",
    "hand_cards": "Your hand: {cards}",
    "hand_empty": "Your hand is empty.",
    "hand_your_turn": "▶ Your turn. Tap a move or type /play …",
    "hand_not_your_turn": "Your moves appear here when it is your turn.",
    "hand_bot": "A bot plays your seat; /join in the channel to take it back.",
    "hand_more": "Not shown: {count}; type /play followed by the move.",
    "btn_join": "Join",
    "btn_leave": "Leave",
    "btn_addbot": "Add bot",
    "btn_options": "Options",
    "btn_removebot": "Remove bot",
    "opt_yes": "yes",
    "opt_no": "no",
    "opt_off": "off",
    "opt_random": "random",
    "opt_custom": "custom",
    "opt_default": "default",
    "options_now": "Options: {options}. The host changes them with /options key=value.",
    "options_changed": "Options now: {options}.",
    "btn_start": "Start",
    "btn_hand": "My hand",
    "btn_rematch": "Rematch",
    "btn_pass": "Pass",
    "round_over": "Round {round} is over. Points this round:",
    "round_line": "{name}: {points} (total {total})",
    # Only the settlement of cards left: pay cards and antes moved chips during the deal.
    "round_over.michigan": "Deal {round} is over. A chip per card left, paid to whoever "
                           "went out:",
    "round_over.ochs-esel": "Round {round} is over. Penalty points (lowest total wins):",
    "final_title": "🏁 {game} is over. Final ranking:",
    "final_line": "{rank}. {name} — {score}",
    "scores_title": "Scores ({game}):",
    "scores_line": "{name}: {score}",
    "stats_none": "No finished games yet.",
    "stats_title": "Statistics for {name}:",
    "stats_line": "{game}: {played} played, {wins} won, average place {rank}",
    # refusals (engine codes)
    "refusal.not_your_turn": "It's not your turn: waiting for {names}.",
    "refusal.not_your_turn.turn_ended": "Your hand ran out before the end of that message, "
                                        "which ended your turn: nothing was played.",
    "refusal.game_over": "The game is over.",
    "refusal.bad_notation": "I can't read “{text}” as a move.{hint}",
    "refusal.unknown_card": "“{text}” is not a card of this game.{hint}",
    "refusal.card_not_in_hand": "You don't have {cards} in your hand.",
    "refusal.must_match_count": "Play exactly {count}, as many as the leader.",
    "refusal.too_low": "Too low: you need at least {needed} to beat the table.",
    "refusal.too_low.unbeatable": "Nothing beats jokers alone: you can only pass.",
    "refusal.leader_cannot_pass": "You lead this trick: you must play, not pass.",
    "refusal.animal_alone": "Play {animal} alone, with no other card.",
    "refusal.animal_only_leads": "You can play {animal} only to lead a trick.",
    "refusal.animal_just_received": "You just received {animal}: you can lead it two "
                                    "tricks later at the earliest.",
    "refusal.must_play_one_card": "In this trick everyone plays exactly one card; no passing.",
    "refusal.not_a_set": "A set is cards of one value (jokers may join): {cards} is not.",
    "refusal.below_minimum": "Play at least {needed} this turn before ending it.",
    "refusal.not_playable": "{card} can't go on {pile} (top card {top}).",
    "refusal.unknown_pile": "“{text}” is not a pile: use A1, A2, D1 or D2.",
    "refusal.unknown_row": "“{text}” is not a row: quad, run4, triple, run3, pair, run2, "
                           "single or none.",
    "refusal.bid_too_low": "Bid at least {min}.",
    "refusal.bid_too_high": "You can bid at most {max}.",
    "refusal.joker_limit": "A combination may hold one joker at most.",
    "refusal.joker_single_only": "In turn 5 (or as your last card) a joker can only be played "
                                 "as a single.",
    "refusal.must_change_suit": "Lead a different suit than {previous}: you hold another one.",
    "refusal.no_card_of_suit": "You hold no card of that suit ({suit}).",
    "refusal.none_needs_empty_hand": "“Nothing” is only for an empty hand; you still hold "
                                     "{hand_size}.",
    "refusal.not_a_combination": "{cards} is not a {row}.",
    "refusal.not_bidding_phase": "Nobody is bidding right now.",
    "refusal.not_dealer_decision": "That is the dealer's decision, and it is not being made now.",
    "refusal.not_playing_phase": "Cards are not being played right now.",
    "refusal.super_not_allowed": "The super chip can't be used here.",
    "refusal.super_not_allowed.joker": "The super chip only goes with a combination without "
                                       "jokers.",
    "refusal.super_not_allowed.turn_5": "The super chip can't be played in turn 5; it is placed "
                                        "as a normal chip.",
    "refusal.super_used": "You already used your super chip this round.",
    "refusal.generic": "That move isn't allowed ({code}).",
    # after a move that could not be read ({hint} above, with its leading space): how to
    # write one in that game
    "hint.ochs-esel": "Write the cards to play, e.g. 7 7 J, or pass; D leads the donkey.",
    "hint.the-game": "Write a card and a pile, e.g. 23 A1 (several: 23 A1, 77 D2), or end.",
    "hint.nix-fur-ungut": "Write the row, then the cards, e.g. pair 5 J, run3 2 3 4 super, "
                          "or none.",
    "hint.michigan": "Moves: lead H (suits S H D C), swap, keep, auction, bid 5, pass.",
    # help and rules
    "help": "Commands: /newgame <game> [options] · /join · /leave · /start · /play <move> · "
            "/pass · /hand · /table · /options · /scores · /stats · /rules [game] · /cancel · "
            "/kick <player> · /lang <en|fr> · /mentions on|off · /help\nGames: {games}",
    "rules_pick": "Rules of which game? {games}",
    "newgame_usage": "Open a table with /newgame <game> [option=value …], e.g. /newgame ochs "
                     "rounds=3 ox=yes. Games:",
    "newgame_game": "• {id} — {name}, {low}–{high} players; options: {options}",
    "newgame_table_options": "Any table: deadline=<seconds>|off (default 300), "
                             "bot_delay=<seconds>.",
    "needs_private_chat": "{name}: I can't write to you privately yet, and your cards are "
                          "dealt there. Open {link} and press Start: you will be seated at once.",
    "needs_private_chat_short": "Open the private chat with me and press Start: you will be "
                                "seated.",
    "error_generic": "Something went wrong on my side; nothing changed. Please try again.",
    "mentions_usage": "Use /mentions on or /mentions off.",
    "cmd.newgame": "Open a table: /newgame <game> [options]",
    "cmd.join": "Take a seat at the table",
    "cmd.leave": "Leave the table",
    "cmd.addbot": "Add a bot player (host)",
    "cmd.removebot": "Remove a bot player from the lobby (host)",
    "cmd.start": "Start the game (host)",
    "cmd.start_private": "Open the private chat where your hands arrive",
    "cmd.play": "Play a move: /play <move>",
    "cmd.pass": "Pass",
    "cmd.hand": "Send me my hand again",
    "cmd.table": "Show the table again",
    "cmd.rules": "Rules: /rules [game]",
    "cmd.scores": "Scores of the game",
    "cmd.stats": "My statistics",
    "cmd.cancel": "Cancel the table (host or admin)",
    "cmd.kick": "Remove a player (host or admin)",
    "cmd.lang": "Language: /lang en|fr",
    "cmd.options": "Table options before the start: /options key=value (host)",
    "cmd.mentions": "Mention me when my turn starts: /mentions on|off",
    "cmd.help": "How to play with me",
    "console_resume": "Resuming your {game} game.",
    "console_pick_game": "Which game?",
    "console_options": "Options (e.g. rounds=3 ox=yes), Enter for the defaults:",
    "console_bots": "How many bot opponents ({low}–{high}, Enter for {default})?",
    "console_no_button": "There is no button with that number.",
    "console_bad_bots": "Type a number from {low} to {high}, or Enter.",
    "console_help": "In this terminal: type a move, or #N to press button N; /quit to stop "
                    "(the game is saved).",
    "rules_options": "Options (/newgame <game> name=value, or the lobby's Options button):",
    "optdesc.rounds": "number of rounds, 1 to 20",
    "optdesc.ox": "yes: the Ochs variant (the ox and the donkey start in the middle)",
    "optdesc.min_play": "cards to play each turn while the draw pile lasts, 1 to 5 (expert: 3)",
    "optdesc.hand_minus_one": "yes: every hand holds one card fewer (expert)",
    "optdesc.first": "the seat, as numbered in the lobby, that plays first",
    "optdesc.personne": "yes: Monsieur Personne plays along",
    "optdesc.board": "other cell values, e.g. board={{\"pair\": [5, 3, 1]}}",
    "optdesc.chips": "chips each player starts with, 1 to 1000",
    "optdesc.hands_per_player": "how many times each player deals, 1 to 10",
    "optdesc.deadline": "time for a turn (30s to 24h, or off); then the bot plays for you",
    "optdesc.bot_delay": "seconds a bot player waits before moving, 0 to 30",
    "rules.ochs-esel": "Ochs & Esel (3–12 players): get rid of your cards. The leader plays "
                       "one or more cards of one value; each other player, once, beats with "
                       "the same number of strictly higher cards or passes; the highest leads "
                       "next. A joker joins any value; jokers alone are worth 14. The donkey "
                       "(20 penalty points) can only be led, alone: then everyone plays one "
                       "card (joker = 1) and the highest takes all the cards into hand. A round "
                       "ends after a trick that left someone without cards; the cards left in "
                       "hand are penalty points (face value, joker 14). Lowest total after the "
                       "rounds wins. Option ox=yes: the ox (15) goes to the winner of trick 1, "
                       "the donkey to the winner of trick 2; an ox trick's cards are kept face "
                       "down as penalties. Moves: `7 7 J`, `pass`, `D` (lead the donkey).",
    "rules.the-game": "The Game (1–5, cooperative): play all 98 cards onto four piles, A1 A2 "
                      "going up from 1 and D1 D2 going down from 100. On your turn play at "
                      "least 2 cards (1 once the draw pile is empty), then draw back up. "
                      "Exactly 10 backwards is allowed (35 on 45 up, 75 on 65 down). You may "
                      "not say which cards you hold. The game is lost when the player to act "
                      "can't play their minimum. Moves: `23 A1`, `23 A1, 77 D2`, `end`.",
    "rules.nix-fur-ungut": "Nix für Ungut (2–5): each turn play a combination from your hand "
                           "and put a chip on its row (4 of a kind, run of 4, 3 of a kind, "
                           "run of 3, pair, run of 2, single, nothing). A new chip pushes the "
                           "row's chips along; the one pushed off scores nothing. One joker per "
                           "combination at most. Your super chip doubles its cell. 4 rounds of "
                           "5 turns; most points wins. Moves: `pair 5 J`, `run3 2 3 4 super`, "
                           "`none`.",
    "rules.michigan": "Michigan (3–8): chips on the pay cards JS QD KC AH. The dealer may "
                      "swap for the extra hand, keep, or auction it. The leader plays the "
                      "lowest card of a suit; whoever holds the next card in that suit must "
                      "play it (I play forced cards for you) until the ace or a dead card; the "
                      "last to play leads again. Playing a pay card wins its chips; the first "
                      "player out collects a chip per card from everyone. Moves: `lead H`, "
                      "`swap`, `keep`, `auction`, `bid 5`, `pass`.",
    # --- trust-input ---
    "option.too_high": "“{key}” goes up to {high}.",
    "option.too_low": "“{key}” starts at {low}.",
    "option_number_too_long": "The number given for “{key}” is too long: {max} digits "
                              "at most.",
    "option_value_too_long": "The value of “{key}” is too long: {max} characters at most.",
    "option_value_too_deep": "The value of “{key}” nests too deeply: {max} levels of "
                             "brackets at most.",
    "too_many_options": "That is too many options at once: {max} at most.",
    "move_too_long": "That move is too long for me to read: {max} characters at most.",
    "storage_unavailable": "I can't reach my records just now; nothing changed. Please try "
                           "again in a moment.",
    "move_unstorable": "I can't store that move, so it was not played.",
    "table_unstorable": "This table reached a result I cannot store and is closed; nothing "
                        "after the last stored move counts. Open a new one with /newgame.",
    "table_unrestorable": "This table could not be restored after an update and is closed. "
                          "Open a new one with /newgame.",
    "lobby_busy": "The table was changing at the same moment; nothing changed. Please try "
                  "again.",
}

FR: dict[str, str] = {
    "n.card": "{n} cartes", "n.card.one": "{n} carte",
    "n.chip": "{n} jetons", "n.chip.one": "{n} jeton",
    "n.move": "{n} coups", "n.move.one": "{n} coup",
    "n.score.ochs-esel": "{n} points de pénalité",
    "n.score.ochs-esel.one": "{n} point de pénalité",
    "n.score.the-game": "{n} cartes restantes", "n.score.the-game.one": "{n} carte restante",
    "n.score.nix-fur-ungut": "{n} points", "n.score.nix-fur-ungut.one": "{n} point",
    "n.score.michigan": "{n} jetons", "n.score.michigan.one": "{n} jeton",
    "lang_unknown": "Je parle ces langues : {langs}.",
    "lang_set_personal": "Je vous parlerai en français.",
    "lang_set_channel": "Ce salon joue désormais en français.",
    "admin_only": "Seul un administrateur du salon peut faire cela.",
    "mentions_on": "Je vous mentionnerai quand votre tour commence.",
    "mentions_off": "Je ne vous mentionnerai plus quand votre tour commence.",
    "unknown_game": "Je ne connais pas le jeu « {text} ». Jeux : {games}.",
    "bad_option_word": "Je ne comprends pas l'option « {word} » : écrivez clé=valeur, "
                       "par ex. manches=3.",
    "bad_table_setting": "« {key}={value} » n'est pas un réglage de table valide (deadline : "
                         "off ou 30–86400 secondes ; bot_delay : 0–30 secondes).",
    "bad_options": "Ces options ne conviennent pas : {message}",
    "option.unknown_option": "{game} n'a pas d'option « {key} » (options : {options}).",
    "option.not_a_number": "« {key} » demande un nombre entier.",
    "option.not_yes_no": "« {key} » demande oui ou non.",
    "option.out_of_range": "« {key} » va de {low} à {high}.",
    "option.invalid": "« {key} » ne peut pas prendre cette valeur.",
    "table_exists": "Ce salon a déjà une table ({game}, {status}). Terminez-la ou /cancel "
                    "d'abord.",
    "table_exists_short": "Ce salon a déjà une autre table.",
    "status_lobby": "en attente de joueurs",
    "status_playing": "en cours",
    "status_finished": "terminée",
    "status_cancelled": "annulée",
    "status_closed": "fermée",
    "storage_failed": "Je n'ai pas pu enregistrer cela ; rien n'a changé. Réessayez.",
    "lobby_opened": "Table de {game} ouverte. Les autres peuvent /join ; l'hôte lance avec "
                    "/start.",
    "no_table": "Aucune table ouverte dans ce salon. Créez-en une avec /newgame.",
    "already_seated": "Vous êtes déjà à cette table.",
    "table_full": "La table est complète ({max} joueurs au plus).",
    "joined": "Vous avez rejoint la table de {game}.",
    "seat_reclaimed": "{name} est de retour et reprend sa place.",
    "reclaimed": "Bon retour : votre place est à nouveau la vôtre.",
    "game_running": "Une partie est déjà en cours ici et aucune place n'est libre.",
    "takeover_queued": "Vous prendrez la place d'un bot au début de la prochaine manche.",
    "left": "Vous avez quitté la table.",
    "not_seated": "Vous ne jouez pas à cette table.",
    "seat_to_bot_left": "{name} est parti ; {bot} joue à sa place. /join pour revenir.",
    "left_game": "Vous avez quitté la partie ; un bot joue à votre place. /join pour revenir.",
    "left_closed": "Vous êtes parti et la table est fermée (personne d'autre n'était assis).",
    "host_moved": "{name} est maintenant l'hôte.",
    "not_in_lobby": "Ce n'est possible qu'avant le début de la partie.",
    "host_only": "Seul l'hôte peut faire cela.",
    "host_or_admin_only": "Seul l'hôte ou un administrateur du salon peut faire cela.",
    "bot_added": "Un bot a rejoint la table.",
    "no_bot": "Il n'y a pas de bot à retirer.",
    "bot_removed": "Un bot a quitté la table.",
    "already_started": "La partie a déjà commencé.",
    "player_count": "On ne peut pas y jouer à {count} : il faut de {low} à {high} joueurs.",
    "started": "La partie de {game} commence. Votre main arrive en privé.",
    "cancelled_by": "{name} a annulé la table.",
    "cancelled": "La table est annulée.",
    "no_such_player": "Personne du nom de « {name} » ne joue à cette table.",
    "cannot_kick_self": "Vous ne pouvez pas vous exclure vous-même ; utilisez /leave.",
    "kicked": "{name} a été retiré de la table.",
    "kick_done": "{name} n'est plus à la table.",
    "kicked_out": "Vous avez été retiré de cette table ; vous pourrez rejoindre la suivante.",
    "took_over": "{name} prend la place de {bot}.",
    "no_game": "Aucune partie n'est en cours dans ce salon.",
    "bad_button": "Ce bouton ne vient pas de moi.",
    "out_of_date": "Ce message n'est plus à jour : la table a avancé et rien n'a été joué. "
                   "Regardez la table et réessayez.",
    "seat_taken_by_bot": "Un bot joue à votre place ; /join pour la reprendre.",
    "move_done": "C'est fait.",
    "your_turn": "{name}, c'est à vous ({game}).",
    "your_turn_goes_on": "{name}, c'est toujours à vous ({game}).",
    "reminder": "{name}, votre tour se termine dans {seconds} s ; ensuite je joue à votre "
                "place.",
    "afk_move": "{name} a dépassé le temps ; j'ai joué à sa place.",
    "seat_to_bot_afk": "{name} a de nouveau dépassé le temps ; {bot} joue à sa place. "
                       "/join pour revenir.",
    "you_were_replaced": "Vous avez dépassé le temps dans {game} ({title}) ; un bot joue à "
                         "votre place. Utilisez /join là-bas pour la reprendre.",
    "cannot_reach": "Je ne peux pas envoyer sa main à {name} en privé. {name} : ouvrez une "
                    "conversation privée avec moi (ou autorisez les MP), ou appuyez sur « Ma "
                    "main » sur la table ; d'ici là, vos tours suivent le délai.",
    "cannot_reach_waits": "Je ne peux pas envoyer sa main à {name} en privé. {name} : ouvrez "
                          "une conversation privée avec moi (ou autorisez les MP), ou appuyez "
                          "sur « Ma main » sur la table ; d'ici là, la table vous attend.",
    "lobby_title": "🃏 {game} — en attente de joueurs",
    "lobby_players": "Joueurs ({count}, {low}–{high}) :",
    "lobby_host": "hôte",
    "lobby_options": "Options : {options}",
    "lobby_hint": "Rejoignez avec le bouton ou /join ; l'hôte lance avec /start.",
    "table_title": "🃏 {game} — {status}",
    "table_turn": "À jouer : {names}",
    "table_round": "Manche {round}/{rounds}",
    "table_round_open": "Manche {round}",
    "table_seat": "{marker}{name} : {cards}, {score} pts",
    "table_seat_noscore": "{marker}{name} : {cards}",
    "table_last": "Derniers coups :",
    "table_over": "Partie terminée.",
    "table_cancelled": "Cette table a été annulée.",
    "table_closed": "Cette table est fermée.",
    "table_back": "La table est de retour : la partie reprend où elle s'était arrêtée.",
    "hand_title": "🂠 {game} · {title}",
    "hand_cards": "Votre main : {cards}",
    "hand_empty": "Votre main est vide.",
    "hand_your_turn": "▶ À vous. Touchez un coup ou tapez /play …",
    "hand_not_your_turn": "Vos coups apparaîtront ici quand ce sera votre tour.",
    "hand_bot": "Un bot joue à votre place ; /join dans le salon pour la reprendre.",
    "hand_more": "Non affichés : {count} ; tapez /play suivi du coup.",
    "btn_join": "Rejoindre",
    "btn_leave": "Quitter",
    "btn_addbot": "Ajouter un bot",
    "btn_options": "Options",
    "btn_removebot": "Retirer un bot",
    "opt_yes": "oui",
    "opt_no": "non",
    "opt_off": "non",  # /options deadline=non switches deadlines off too
    "opt_random": "au hasard",
    "opt_custom": "personnalisé",
    "opt_default": "par défaut",
    "options_now": "Options : {options}. L'hôte les change avec /options clé=valeur.",
    "options_changed": "Options désormais : {options}.",
    "btn_start": "Lancer",
    "btn_hand": "Ma main",
    "btn_rematch": "Revanche",
    "btn_pass": "Passer",
    "round_over": "La manche {round} est terminée. Points de la manche :",
    "round_line": "{name} : {points} (total {total})",
    "round_over.michigan": "La donne {round} est finie. Un jeton par carte restante, payé à "
                           "qui est sorti :",
    "round_over.ochs-esel": "La manche {round} est terminée. Points de pénalité (le plus petit "
                            "total gagne) :",
    "final_title": "🏁 La partie de {game} est terminée. Classement final :",
    "final_line": "{rank}. {name} — {score}",
    "scores_title": "Scores ({game}) :",
    "scores_line": "{name} : {score}",
    "stats_none": "Aucune partie terminée pour l'instant.",
    "stats_title": "Statistiques de {name} :",
    "stats_line": "{game} : {played} jouées, {wins} gagnées, place moyenne {rank}",
    "refusal.not_your_turn": "Ce n'est pas votre tour : on attend {names}.",
    "refusal.not_your_turn.turn_ended": "Votre main s'est vidée avant la fin de ce message, "
                                        "ce qui a fini votre tour : rien n'a été joué.",
    "refusal.game_over": "La partie est terminée.",
    "refusal.bad_notation": "Je ne comprends pas « {text} » comme un coup.{hint}",
    "refusal.unknown_card": "« {text} » n'est pas une carte de ce jeu.{hint}",
    "refusal.card_not_in_hand": "Vous n'avez pas {cards} en main.",
    "refusal.must_match_count": "Jouez exactement {count}, autant que le premier joueur.",
    "refusal.too_low": "Trop faible : il faut au moins {needed} pour surenchérir.",
    "refusal.too_low.unbeatable": "Rien ne bat des jokers seuls : vous ne pouvez que passer.",
    "refusal.leader_cannot_pass": "Vous menez ce tour : vous devez jouer, pas passer.",
    "refusal.animal_alone": "Jouez {animal} seul, sans autre carte.",
    "refusal.animal_only_leads": "Vous ne pouvez jouer {animal} que pour ouvrir un tour.",
    "refusal.animal_just_received": "Vous venez de recevoir {animal} : vous pourrez le jouer "
                                    "au plus tôt deux tours plus tard.",
    "refusal.must_play_one_card": "Dans ce tour, chacun joue exactement une carte ; "
                                  "on ne passe pas.",
    "refusal.not_a_set": "Un coup se compose de cartes d'une même valeur (les jokers "
                         "s'y joignent) : {cards} ne l'est pas.",
    "refusal.below_minimum": "Posez au moins {needed} ce tour-ci avant de le finir.",
    "refusal.not_playable": "{card} ne peut pas aller sur {pile} (carte du dessus {top}).",
    "refusal.unknown_pile": "« {text} » n'est pas une pile : A1, A2, D1 ou D2.",
    "refusal.unknown_row": "« {text} » n'est pas une ligne : carre, suite4, brelan, suite3, "
                           "paire, suite2, carte ou rien.",
    "refusal.bid_too_low": "Enchérissez d'au moins {min}.",
    "refusal.bid_too_high": "Vous pouvez enchérir au plus {max}.",
    "refusal.joker_limit": "Une combinaison contient un joker au plus.",
    "refusal.joker_single_only": "Au 5e tour (ou comme dernière carte), un joker ne se joue "
                                 "que seul.",
    "refusal.must_change_suit": "Changez de couleur par rapport à {previous} : vous en avez "
                                "une autre.",
    "refusal.no_card_of_suit": "Vous n'avez aucune carte de cette couleur ({suit}).",
    "refusal.none_needs_empty_hand": "« Rien » n'est possible qu'avec une main vide ; il vous "
                                     "reste {hand_size}.",
    "refusal.not_a_combination": "{cards} ne forme pas la ligne {row}.",
    "refusal.not_bidding_phase": "Il n'y a pas d'enchères en cours.",
    "refusal.not_dealer_decision": "C'est la décision du donneur, et ce n'est pas le moment.",
    "refusal.not_playing_phase": "On ne joue pas de cartes en ce moment.",
    "refusal.super_not_allowed": "Le super jeton ne peut pas être utilisé ici.",
    "refusal.super_not_allowed.joker": "Le super jeton ne va qu'avec une combinaison sans "
                                       "joker.",
    "refusal.super_not_allowed.turn_5": "Le super jeton ne se joue pas au 5e tour ; il est posé "
                                        "comme un jeton normal.",
    "refusal.super_used": "Vous avez déjà utilisé votre super jeton cette manche.",
    "refusal.generic": "Ce coup n'est pas permis ({code}).",
    "hint.ochs-esel": "Écrivez les cartes à jouer, par ex. 7 7 J, ou passe ; âne pour jouer "
                      "l'âne.",
    "hint.the-game": "Écrivez une carte et une pile, par ex. 23 A1 (plusieurs : 23 A1, "
                     "77 D2), ou fin.",
    "hint.nix-fur-ungut": "Écrivez la ligne puis les cartes, par ex. paire 5 joker, suite3 "
                          "2 3 4 super, ou rien.",
    "hint.michigan": "Coups : entamer coeur (pique, coeur, carreau, trefle), echanger, "
                     "garder, enchere, encherir 5, passe.",
    "help": "Commandes : /newgame <jeu> [options] · /join · /leave · /start · /play <coup> · "
            "/pass · /hand · /table · /options · /scores · /stats · /rules [jeu] · /cancel · "
            "/kick <joueur> · /lang <en|fr> · /mentions on|off · /help\nJeux : {games}",
    "rules_pick": "Les règles de quel jeu ? {games}",
    "newgame_usage": "Ouvrez une table avec /newgame <jeu> [option=valeur …], par ex. /newgame "
                     "ochs manches=3 boeuf=oui. Jeux :",
    "newgame_game": "• {id} — {name}, {low} à {high} joueurs ; options : {options}",
    "newgame_table_options": "Toute table : deadline=<secondes>|off (300 par défaut), "
                             "bot_delay=<secondes>.",
    "needs_private_chat": "{name} : je ne peux pas encore vous écrire en privé, et c'est là "
                          "que vos cartes arrivent. Ouvrez {link} et appuyez sur Démarrer : vous "
                          "serez assis aussitôt.",
    "needs_private_chat_short": "Ouvrez la conversation privée avec moi et appuyez sur "
                                "Démarrer : vous serez assis.",
    "error_generic": "Quelque chose s'est mal passé de mon côté ; rien n'a changé. Réessayez.",
    "mentions_usage": "Utilisez /mentions on ou /mentions off.",
    "cmd.newgame": "Ouvrir une table : /newgame <jeu> [options]",
    "cmd.join": "Prendre place à la table",
    "cmd.leave": "Quitter la table",
    "cmd.addbot": "Ajouter un joueur bot (hôte)",
    "cmd.removebot": "Retirer un joueur bot du salon d'attente (hôte)",
    "cmd.start": "Lancer la partie (hôte)",
    "cmd.start_private": "Ouvrir la conversation privée où arrivent vos mains",
    "cmd.play": "Jouer un coup : /play <coup>",
    "cmd.pass": "Passer",
    "cmd.hand": "Me renvoyer ma main",
    "cmd.table": "Afficher la table à nouveau",
    "cmd.rules": "Règles : /rules [jeu]",
    "cmd.scores": "Scores de la partie",
    "cmd.stats": "Mes statistiques",
    "cmd.cancel": "Annuler la table (hôte ou admin)",
    "cmd.kick": "Retirer un joueur (hôte ou admin)",
    "cmd.lang": "Langue : /lang en|fr",
    "cmd.options": "Options de la table avant le début : /options clé=valeur (hôte)",
    "cmd.mentions": "Me mentionner quand mon tour commence : /mentions on|off",
    "cmd.help": "Comment jouer avec moi",
    "console_resume": "Reprise de votre partie de {game}.",
    "console_pick_game": "Quel jeu ?",
    "console_options": "Options (par ex. manches=3 boeuf=oui), Entrée pour les valeurs par "
                       "défaut :",
    "console_bots": "Combien d'adversaires bots ({low}–{high}, Entrée pour {default}) ?",
    "console_no_button": "Aucun bouton ne porte ce numéro.",
    "console_bad_bots": "Tapez un nombre de {low} à {high}, ou Entrée.",
    "console_help": "Dans ce terminal : tapez un coup, ou #N pour appuyer sur le bouton N ; "
                    "/quit pour arrêter (la partie est enregistrée).",
    "rules_options": "Options (/newgame <jeu> nom=valeur, ou le bouton Options du salon) :",
    "optdesc.rounds": "nombre de manches, de 1 à 20",
    "optdesc.ox": "oui : la variante du bœuf (le bœuf et l'âne commencent au centre)",
    "optdesc.min_play": "cartes à poser à chaque tour tant qu'il reste une pioche, de 1 à 5 "
                        "(expert : 3)",
    "optdesc.hand_minus_one": "oui : chaque main a une carte de moins (expert)",
    "optdesc.first": "le siège, numéroté comme dans le salon, qui joue en premier",
    "optdesc.personne": "oui : Monsieur Personne joue aussi",
    "optdesc.board": "d'autres valeurs de cases, par ex. board={{\"pair\": [5, 3, 1]}}",
    "optdesc.chips": "jetons de chaque joueur au départ, de 1 à 1000",
    "optdesc.hands_per_player": "nombre de donnes de chaque joueur, de 1 à 10",
    "optdesc.deadline": "temps pour un tour (de 30s à 24h, ou off) ; ensuite le bot joue à "
                        "votre place",
    "optdesc.bot_delay": "secondes qu'un joueur bot attend avant de jouer, de 0 à 30",
    "rules.ochs-esel": "Ochs & Esel (3 à 12 joueurs) : débarrassez-vous de vos cartes. Le "
                       "premier joueur pose une ou plusieurs cartes d'une même valeur ; chaque "
                       "autre joueur, une fois, surenchérit avec autant de cartes strictement "
                       "plus fortes ou passe ; le plus fort ouvre le tour suivant. Un joker "
                       "prend la valeur des cartes qu'il accompagne ; seul, il vaut 14. L'âne "
                       "(20 points de pénalité) ne se joue que seul, pour ouvrir : chacun pose "
                       "alors une carte (joker = 1) et la plus forte prend tout en main. Une "
                       "manche finit après un tour où quelqu'un n'a plus de cartes ; les cartes "
                       "restantes sont des pénalités (valeur, joker 14). Le plus petit total "
                       "gagne. Option boeuf=oui : le bœuf (15) va au gagnant du tour 1, l'âne "
                       "à celui du tour 2 ; un pli de bœuf reste face cachée en pénalité. "
                       "Coups : `7 7 J`, `passe`, `âne`.",
    "rules.the-game": "The Game (1 à 5, coopératif) : posez les 98 cartes sur quatre piles, "
                      "A1 A2 montantes depuis 1 et D1 D2 descendantes depuis 100. À votre tour, "
                      "posez au moins 2 cartes (1 quand la pioche est vide), puis complétez "
                      "votre main. Reculer d'exactement 10 est permis (35 sur 45 en montant, 75 "
                      "sur 65 en descendant). On ne dit pas quelles cartes on a. La partie est "
                      "perdue quand le joueur actif ne peut pas poser son minimum. Coups : "
                      "`23 A1`, `23 A1, 77 D2`, `fin`.",
    "rules.nix-fur-ungut": "Nix für Ungut (2 à 5) : à chaque tour, jouez une combinaison et "
                           "posez un jeton sur sa ligne (carré, suite de 4, brelan, suite de 3, "
                           "paire, suite de 2, carte, rien). Un nouveau jeton pousse ceux de la "
                           "ligne ; celui qui sort ne rapporte rien. Un joker par combinaison au "
                           "plus. Le super jeton double sa case. 4 manches de 5 tours ; le plus "
                           "de points gagne. Coups : `paire 5 joker`, `suite3 2 3 4 super`, "
                           "`rien`.",
    "rules.michigan": "Michigan (3 à 8) : des jetons sur les cartes payantes VP DC RT AC. Le "
                      "donneur peut échanger sa main contre la main supplémentaire, la garder "
                      "ou la mettre aux enchères. Le meneur joue la plus petite carte d'une "
                      "couleur ; qui a la carte suivante de la couleur doit la jouer (je joue "
                      "les cartes forcées pour vous) jusqu'à l'as ou une carte morte ; le "
                      "dernier à jouer relance. Jouer une carte payante rapporte ses jetons ; "
                      "le premier sans cartes reçoit un jeton par carte de chacun. Coups : "
                      "`jouer coeur`, `echanger`, `garder`, `enchere`, `encherir 5`, `passe`.",
    # --- trust-input ---
    "option.too_high": "« {key} » va jusqu'à {high}.",
    "option.too_low": "« {key} » commence à {low}.",
    "option_number_too_long": "Le nombre donné pour « {key} » est trop long : {max} chiffres "
                              "au plus.",
    "option_value_too_long": "La valeur de « {key} » est trop longue : {max} caractères au "
                             "plus.",
    "option_value_too_deep": "La valeur de « {key} » imbrique trop de crochets : {max} "
                             "niveaux au plus.",
    "too_many_options": "Cela fait trop d'options d'un coup : {max} au plus.",
    "move_too_long": "Ce coup est trop long pour que je le lise : {max} caractères au plus.",
    "storage_unavailable": "Je ne peux pas consulter mes registres pour l'instant ; rien n'a "
                           "changé. Réessayez dans un moment.",
    "move_unstorable": "Je ne peux pas enregistrer ce coup ; il n'a pas été joué.",
    "table_unstorable": "Cette table a atteint un résultat que je ne peux pas enregistrer et "
                        "elle est fermée ; rien ne compte après le dernier coup enregistré. "
                        "Ouvrez-en une nouvelle avec /newgame.",
    "table_unrestorable": "Cette table n'a pas pu être restaurée après une mise à jour et elle "
                          "est fermée. Ouvrez-en une nouvelle avec /newgame.",
    "lobby_busy": "La table changeait au même moment ; rien n'a changé. Réessayez.",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "fr": FR}


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_show(v) for v in value)
    return str(value)


def has(lang: str, key: str) -> bool:
    return key in CATALOGUES.get(lang, EN)


def known(lang: str, key: str) -> bool:
    """Whether `t(lang, key)` finds a sentence: the language's own, or the English one."""
    return has(lang, key) or has("en", key)


def number(n: int, *, signed: bool = False) -> str:
    """A number as players read it: a true minus sign (−6) and, `signed`, a plus (+7)."""
    text = f"−{-n}" if n < 0 else str(n)
    return f"+{text}" if signed and n > 0 else text


def count(lang: str, unit: str, n: int) -> str:
    """`1 card`, `3 cards`: `n.<unit>.one` or `n.<unit>`; French takes the singular for 0
    and 1 ("0 carte"), English for 1 only."""
    one = abs(n) < 2 if lang == "fr" else abs(n) == 1
    return t(lang, f"n.{unit}.one" if one else f"n.{unit}", n=number(n))


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence `key` in `lang` (English if missing); a bad template never raises."""
    catalogue = CATALOGUES.get(lang, EN)
    template = catalogue.get(key) or EN.get(key)
    if template is None:
        log.error("missing translation key %s", key)
        return key
    try:
        # format_map consults _Lenient.__missing__, so a forgotten parameter shows "?".
        return template.format_map(_Lenient({k: _show(v) for k, v in params.items()}))
    except (ValueError, IndexError, AttributeError, KeyError):
        log.exception("bad template %s/%s", lang, key)
        return template


def register(extra: dict[str, dict[str, str]]) -> None:
    """Games' renderers add their own sentences (event narration, rules) here."""
    for lang, entries in extra.items():
        CATALOGUES.setdefault(lang, {}).update(entries)
