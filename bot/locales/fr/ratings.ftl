### Classements : /leaderboard, /rating, les nouvelles cotes du classement final, les records d'équipe.

n--game =
    { $n ->
        [one] { $n } partie
       *[other] { $n } parties
    }
cmd--leaderboard = Les meilleurs joueurs du groupe : /leaderboard [jeu] [saison]
cmd--rating = Les cotes d'un joueur ici : /rating [joueur]
final_rating = { $name } { $rating } ({ $change })
leaderboard_title = 🏆 { $game }, saison { $season } :
leaderboard_line = { $place }. { $name } — { $rating } ({ $games })
leaderboard_you = Vous : { $place }. { $name } — { $rating } ({ $games })
leaderboard_empty = Personne n'est encore classé à { $game } pour la saison { $season } : un joueur apparaît après { $needed } parties classées.
leaderboard_listed = { $listed } joueurs classés ; un joueur apparaît après { $needed } parties classées.
records_title = 🏆 { $game } : les records d'équipe du groupe
records_line = { $players } joueurs, { $rules } : meilleur score { $best } restantes, { $perfect } parfaites, { $under } sous 10, série { $streak } (record { $best_streak }), { $games } jouées
records_team = Meilleure partie : { $names }
records_none = Ce groupe n'a encore aucune partie de { $game } terminée.
rules--standard = règles normales
rules--expert = règle expert
rating_title = Cotes de { $name } dans ce groupe, saison { $season } :
rating_line = { $game } : { $rating } après { $games }, { $trend } cette saison
rating_none = { $name } n'a aucune partie classée dans ce groupe pour la saison { $season }.
ratings--unknown_game = Je ne connais pas le jeu « { $text } ». Classés ici : { $games }.
ratings--unknown_season = Il n'y a pas de saison « { $text } » dans ce groupe. Saisons avec des parties classées : { $seasons }.
ratings--no_seasons = Ce groupe n'a encore aucune partie classée, donc aucune saison à montrer.
ratings--not_in_community = { $name } n'a joué aucune partie classée dans ce groupe.
ratings--private_chat = Un classement appartient à un groupe : demandez-le dans le groupe ou le serveur où vous jouez.
help_ratings =
    Classements : /leaderboard [jeu] [saison] montre les 10 meilleurs du groupe, /rating [joueur] les cotes d'un joueur ; une partie contre des bots compte, une partie amicale ouverte avec rated=no non. Chacun commence une saison à { $start }.
    La cote est une estimation prudente (votre niveau moins trois fois le doute qui l'entoure) : elle bouge surtout quand vous débutez. Une dernière place ne la fait jamais monter ; une égalité avec un joueur plus fort le peut.
final_ratings = Nouveaux classements :
ratings--several = Plusieurs joueurs d'ici ont joué sous le nom « { $name } » : répondez à un message de celui que vous voulez dire.
# the table option rated=yes|no
bad_rated = « rated={ $value } » n'est ni oui ni non.
optdesc--rated = oui : la partie compte pour le classement du groupe ; non : une partie amicale
