### The Game: Erzählung und Tisch.

tg--draw = Nachziehstapel: { $size } · Zug { $turn }
tg--draw_empty = Nachziehstapel leer: 1 Karte pro Zug genügt · Zug { $turn }
tg--need = In diesem Zug: mindestens { $minimum } legen · bisher gelegt: { $played }
tg--seat = { $marker }{ $name }: { $cards }
tg--won = 🎉 Alle Karten gelegt: Das Team hat The Game besiegt!
tg--lost = Das Team hat gegen The Game verloren: { $score } (Hände und Nachziehstapel).
tg--your_turn = In diesem Zug gelegt: { $played } von mindestens { $minimum }.
tg--btn_end = Zug beenden
tg--final_won = 🏁 The Game ist vorbei: Das Team hat alle 98 Karten gelegt und das Spiel besiegt! 🎉
tg--final_lost = 🏁 The Game ist vorbei: Das Team endet mit { $left } (auf der Hand und im Nachziehstapel). Weniger als 10 ist ein hervorragendes Ergebnis; 0 besiegt das Spiel.
event--the-game--played = { $seat } legt { $card } auf { $pile } ({ $previous } → { $card })
event--the-game--played_jump = { $seat } springt 10 zurück: { $card } auf { $pile } ({ $previous } → { $card })
event--the-game--turn_ended = { $seat } beendet den Zug und zieht { $drawn } nach (Nachziehstapel: { $draw_size })
event--the-game--game_won = 🎉 Alle 98 Karten liegen auf den Stapeln: Das Team gewinnt!
event--the-game--game_lost = { $seat } schafft das Minimum nicht (noch { $needed } zu legen): Das Spiel ist verloren, { $score }.
event--the-game--game_lost_end = Das Spiel ist vorbei, { $score }.

## Imported from the-game.txt

event--the-game--signalled--stop = { $seat } bittet: Leg bitte nicht auf { $pile }.
event--the-game--signalled--small = { $seat } bittet: kein großer Sprung auf { $pile }.
event--the-game--signalled--off = { $seat } zieht das Signal auf { $pile } zurück.
tg--signal--stop = ✋ { $pile }: bitte hier nicht legen ({ $names })
tg--signal--small = ⚠ { $pile }: hier kein großer Sprung ({ $names })
tg--signal_legend = Signale, jederzeit: ✋ bitte hier nicht legen · ⚠ hier kein großer Sprung · ↩ zurückziehen. Nenn nie eine Zahl.
