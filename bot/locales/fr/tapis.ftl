### Tapis: the lobby, tables, hands, refusals, help and rules.

# counts: "1 card", "3 cards" (see `count`)
n--card =
    { $n ->
        [one] { $n } carte
       *[other] { $n } cartes
    }
n--chip =
    { $n ->
        [one] { $n } jeton
       *[other] { $n } jetons
    }
n--move =
    { $n ->
        [one] { $n } coup
       *[other] { $n } coups
    }
# a final score in each game's own unit (final ranking, /scores)
n--score--ochs-esel =
    { $n ->
        [one] { $n } point de pénalité
       *[other] { $n } points de pénalité
    }
n--score--the-game =
    { $n ->
        [one] { $n } carte restante
       *[other] { $n } cartes restantes
    }
n--score--nix-fur-ungut =
    { $n ->
        [one] { $n } point
       *[other] { $n } points
    }
n--score--michigan =
    { $n ->
        [one] { $n } jeton
       *[other] { $n } jetons
    }
# Le nom de chaque jeu tel que les joueurs le connaissent (dans toute phrase qui nomme un jeu).
game--ochs-esel = Ochs & Esel
game--the-game = The Game
game--nix-fur-ungut = Nix für Ungut
game--michigan = Michigan
# languages and settings
lang_unknown = Je parle ces langues : { $langs }.
lang_set_personal = Je vous parlerai en français.
lang_set_channel = Ce salon joue désormais en français.
admin_only = Seul un administrateur du salon peut faire cela.
mentions_on = Je vous mentionnerai quand votre tour commence.
mentions_off = Je ne vous mentionnerai plus quand votre tour commence.
# lobby
unknown_game = Je ne connais pas le jeu « { $text } ». Jeux : { $games }.
bad_option_word = Je ne comprends pas l'option « { $word } » : écrivez clé=valeur, par ex. rounds=3.
bad_table_setting = « { $key }={ $value } » n'est pas un réglage de table valide (deadline : off ou 30–86400 secondes ; bot_delay : 0–30 secondes).
bad_options = Ces options ne conviennent pas : { $message }
bad_deadline_range = Ces options ne conviennent pas : « deadline » va de { $low } à { $high } secondes, ou off.
bad_bot_delay_range = Ces options ne conviennent pas : « bot_delay » va de { $low } à { $high } secondes.
option--unknown_option = { $game } n'a pas d'option « { $key } » (options : { $options }).
option--not_a_number = « { $key } » demande un nombre entier.
option--not_yes_no = « { $key } » demande oui ou non.
option--out_of_range = « { $key } » va de { $low } à { $high }.
option--invalid = « { $key } » ne peut pas prendre cette valeur.
table_exists = Ce salon a déjà une table ({ $game }, { $status }). Terminez-la ou /cancel d'abord.
table_exists_short = Ce salon a déjà une autre table.
status_lobby = en attente de joueurs
status_playing = en cours
status_finished = terminée
status_cancelled = annulée
status_closed = fermée
storage_failed = Je n'ai pas pu enregistrer cela ; rien n'a changé. Réessayez.
lobby_opened = Table de { $game } ouverte. Les autres peuvent /join ; l'hôte lance avec /start.
no_table = Aucune table ouverte dans ce salon. Créez-en une avec /newgame.
already_seated = Vous êtes déjà à cette table.
table_full = La table est complète ({ $max } joueurs au plus).
joined = Vous avez rejoint la table de { $game }.
seat_reclaimed = { $name } est de retour et reprend sa place.
reclaimed = Bon retour : votre place est à nouveau la vôtre.
game_running = Une partie est déjà en cours ici et aucune place n'est libre.
takeover_queued = Vous prendrez la place d'un bot au début de la prochaine manche.
takeover_no_rounds = { $game } se joue sans manches : ses bots gardent leur place jusqu'à la fin de la partie. Vous pourrez rejoindre la suivante.
takeover_last_round = C'est la dernière manche de { $game } : les bots gardent leur place jusqu'à la fin de la partie. Vous pourrez rejoindre la suivante.
takeover_last_round--michigan = C'est la dernière donne de { $game } : les bots gardent leur place jusqu'à la fin de la partie. Vous pourrez rejoindre la suivante.
takeover_full = Chaque place de bot à { $game } est déjà promise à quelqu'un qui attend la prochaine manche. Vous pourrez rejoindre la partie suivante.
left = Vous avez quitté la table.
not_seated = Vous ne jouez pas à cette table.
seat_to_bot_left = { $name } est parti ; { $bot } joue à sa place. /join pour revenir.
seat_to_bot_forgotten = Un joueur est parti ; { $bot } joue à sa place.
left_game = Vous avez quitté la partie ; un bot joue à votre place. /join pour revenir.
left_closed = Vous êtes parti et la table est fermée (personne d'autre n'était assis).
host_moved = { $name } est maintenant l'hôte.
not_in_lobby = Ce n'est possible qu'avant le début de la partie.
host_only = Seul l'hôte peut faire cela.
host_or_admin_only = Seul l'hôte ou un administrateur du salon peut faire cela.
bot_added = Un bot a rejoint la table.
no_bot = Il n'y a pas de bot à retirer.
bot_removed = Un bot a quitté la table.
already_started = La partie a déjà commencé.
player_count =
    { $count ->
        [one] On ne peut pas y jouer à { $count } : il faut de { $low } à { $high } joueurs.
       *[other] On ne peut pas y jouer à { $count } : il faut de { $low } à { $high } joueurs.
    }
