"""The console's own wording: a terminal has one player at a keyboard, no channel, no
private chat and no buttons to tap, so the chat sentences that say so are replaced here
(see `bot.i18n.DIALECT`); every other sentence is the chat one."""

from bot.i18n import register, register_dialect

DIALECT = "console"

register_dialect(DIALECT, {
    "en": {
        "lobby_opened": "Table for {game} opened.",
        "no_table": "There is no open table. Start one with /newgame <game>.",
        "no_game": "No game is being played. Start one with /newgame <game>.",
        "started": "{game} has started. When it is your turn, your hand and your moves are "
                   "shown last, right above where you type.",
        "lobby_hint": "Type #N for a numbered choice below; /start starts the game.",
        "hand_your_turn": "▶ Your turn. Type a move's number (#1) or the move itself.",
        "hand_not_your_turn": "Not your turn yet.",
        "hand_bot": "A bot plays your seat; type /join to take it back.",
        "seat_taken_by_bot": "A bot plays your seat now; type /join to take it back.",
        "left_game": "You left the game; a bot plays your seat. Type /join to come back.",
        "table_exists": "A table is already open ({game}, {status}). Finish it or /cancel "
                        "it first.",
        "table_exists_short": "Another table is already open.",
        "bad_button": "There is no choice with that number.",
        "host_or_admin_only": "Only the host can do that.",
        "lang_set_channel": "The console now speaks English.",
        "rules_options": "Options (/newgame <game> name=value, or /options name=value before "
                         "the start):",
        "options_now": "Options: {options}. Change them before the start with "
                       "/options key=value.",
        "rules_pick": "Rules of which game? Type /rules <game>: {games}",
        "help": "Type a move (e.g. 7 7 J, pass, 23 A1, pair 5 J, lead H), or #N for a "
                "numbered choice.\nCommands: /hand · /table · /scores · /stats · "
                "/leaderboard [game] [season] · /rating [player] · "
                "/rules [game] · /options [key=value] · /addbot · /removebot · /start · "
                "/join · /leave · /cancel · /newgame <game> [options] · /lang de|en|fr · "
                "/help · /quit\nSignals in The Game, at any time: signal A1 stop · "
                "signal A1 small (no big jump) · signal A1 off.\nGames: {games}",
    },
    "fr": {
        "lobby_opened": "Table de {game} ouverte.",
        "no_table": "Aucune table ouverte. Créez-en une avec /newgame <jeu>.",
        "no_game": "Aucune partie en cours. Lancez-en une avec /newgame <jeu>.",
        "started": "La partie de {game} commence. À votre tour, votre main et vos coups "
                   "s'affichent en dernier, juste au-dessus de la saisie.",
        "lobby_hint": "Tapez #N pour un choix numéroté ci-dessous ; /start lance la partie.",
        "hand_your_turn": "▶ À vous. Tapez le numéro d'un coup (#1) ou le coup lui-même.",
        "hand_not_your_turn": "Ce n'est pas encore votre tour.",
        "hand_bot": "Un bot joue à votre place ; tapez /join pour la reprendre.",
        "seat_taken_by_bot": "Un bot joue à votre place ; tapez /join pour la reprendre.",
        "left_game": "Vous avez quitté la partie ; un bot joue à votre place. Tapez /join "
                     "pour revenir.",
        "table_exists": "Une table est déjà ouverte ({game}, {status}). Terminez-la ou "
                        "annulez-la d'abord avec /cancel.",
        "table_exists_short": "Une autre table est déjà ouverte.",
        "bad_button": "Aucun choix ne porte ce numéro.",
        "host_or_admin_only": "Seul l'hôte peut faire cela.",
        "lang_set_channel": "La console parle désormais français.",
        "rules_options": "Options (/newgame <jeu> nom=valeur, ou /options nom=valeur avant "
                         "le début) :",
        "options_now": "Options : {options}. Changez-les avant le début avec "
                       "/options clé=valeur.",
        "rules_pick": "Les règles de quel jeu ? Tapez /rules <jeu> : {games}",
        "help": "Tapez un coup (par ex. 7 7 J, passe, 23 A1, paire 5 J, jouer coeur), ou #N "
                "pour un choix numéroté.\nCommandes : /hand · /table · /scores · /stats · "
                "/leaderboard [jeu] [saison] · /rating [joueur] · "
                "/rules [jeu] · /options [clé=valeur] · /addbot · /removebot · /start · "
                "/join · /leave · /cancel · /newgame <jeu> [options] · /lang de|en|fr · "
                "/help · /quit\nSignaux dans The Game, à tout moment : signale A1 attends · "
                "signale A1 petit (pas de gros saut) · signale A1 retire.\nJeux : {games}",
    },
    "de": {
        "lobby_opened": "Tisch für {game} eröffnet.",
        "no_table": "Es gibt keinen offenen Tisch. Eröffne einen mit /newgame <spiel>.",
        "no_game": "Es läuft kein Spiel. Starte eins mit /newgame <spiel>.",
        "started": "{game} hat begonnen. Wenn du dran bist, stehen deine Hand und deine Züge "
                   "ganz unten, direkt über der Eingabe.",
        "lobby_hint": "Schreib #N für eine nummerierte Auswahl unten; /start startet das Spiel.",
        "hand_your_turn": "▶ Du bist dran. Schreib die Nummer eines Zugs (#1) oder den Zug "
                          "selbst.",
        "hand_not_your_turn": "Du bist noch nicht dran.",
        "hand_bot": "Ein Bot spielt deinen Platz; schreib /join, um ihn zurückzunehmen.",
        "seat_taken_by_bot": "Ein Bot spielt jetzt deinen Platz; schreib /join, um ihn "
                             "zurückzunehmen.",
        "left_game": "Du hast das Spiel verlassen; ein Bot spielt deinen Platz. Schreib /join, "
                     "um zurückzukommen.",
        "table_exists": "Es ist schon ein Tisch offen ({game}, {status}). Beende ihn oder brich "
                        "ihn zuerst mit /cancel ab.",
        "table_exists_short": "Es ist schon ein anderer Tisch offen.",
        "bad_button": "Es gibt keine Auswahl mit dieser Nummer.",
        "host_or_admin_only": "Das kann nur der Gastgeber.",
        "lang_set_channel": "Die Konsole spricht jetzt Deutsch.",
        "rules_options": "Optionen (/newgame <spiel> name=wert, oder /options name=wert vor "
                         "Spielbeginn):",
        "options_now": "Optionen: {options}. Ändere sie vor Spielbeginn mit /options "
                       "schlüssel=wert.",
        "rules_pick": "Die Regeln welches Spiels? Schreib /rules <spiel>: {games}",
        "help": "Schreib einen Zug (z. B. 7 7 J, passen, 23 A1, paar 5 J, ausspielen herz) "
                "oder #N für eine nummerierte Auswahl.\nBefehle: /hand · /table · /scores · "
                "/leaderboard [spiel] [saison] · /rating [spieler] · "
                "/stats · /rules [spiel] · /options [schlüssel=wert] · /addbot · /removebot · "
                "/start · /join · /leave · /cancel · /newgame <spiel> [optionen] · "
                "/lang de|en|fr · /help · /quit\nSignale in The Game, jederzeit: sag A1 stopp · "
                "sag A1 vorsicht (kein großer Sprung) · sag A1 zurück.\nSpiele: {games}",
    },
})

