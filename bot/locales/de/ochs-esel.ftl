### Ochs und Esel: Erzählung und Tisch.

# Mit Artikel, im Akkusativ: Jeder Satz, der { $animal } einsetzt, braucht ihn als Objekt
# („Spiel den Esel allein“, „Der Stich enthält den Ochsen“).
animal--D = den Esel
animal--O = den Ochsen
oe--trick = Stich { $number } · { $kind }
oe--trick_normal = zu schlagen: { $best } ({ $count })
oe--trick_lead = wartet aufs Ausspielen
oe--kind--donkey = 🐴 Eselstich — jeder legt eine Karte, die höchste nimmt alles
oe--kind--ox = 🐂 Ochsenstich — jeder legt eine Karte, die höchste nimmt den Stich
oe--kind--normal = { "" }
oe--play = { $name }: { $cards }
oe--pass = { $name }: passt
oe--animal_hand = { $name } hat { $animal }
oe--animal_middle = Noch niemand hat { $animal }: Er liegt in der Mitte
oe--animal_trick = Der Stich auf dem Tisch enthält { $animal }
oe--animal_pile = { $name } hat { $animal } im Ochsenstapel
oe--seat = { $marker }{ $name }: { $cards } · { $score } Minuspkt.{ $pile }
oe--pile = { " " }· Ochsenstapel: { $size }, verdeckt
oe--holding = Du hast { $animal }.
oe--own_pile = Dein Ochsenstapel: { $cards } — { $points } am Ende der Runde
oe--hand_lead = Du spielst aus: eine oder mehrere Karten eines Werts (ein Joker darf dazu).
oe--hand_beat = Zu schlagen: { $best } — spiel { $count } mit höherem Wert, oder passe.
oe--hand_beat_unbeatable = Zu schlagen: { $best } — gegen Joker allein kommt nichts an: Du kannst nur passen.
oe--hand_animal = { $kind }: Spiel irgendeine Karte.
oe--hand_kind--donkey = Eselstich
oe--hand_kind--ox = Ochsenstich
event--ochs-esel--led = { $seat } spielt { $cards } aus
event--ochs-esel--led_animal = { $seat } spielt { $animal } aus!
event--ochs-esel--beat = { $seat } überbietet mit { $cards }
event--ochs-esel--passed = { $seat } passt
event--ochs-esel--played = { $seat } legt { $cards }
event--ochs-esel--trick_won = { $seat } gewinnt den Stich
event--ochs-esel--took_donkey = { $seat } nimmt den Eselstich auf die Hand: { $cards }
event--ochs-esel--took_ox_trick = { $seat } nimmt den Ochsenstich verdeckt: { $penalty } (Zahlen nach Wert, Joker 1, der Ochse 0; ein Ochse, der am Rundenende noch auf der Hand ist, kostet 15)
event--ochs-esel--took_animal = { $seat } nimmt { $animal }
event--ochs-esel--round_started = Runde { $round } beginnt; { $first } spielt aus

## Imported from ochs-esel.txt

oe--holding--D = Du hast den Esel: 20 Strafpunkte, wenn er am Ende der Runde noch auf deiner Hand ist.
oe--holding--O = Du hast den Ochsen: 15 Strafpunkte, wenn er am Ende der Runde noch auf deiner Hand ist (in einem Ochsenstapel zählt er 0).
oe--both = { $first } und { $second }
