### Ratings: /leaderboard, /rating, the final ranking's new ratings, team records.

n--game =
    { $n ->
        [one] { $n } game
       *[other] { $n } games
    }
cmd--leaderboard = This group's best players: /leaderboard [game] [season]
cmd--rating = A player's ratings here: /rating [player]
# the final ranking of a rated game: a person's new rating and its change, "Ana 1,512 (+14)"
final_rating = { $name } { $rating } ({ $change })
leaderboard_title = 🏆 { $game }, season { $season }:
leaderboard_line = { $place }. { $name } — { $rating } ({ $games })
leaderboard_you = You: { $place }. { $name } — { $rating } ({ $games })
leaderboard_empty = Nobody is on the { $game } ladder of season { $season } yet: a player is listed after { $needed } rated games.
leaderboard_listed = { $listed } players listed; a player appears after { $needed } rated games.
records_title = 🏆 { $game }: this group's team records
records_line = { $players } players, { $rules }: best { $best } left, { $perfect } perfect, { $under } under 10, streak { $streak } (best { $best_streak }), { $games } played
records_team = Best game: { $names }
records_none = This group has no finished { $game } game on record yet.
rules--standard = standard rules
rules--expert = expert rule
rating_title = Ratings of { $name } in this group, season { $season }:
rating_line = { $game }: { $rating } after { $games }, { $trend } this season
rating_none = { $name } has no rated game in this group in season { $season }.
# refusals: each changes nothing
ratings--unknown_game = I don't know the game “{ $text }”. Rated here: { $games }.
ratings--unknown_season = There is no season “{ $text }” in this group. Seasons with rated games: { $seasons }.
ratings--no_seasons = This group has no rated game yet, so it has no season to show.
ratings--not_in_community = { $name } has not played a rated game in this group.
ratings--private_chat = A leaderboard belongs to a group: ask in the group or server where you play.
help_ratings =
    Ratings: /leaderboard [game] [season] shows this group's top 10, /rating [player] a player's numbers; a game against bots counts, a friendly one opened with rated=no does not. Everyone starts a season at { $start }.
    The number is a cautious estimate (your skill minus three times the doubt about it), so it moves most while you are new. A last place never raises it; a draw with a stronger player can.
final_ratings = New ratings:
ratings--several = Several players here have played as “{ $name }”: reply to a message of the one you mean.
# the table option rated=yes|no
bad_rated = “rated={ $value }” is neither yes nor no.
optdesc--rated = yes: the game counts for this group's ratings; no: a friendly game
