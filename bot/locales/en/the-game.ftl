### The Game: narration and table.

tg--draw = Draw pile: { $size } · turn { $turn }
tg--draw_empty = Draw pile empty: 1 card a turn is enough · turn { $turn }
tg--need = This turn: at least { $minimum } to play · played so far: { $played }
tg--seat = { $marker }{ $name }: { $cards }
tg--won = 🎉 Every card played: the team beat The Game!
tg--lost = The team lost to The Game: { $score } left (hands and draw pile).
tg--your_turn = Played this turn: { $played } of at least { $minimum }.
tg--btn_end = End turn
tg--final_won = 🏁 The Game is over: the team played all 98 cards and beat it! 🎉
tg--final_lost = 🏁 The Game is over: the team ends with { $left } (in hands and the draw pile). Fewer than 10 is an excellent score; 0 beats the game.
event--the-game--played = { $seat } plays { $card } on { $pile } ({ $previous } → { $card })
event--the-game--played_jump = { $seat } jumps back 10: { $card } on { $pile } ({ $previous } → { $card })
event--the-game--turn_ended = { $seat } ends the turn and draws { $drawn } (draw pile: { $draw_size })
event--the-game--game_won = 🎉 All 98 cards are on the piles: the team wins!
event--the-game--game_lost = { $seat } can't reach the minimum ({ $needed } still to play): the game is lost with { $score } left.
event--the-game--game_lost_end = The game is over with { $score } left.

## Imported from bots_the_game.py

event--the-game--signalled--stop = { $seat } asks: please don't play on { $pile }.
event--the-game--signalled--small = { $seat } asks: no big jump on { $pile }.
event--the-game--signalled--off = { $seat } withdraws their signal on { $pile }.
tg--signal--stop = ✋ { $pile }: please don't play here ({ $names })
tg--signal--small = ⚠ { $pile }: no big jump here ({ $names })
tg--signal_legend = Signals, at any time: ✋ please don't play here · ⚠ no big jump here · ↩ withdraw. Never say a number.