started = La partie de { $game } commence. Votre main arrive en privé.
cancelled_by = { $name } a annulé la table.
cancelled = La table est annulée.
no_such_player = Personne du nom de « { $name } » ne joue à cette table.
cannot_kick_self = Vous ne pouvez pas vous exclure vous-même ; utilisez /leave.
kicked = { $name } a été retiré de la table.
kick_done = { $name } n'est plus à la table.
kicked_out = Vous avez été retiré de cette table ; vous pourrez rejoindre la suivante.
took_over = { $name } prend la place de { $bot }.
# moves
no_game = Aucune partie n'est en cours dans ce salon.
bad_button = Ce bouton ne vient pas de moi.
out_of_date = Ce message n'est plus à jour : la table a avancé et rien n'a été joué. Regardez la table et réessayez.
seat_taken_by_bot = Un bot joue à votre place ; /join pour la reprendre.
move_done = C'est fait.
your_turn = { $name }, c'est à vous ({ $game }).
your_turn_goes_on = { $name }, c'est toujours à vous ({ $game }).
reminder = { $name }, votre tour se termine dans { $seconds } s ; ensuite je joue à votre place.
afk_move = { $name } a dépassé le temps ; j'ai joué à sa place.
seat_to_bot_afk = { $name } a de nouveau dépassé le temps ; { $bot } joue à sa place. /join pour revenir.
you_were_replaced = Vous avez dépassé le temps dans { $game } ({ $title }) ; un bot joue à votre place. Utilisez /join là-bas pour la reprendre.
cannot_reach = Je ne peux pas envoyer sa main à { $name } en privé. { $name } : ouvrez une conversation privée avec moi (ou autorisez les MP), ou appuyez sur « Ma main » sur la table ; d'ici là, vos tours suivent le délai.
cannot_reach_waits = Je ne peux pas envoyer sa main à { $name } en privé. { $name } : ouvrez une conversation privée avec moi (ou autorisez les MP), ou appuyez sur « Ma main » sur la table ; d'ici là, la table vous attend.
# rendering
lobby_title = 🃏 { $game } — en attente de joueurs
lobby_players = Joueurs ({ $count }, { $low }–{ $high }) :
lobby_host = hôte
lobby_options = Options : { $options }
lobby_hint = Rejoignez avec le bouton ou /join ; l'hôte lance avec /start.
table_title = 🃏 { $game } — { $status }
table_turn = À jouer : { $names }
table_round = Manche { $round }/{ $rounds }
table_round_open = Manche { $round }
table_seat = { $marker }{ $name } : { $cards }, { $score } pts
table_seat_noscore = { $marker }{ $name } : { $cards }
table_last = Derniers coups :
table_over = Partie terminée.
table_cancelled = Cette table a été annulée.
table_closed = Cette table est fermée.
table_back = La table est de retour : la partie reprend où elle s'était arrêtée.
hand_title = 🂠 { $game } · { $title }
hand_cards = Votre main : { $cards }
hand_empty = Votre main est vide.
hand_your_turn = ▶ À vous. Touchez un coup ou tapez /play …
hand_not_your_turn = Vos coups apparaîtront ici quand ce sera votre tour.
hand_bot = Un bot joue à votre place ; /join dans le salon pour la reprendre.
hand_more = Non affichés : { $count } ; tapez /play suivi du coup.
btn_join = Rejoindre
btn_leave = Quitter
btn_addbot = Ajouter un bot
btn_options = Options
btn_removebot = Retirer un bot
opt_yes = oui
opt_no = non
opt_off = non
opt_random = au hasard
opt_custom = personnalisé
opt_default = par défaut
options_now = Options : { $options }. L'hôte les change avec /options clé=valeur.
options_changed = Options désormais : { $options }.
btn_start = Lancer
btn_hand = Ma main
btn_rematch = Revanche
btn_pass = Passer
round_over = La manche { $round } est terminée. Points de la manche :
round_line = { $name } : { $points } (total { $total })
# Only the settlement of cards left: pay cards and antes moved chips during the deal.
round_over--michigan = La donne { $round } est finie. Un jeton par carte restante, payé à qui est sorti ; totaux avant les mises de la donne suivante :
round_over--michigan--last = La dernière donne ({ $round }) est finie. Un jeton par carte restante, payé à qui est sorti ; totaux de fin de partie :
round_over--ochs-esel = La manche { $round } est terminée. Points de pénalité (le plus petit total gagne) :
final_title = 🏁 La partie de { $game } est terminée. Classement final :
final_line = { $rank }. { $name } — { $score }
scores_title = Scores ({ $game }) :
scores_line = { $name } : { $score }
stats_none = Aucune partie terminée pour l'instant.
stats_title = Statistiques de { $name } :
stats_line = { $game } : { $played } jouées, { $wins } gagnées, place moyenne { $rank }
# refusals (engine codes)
refusal--not_your_turn = Ce n'est pas votre tour : on attend { $names }.
refusal--not_your_turn--turn_ended = Votre main s'est vidée avant la fin de ce message, ce qui a fini votre tour : rien n'a été joué.
refusal--game_over = La partie est terminée.
refusal--bad_notation = Je ne comprends pas « { $text } » comme un coup.{ $hint }
refusal--unknown_card = « { $text } » n'est pas une carte de ce jeu.{ $hint }
refusal--card_not_in_hand = Vous n'avez pas { $cards } en main.
refusal--must_match_count = Jouez exactement { $count }, autant que le premier joueur.
refusal--too_low = Trop faible : il faut au moins { $needed } pour surenchérir.
refusal--too_low--unbeatable = Rien ne bat des jokers seuls : vous ne pouvez que passer.
refusal--leader_cannot_pass = Vous menez ce tour : vous devez jouer, pas passer.
refusal--animal_alone = Jouez { $animal } seul, sans autre carte.
refusal--animal_only_leads = Vous ne pouvez jouer { $animal } que pour ouvrir un tour.
refusal--animal_just_received = Vous venez de recevoir { $animal } : vous pourrez le jouer au plus tôt deux tours plus tard.
refusal--must_play_one_card = Dans ce tour, chacun joue exactement une carte ; on ne passe pas.
refusal--not_a_set = Un coup se compose de cartes d'une même valeur (les jokers s'y joignent) : { $cards } ne l'est pas.
refusal--below_minimum = Posez au moins { $needed } ce tour-ci avant de le finir.
refusal--not_playable = { $card } ne peut pas aller sur { $pile } (carte du dessus { $top }).
refusal--unknown_pile = « { $text } » n'est pas une pile : A1, A2, D1 ou D2.
refusal--unknown_row = « { $text } » n'est pas une ligne : carre, suite4, brelan, suite3, paire, suite2, carte ou rien.
refusal--bid_too_low = Enchérissez d'au moins { $min }.
refusal--bid_too_high = Vous pouvez enchérir au plus { $max }.
refusal--joker_limit = Une combinaison contient un joker au plus.
refusal--joker_single_only = Au 5e tour (ou comme dernière carte), un joker ne se joue que seul.
refusal--must_change_suit = Changez de couleur par rapport à { $previous } : vous en avez une autre.
refusal--no_card_of_suit = Vous n'avez aucune carte de cette couleur ({ $suit }).
refusal--none_needs_empty_hand = « Rien » n'est possible qu'avec une main vide ; il vous reste { $hand_size }.
refusal--not_a_combination = { $cards } ne forme pas la ligne { $row }.
refusal--not_bidding_phase = Il n'y a pas d'enchères en cours.
refusal--not_dealer_decision = C'est la décision du donneur, et ce n'est pas le moment.
refusal--not_playing_phase = On ne joue pas de cartes en ce moment.
refusal--super_not_allowed = Le super jeton ne peut pas être utilisé ici.
refusal--super_not_allowed--joker = Le super jeton ne va qu'avec une combinaison sans joker.
refusal--super_not_allowed--turn_5 = Le super jeton ne se joue pas au 5e tour ; il est posé comme un jeton normal.
refusal--super_used = Vous avez déjà utilisé votre super jeton cette manche.
refusal--generic = Ce coup n'est pas permis ({ $code }).
# after a move that could not be read ({hint} above, with its leading space): how to
# write one in that game
hint--ochs-esel = Écrivez les cartes à jouer, par ex. 7 7 J, ou passe ; D pour jouer l'âne.
hint--the-game = Écrivez une carte et une pile, par ex. 23 A1 (plusieurs : 23 A1, 77 D2), ou fin.
hint--nix-fur-ungut = Écrivez la ligne puis les cartes, par ex. paire 5 joker, suite3 2 3 4 super, ou rien.
hint--michigan = Coups : entamer coeur (pique, coeur, carreau, trefle), echanger, garder, enchere, encherir 5, passe.
# help and rules
help =
    Commandes : /newgame <jeu> [options] · /join · /leave · /start · /play <coup> · /pass · /hand · /table · /options · /scores · /stats · /rules [jeu] · /cancel · /kick <joueur> · /lang <de|en|fr> · /mentions on|off · /help
    Jeux : { $games }
