### The Game: narration and table.

tg--draw = Pioche : { $size } · tour { $turn }
tg--draw_empty = Pioche vide : 1 carte par tour suffit · tour { $turn }
tg--need = Ce tour : au moins { $minimum } à poser · déjà posées : { $played }
tg--seat = { $marker }{ $name } : { $cards }
tg--won = 🎉 Toutes les cartes sont posées : l'équipe a battu The Game !
tg--lost = L'équipe a perdu contre The Game : il restait { $score } (mains et pioche).
tg--your_turn = Posées ce tour-ci : { $played } sur { $minimum } au minimum.
tg--btn_end = Finir le tour
tg--final_won = 🏁 La partie de The Game est terminée : l'équipe a posé les 98 cartes et l'a battu ! 🎉
tg--final_lost = 🏁 La partie de The Game est terminée : l'équipe finit avec { $left } (en main et dans la pioche). Moins de 10 est un excellent score ; 0 bat le jeu.
event--the-game--played = { $seat } pose { $card } sur { $pile } ({ $previous } → { $card })
event--the-game--played_jump = { $seat } recule de 10 : { $card } sur { $pile } ({ $previous } → { $card })
event--the-game--turn_ended = { $seat } finit son tour et pioche { $drawn } (pioche : { $draw_size })
event--the-game--game_won = 🎉 Les 98 cartes sont posées : l'équipe gagne !
event--the-game--game_lost = { $seat } ne peut pas atteindre son minimum (encore { $needed } à poser) : la partie est perdue, il reste { $score }.
event--the-game--game_lost_end = La partie est finie, il reste { $score }.

## Imported from bots_the_game.py

event--the-game--signalled--stop = { $seat } demande : ne jouez pas sur { $pile }.
event--the-game--signalled--small = { $seat } demande : pas de gros saut sur { $pile }.
event--the-game--signalled--off = { $seat } retire son signal sur { $pile }.
tg--signal--stop = ✋ { $pile } : ne jouez pas ici ({ $names })
tg--signal--small = ⚠ { $pile } : pas de gros saut ici ({ $names })
tg--signal_legend = Signaux, à tout moment : ✋ ne jouez pas ici · ⚠ pas de gros saut ici · ↩ retirer. Jamais de nombre.