# Sentences only the console says.
register({
    "en": {
        "console_saved": "Game saved — run again to resume.",
        "console_bye": "Goodbye.",
        "console_too_long": "That line is too long ({length} characters); a move or a "
                            "command is a few words.",
        "console_your_moves": "Your moves:",
        "console_choices": "Choices:",
        "console_options_again": "Options again (Enter for the defaults):",
        "console_options_change": "Which options instead (e.g. first=1)?",
        "console_unknown_command": "I don't know the command “{command}”; /help lists them.",
    },
    "fr": {
        "console_saved": "Partie enregistrée — relancez pour la reprendre.",
        "console_bye": "Au revoir.",
        "console_too_long": "Cette ligne est trop longue ({length} caractères) ; un coup ou "
                            "une commande tient en quelques mots.",
        "console_your_moves": "Vos coups :",
        "console_choices": "Choix :",
        "console_options_again": "Les options, à nouveau (Entrée pour celles par défaut) :",
        "console_options_change": "Quelles options à la place (par ex. first=1) ?",
        "console_unknown_command": "Je ne connais pas la commande « {command} » ; /help "
                                   "les liste.",
    },
    "de": {
        "console_saved": "Spiel gespeichert — starte neu, um weiterzuspielen.",
        "console_bye": "Tschüss.",
        "console_too_long": "Diese Zeile ist zu lang ({length} Zeichen); ein Zug oder ein "
                            "Befehl sind ein paar Wörter.",
        "console_your_moves": "Deine Züge:",
        "console_choices": "Auswahl:",
        "console_options_again": "Noch einmal die Optionen (Enter für die Standardwerte):",
        "console_options_change": "Welche Optionen stattdessen (z. B. first=1)?",
        "console_unknown_command": "Den Befehl „{command}“ kenne ich nicht; /help zeigt "
                                   "alle.",
    },
})
