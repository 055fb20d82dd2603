### Ochs und Esel: narration and table.

# With the article: French elides it before "âne" but not "bœuf".
animal--D = the donkey
animal--O = the ox
oe--trick = Trick { $number } · { $kind }
oe--trick_normal = to beat: { $best } ({ $count })
oe--trick_lead = waiting for the lead
oe--kind--donkey = 🐴 donkey trick — everyone plays one card, the highest takes all
oe--kind--ox = 🐂 ox trick — everyone plays one card, the highest takes the pile
oe--kind--normal = { "" }
oe--play = { $name }: { $cards }
oe--pass = { $name }: pass
oe--animal_hand = { $name } has { $animal }
oe--animal_middle = In the middle: { $animal }
oe--animal_trick = On the table: { $animal }
oe--animal_pile = In { $name }'s ox pile: { $animal }
oe--seat = { $marker }{ $name }: { $cards } · { $score } penalty pts{ $pile }
oe--pile = { " " }· ox pile: { $size }, face down
oe--holding = You hold { $animal }.
oe--own_pile = Your ox pile: { $cards } — { $points } at the round's end
oe--hand_lead = You lead: one or more cards of one value (a joker may join).
oe--hand_beat = To beat: { $best } — play { $count } of higher value, or pass.
oe--hand_beat_unbeatable = To beat: { $best } — nothing beats jokers alone: you can only pass.
oe--hand_animal = { $kind }: play any one card.
oe--hand_kind--donkey = Donkey trick
oe--hand_kind--ox = Ox trick
event--ochs-esel--led = { $seat } leads { $cards }
event--ochs-esel--led_animal = { $seat } leads { $animal }!
event--ochs-esel--beat = { $seat } beats with { $cards }
event--ochs-esel--passed = { $seat } passes
event--ochs-esel--played = { $seat } plays { $cards }
event--ochs-esel--trick_won = { $seat } wins the trick
event--ochs-esel--took_donkey = { $seat } takes the donkey trick into hand: { $cards }
event--ochs-esel--took_ox_trick = { $seat } takes the ox trick face down: { $penalty } (numbers at face value, jokers 1, the ox 0; an ox still in hand at the round's end costs 15)
event--ochs-esel--took_animal = { $seat } takes { $animal }
event--ochs-esel--round_started = Round { $round } starts; { $first } leads

## Imported from head_ochs_esel.py

oe--holding--D = You hold the donkey: 20 penalty points if it is still in your hand when the round ends.
oe--holding--O = You hold the ox: 15 penalty points if it is still in your hand when the round ends (in an ox pile it counts 0).
oe--both = { $first } and { $second }
