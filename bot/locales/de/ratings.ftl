### Wertungen: /leaderboard, /rating, die neuen Wertungen der Schlusswertung, Teamrekorde.

n--game =
    { $n ->
        [one] { $n } Partie
       *[other] { $n } Partien
    }
cmd--leaderboard = Die besten Spieler der Gruppe: /leaderboard [Spiel] [Saison]
cmd--rating = Die Wertungen eines Spielers hier: /rating [Spieler]
final_rating = { $name } { $rating } ({ $change })
leaderboard_title = 🏆 { $game }, Saison { $season }:
leaderboard_line = { $place }. { $name } — { $rating } ({ $games })
leaderboard_you = Du: { $place }. { $name } — { $rating } ({ $games })
leaderboard_empty = In der Saison { $season } steht noch niemand in der Rangliste von { $game }: Ein Spieler erscheint nach { $needed } gewerteten Partien.
leaderboard_listed = { $listed } Spieler in der Rangliste; ein Spieler erscheint nach { $needed } gewerteten Partien.
records_title = 🏆 { $game }: die Teamrekorde der Gruppe
records_line = { $players } Spieler, { $rules }: bestes Ergebnis { $best } übrig, { $perfect } perfekt, { $under } unter 10, Serie { $streak } (Rekord { $best_streak }), { $games } gespielt
records_team = Beste Partie: { $names }
records_none = Diese Gruppe hat noch keine beendete Partie { $game }.
rules--standard = normale Regeln
rules--expert = Expertenregel
rating_title = Wertungen von { $name } in dieser Gruppe, Saison { $season }:
rating_line = { $game }: { $rating } nach { $games }, { $trend } in dieser Saison
rating_none = { $name } hat in der Saison { $season } keine gewertete Partie in dieser Gruppe.
ratings--unknown_game = Das Spiel „{ $text }“ kenne ich nicht. Hier gewertet: { $games }.
ratings--unknown_season = Eine Saison „{ $text }“ gibt es in dieser Gruppe nicht. Saisons mit gewerteten Partien: { $seasons }.
ratings--no_seasons = Diese Gruppe hat noch keine gewertete Partie, also auch keine Saison.
ratings--not_in_community = { $name } hat in dieser Gruppe keine gewertete Partie gespielt.
ratings--private_chat = Eine Rangliste gehört zu einer Gruppe: Frag in der Gruppe oder auf dem Server, wo du spielst.
help_ratings =
    Wertungen: /leaderboard [Spiel] [Saison] zeigt die besten 10 der Gruppe, /rating [Spieler] die Zahlen eines Spielers; eine Partie gegen Bots zählt, eine freundschaftliche mit rated=no nicht. Jede Saison beginnt für alle bei { $start }.
    Die Zahl ist eine vorsichtige Schätzung (dein Können minus dreimal der Zweifel daran), darum bewegt sie sich am Anfang am meisten. Ein letzter Platz hebt sie nie; ein Unentschieden gegen einen Stärkeren kann es.
final_ratings = Neue Wertungszahlen:
ratings--several = Mehrere Spieler hier haben als „{ $name }“ gespielt: Antworte auf eine Nachricht des Gemeinten.
# the table option rated=yes|no
bad_rated = „rated={ $value }“ ist weder ja noch nein.
optdesc--rated = ja: die Partie zählt für die Wertung der Gruppe; nein: eine Freundschaftspartie
