### Ochs und Esel: narration and table.

# With the article: French elides it before "âne" but not "bœuf".
animal--D = l'âne
animal--O = le bœuf
oe--trick = Tour { $number } · { $kind }
oe--trick_normal = à battre : { $best } ({ $count })
oe--trick_lead = en attente de l'ouverture
oe--kind--donkey = 🐴 tour d'âne — chacun joue une carte, la plus forte prend tout
oe--kind--ox = 🐂 tour de bœuf — chacun joue une carte, la plus forte prend le pli
oe--kind--normal = { "" }
oe--play = { $name } : { $cards }
oe--pass = { $name } : passe
oe--animal_hand = { $name } a { $animal }
oe--animal_middle = Au centre : { $animal }
oe--animal_trick = Sur la table : { $animal }
oe--animal_pile = Dans le pli de bœuf de { $name } : { $animal }
oe--seat = { $marker }{ $name } : { $cards } · { $score } pts de pénalité{ $pile }
oe--pile = { " " }· pli de bœuf : { $size }, face cachée
oe--holding = Vous avez { $animal }.
oe--own_pile = Votre pli de bœuf : { $cards } — { $points } à la fin de la manche
oe--hand_lead = À vous d'ouvrir : une ou plusieurs cartes d'une même valeur (un joker peut s'y joindre).
oe--hand_beat = À battre : { $best } — jouez { $count } de plus haute valeur, ou passez.
oe--hand_beat_unbeatable = À battre : { $best } — rien ne bat des jokers seuls : vous ne pouvez que passer.
oe--hand_animal = { $kind } : jouez une carte, n'importe laquelle.
oe--hand_kind--donkey = Tour d'âne
oe--hand_kind--ox = Tour de bœuf
event--ochs-esel--led = { $seat } ouvre avec { $cards }
event--ochs-esel--led_animal = { $seat } joue { $animal } !
event--ochs-esel--beat = { $seat } surenchérit avec { $cards }
event--ochs-esel--passed = { $seat } passe
event--ochs-esel--played = { $seat } joue { $cards }
event--ochs-esel--trick_won = { $seat } remporte le tour
event--ochs-esel--took_donkey = { $seat } prend le tour d'âne en main : { $cards }
event--ochs-esel--took_ox_trick = { $seat } prend le pli de bœuf face cachée : { $penalty } (chiffres à leur valeur, joker 1, bœuf 0 ; un bœuf encore en main à la fin de la manche coûte 15)
event--ochs-esel--took_animal = { $seat } prend { $animal }
event--ochs-esel--round_started = La manche { $round } commence ; { $first } ouvre

## Imported from head_ochs_esel.py

oe--holding--D = Vous avez l'âne : 20 points de pénalité s'il est encore dans votre main à la fin de la manche.
oe--holding--O = Vous avez le bœuf : 15 points de pénalité s'il est encore dans votre main à la fin de la manche (dans un pli de bœuf, il compte 0).
oe--both = { $first } et { $second }