rules_pick = Les règles de quel jeu ? { $games }
newgame_usage = Ouvrez une table avec /newgame <jeu> [option=valeur …], par ex. /newgame ochs rounds=3 ox=oui. Jeux :
newgame_game = • { $id } — { $name }, { $low } à { $high } joueurs ; options : { $options }
newgame_table_options = Toute table : deadline=<secondes>|off (300 par défaut), bot_delay=<secondes>, rated=non pour une partie amicale (non classée).
needs_private_chat = { $name } : je ne peux pas encore vous écrire en privé, et c'est là que vos cartes arrivent. Ouvrez { $link } et appuyez sur Démarrer : vous serez assis aussitôt.
needs_private_chat_short = Ouvrez la conversation privée avec moi et appuyez sur Démarrer : vous serez assis.
error_generic = Quelque chose s'est mal passé de mon côté ; rien n'a changé. Réessayez.
mentions_usage = Utilisez /mentions on ou /mentions off.
cmd--newgame = Ouvrir une table : /newgame <jeu> [options]
cmd--join = Prendre place à la table
cmd--leave = Quitter la table
cmd--addbot = Ajouter un joueur bot (hôte)
cmd--removebot = Retirer un joueur bot du salon d'attente (hôte)
cmd--start = Lancer la partie (hôte)
cmd--start_private = Ouvrir la conversation privée où arrivent vos mains
cmd--play = Jouer un coup : /play <coup>
cmd--pass = Passer
cmd--hand = Me renvoyer ma main
cmd--table = Afficher la table à nouveau
cmd--rules = Règles : /rules [jeu]
cmd--scores = Scores de la partie
cmd--stats = Mes statistiques
cmd--cancel = Annuler la table (hôte ou admin)
cmd--kick = Retirer un joueur (hôte ou admin)
cmd--lang = Langue : /lang de|en|fr
cmd--options = Options de la table avant le début : /options clé=valeur (hôte)
cmd--mentions = Me mentionner quand mon tour commence : /mentions on|off
cmd--help = Comment jouer avec moi
console_resume = Reprise de votre partie de { $game }.
console_pick_game = Quel jeu ?
console_options = Options (par défaut : { $defaults }), Entrée pour les garder :
console_bots = Combien d'adversaires bots ({ $low }–{ $high }, Entrée pour { $default }) ?
console_no_button = Aucun choix ne porte ce numéro dans la liste ci-dessus.
console_bad_bots = Tapez un nombre de { $low } à { $high }, ou Entrée.
console_help = Dans ce terminal : tapez un coup, ou #N pour appuyer sur le bouton N ; /quit pour arrêter (la partie est enregistrée).
rules_options = Options (/newgame <jeu> nom=valeur, ou le bouton Options du salon) :
optdesc--rounds = nombre de manches, de 1 à 20
optdesc--ox = oui : la variante du bœuf (le bœuf et l'âne commencent au centre)
optdesc--min_play = cartes à poser à chaque tour tant qu'il reste une pioche, de 1 à 5 (expert : 3)
optdesc--hand_minus_one = oui : chaque main a une carte de moins (expert)
optdesc--first = le siège, numéroté comme dans le salon, qui joue en premier
optdesc--personne = oui : Monsieur Personne joue aussi
optdesc--board = d'autres valeurs de cases, par ex. board={ "{" }"pair": [5, 3, 1]{ "}" }
optdesc--chips = jetons de chaque joueur au départ, de 1 à 1000
optdesc--hands_per_player = nombre de donnes de chaque joueur, de 1 à 10
optdesc--deadline = temps pour un tour (de 30s à 24h, ou off) ; ensuite le bot joue à votre place
optdesc--bot_delay = secondes qu'un joueur bot attend avant de jouer, de 0 à 30
rules--ochs-esel = Ochs & Esel (3 à 12 joueurs) : débarrassez-vous de vos cartes. Le premier joueur pose une ou plusieurs cartes d'une même valeur ; chaque autre joueur, une fois, surenchérit avec autant de cartes strictement plus fortes ou passe ; le plus fort ouvre le tour suivant. Un joker prend la valeur des cartes qu'il accompagne ; seul, il vaut 14. L'âne (20 points de pénalité) ne se joue que seul, pour ouvrir : chacun pose alors une carte (joker = 1) et la plus forte prend tout en main. Une manche finit après un tour où quelqu'un n'a plus de cartes ; les cartes restantes sont des pénalités (valeur, joker 14). Le plus petit total gagne. Option ox=oui : le bœuf (15) va au gagnant du tour 1, l'âne à celui du tour 2 ; un pli de bœuf reste face cachée en pénalité. Coups : `7 7 J`, `passe`, `D` (jouer l'âne).
rules--the-game = The Game (1 à 5, coopératif) : posez les 98 cartes sur quatre piles, A1 A2 montantes depuis 1 et D1 D2 descendantes depuis 100. À votre tour, posez au moins 2 cartes (1 quand la pioche est vide), puis complétez votre main. Reculer d'exactement 10 est permis (35 sur 45 en montant, 75 sur 65 en descendant). On ne dit pas quelles cartes on a. La partie est perdue quand le joueur actif ne peut pas poser son minimum. Coups : `23 A1`, `23 A1, 77 D2`, `fin`. Signaux, à tout moment : `signal A1 stop` (ne jouez pas ici), `signal D2 petit` (pas de gros saut ici), `signal A1 retirer`.
rules--nix-fur-ungut = Nix für Ungut (2 à 5) : à chaque tour, jouez une combinaison et posez un jeton sur sa ligne : carré, suite4 (4 qui se suivent), brelan, suite3, paire, suite2, carte (une seule), rien (plus de cartes). Un nouveau jeton pousse ceux de la ligne ; celui qui sort ne rapporte rien. Un joker par combinaison au plus. Le super jeton double sa case. 4 manches de 5 tours ; le plus de points gagne. Avec personne=oui, Monsieur Personne joue depuis la pioche et est classé aussi, mais n'est pas un joueur : la meilleure des personnes gagne. Coups : `paire 5 joker`, `suite3 2 3 4 super`, `rien`.
rules--michigan = Michigan (3 à 8) : des jetons sur les cartes payantes VP DC RT AC. Le donneur peut échanger sa main contre la main supplémentaire, la garder ou la mettre aux enchères (une mise ne dépasse pas vos jetons ; qui ne peut surenchérir passe). Le meneur joue la plus petite carte d'une couleur ; qui a la carte suivante de la couleur doit la jouer (je joue les cartes forcées pour vous) jusqu'à l'as ou une carte morte ; le dernier à jouer relance. Jouer une carte payante rapporte ses jetons ; le premier sans cartes reçoit un jeton par carte de chacun. Coups : `jouer coeur`, `echanger`, `garder`, `enchere`, `encherir 5`, `passe`.

## Imported from i18n.py

# --- trust-input ---
option--too_high = « { $key } » va jusqu'à { $high }.
option--too_low = « { $key } » commence à { $low }.
option_number_too_long = Le nombre donné pour « { $key } » est trop long : { $max } chiffres au plus.
option_value_too_long = La valeur de « { $key } » est trop longue : { $max } caractères au plus.
option_value_too_deep = La valeur de « { $key } » imbrique trop de crochets : { $max } niveaux au plus.
too_many_options = Cela fait trop d'options d'un coup : { $max } au plus.
move_too_long = Ce coup est trop long pour que je le lise : { $max } caractères au plus.
storage_unavailable = Je ne peux pas consulter mes registres pour l'instant ; rien n'a changé. Réessayez dans un moment.
move_unstorable = Je ne peux pas enregistrer ce coup ; il n'a pas été joué.
table_unstorable = Cette table a atteint un résultat que je ne peux pas enregistrer et elle est fermée ; rien ne compte après le dernier coup enregistré. Ouvrez-en une nouvelle avec /newgame.
table_unrestorable = Cette table n'a pas pu être restaurée après une mise à jour et elle est fermée. Ouvrez-en une nouvelle avec /newgame.
lobby_busy = La table changeait au même moment ; rien n'a changé. Réessayez.
# --- service ---
former_player = un ancien joueur
cmd--forgetme = Effacer ce que je garde sur vous
cmd--mydata = Recevoir ce que je garde sur vous, en fichier
forget_ask = Cela efface vos réglages et votre langue, et votre nom de toutes les tables et de tous les résultats que je garde (les scores restent, au nom d'« un ancien joueur », pour que les statistiques des autres restent entières). Si vous jouez en ce moment, un bot prend votre place. Vos propres statistiques seront perdues. Vous êtes sûr ?
btn_forget = Oui, oubliez-moi
btn_keep = Non, gardez mes données
forget_done = C'est fait : je ne garde plus votre nom, vos réglages ni votre langue. Si vous rejouez plus tard, tout repart de zéro.
forget_kept = Rien n'a été effacé.
forget_expired = Cette confirmation a expiré ; envoyez de nouveau /forgetme.
forget_too_soon = Vous m'avez demandé de vous oublier il y a moins d'une minute, donc rien n'a changé cette fois ; vous pourrez le redemander dans { $seconds ->
        [one] une seconde
       *[other] { $seconds } secondes
    }.
private_only = Envoyez-moi cela en privé : la réponse ne concerne que vous.
group_only = Les tables se jouent dans un groupe ou l'un de ses sujets : ajoutez-moi à un groupe et tapez cela là-bas. Ici, en privé, vous recevez vos mains.
as_yourself = Écrivez cela en votre nom, pas au nom d'une chaîne ni en administrateur anonyme : j'installe des personnes à la table et leur distribue des cartes. Rien n'a été changé.
cannot_post_here = Je n'ai pas le droit d'envoyer des messages dans « { $chat } » (ni dans ce sujet, s'il est fermé) : je ne peux donc pas y afficher de table et je n'en ai ouvert aucune. Un administrateur peut me donner ce droit ou rouvrir le sujet ; tapez ensuite la commande de nouveau. Rien n'a été changé.
mydata_caption = Tout ce que je garde sur vous, en JSON.
mydata_failed = Je n'ai pas pu lire vos données ; réessayez dans un instant.
mydata_too_soon = Vous avez demandé vos données il y a moins d'une minute ; vous pourrez les redemander dans { $seconds ->
        [one] une seconde
       *[other] { $seconds } secondes
    }.
help_privacy = Vos données : /mydata vous envoie ce que je garde sur vous, /forgetme l'efface (en privé avec moi).
# --- screens ---
error_after_change = Quelque chose s'est mal passé de mon côté après l'enregistrement de votre action : elle est bien prise en compte, la table montre où en est la partie.
# --- trust-authority ---
button_elsewhere = Ce bouton appartient à une table d'une autre discussion : il ne fait rien ici.
button_not_your_hand = Ce bouton n'est pas sur votre main pour cette table : utilisez les boutons de votre dernier message de main.
rights_unknown = Je n'ai pas pu vérifier vos droits pour l'instant ; réessayez dans un instant. Rien n'a été changé.
bad_link = Ce lien ne mène à aucune table : demandez-en un nouveau dans la discussion de la table.
not_a_member = Seuls les membres de la discussion de la table peuvent s'y asseoir : rejoignez-la d'abord.
# --- console ---
stats_line_team = { $game } : { $played } jouées, { $wins } gagnées, { $lost } perdues (en équipe)
refusal--card_not_in_hand--short = Pas assez de { $card } : vous en avez { $held }, { $played } en demande { $wanted }.
refusal--too_low--short = Pas assez de { $card } : vous en avez { $held }, { $played } en demande { $wanted } (et il faudrait au moins { $needed } pour surenchérir).
word--1 = un
word--2 = deux
word--3 = trois
word--4 = quatre
word--5 = cinq
word--6 = six
word--7 = sept
word--8 = huit
word--9 = neuf
word--10 = dix
word--11 = onze
word--12 = douze
option--bad_entry = « { $key } » : « { $item } » n'est pas parmi { $allowed }.
option--wrong_length = « { $key } » : { $item } prend exactement { $length } valeurs.
option--too_small = « { $key } » : les valeurs de { $item } doivent valoir au moins { $low }.
option--bad_shape = « { $key } » s'écrit comme { $key }={ $example }.
option--entry_not_a_number = « { $key } » : les valeurs de { $item } doivent être des nombres entiers.
final_extra_ahead = { $extra } n'est pas un joueur : parmi les personnes, { $names } l'emporte.

## Imported from bots_i18n.py

# --- bots ---
refusal--no_signal_to_withdraw = Vous n'avez pas de signal sur { $pile } à retirer.
refusal--signal_already_given = Vous avez déjà donné ce signal sur { $pile }.
refusal--unknown_signal = « { $text } » n'est pas un signal : écrivez stop (ne jouez pas ici), petit (pas de gros saut ici) ou off, par ex. signal A1 stop.
bad_bots_level = « bots={ $value } » n'est pas un niveau de bot ; niveaux : { $levels }.
bots--easy = facile
bots--strong = fort
optdesc--bots = le jeu des bots de la table (bots ajoutés et remplaçants des absents) : easy (facile) ou strong (fort)
