### Michigan: Erzählung, Versteigerung und Tisch.

# Bube, Dame, König, Ass
mi--rank--J = B
mi--rank--Q = D
mi--rank--K = K
mi--rank--A = A
mi--suit--S = Pik
mi--suit--H = Herz
mi--suit--D = Karo
mi--suit--C = Kreuz
mi--phase--decision = Entscheidung des Gebers
mi--phase--auction = Versteigerung der Extrahand
mi--phase--play = es wird gespielt
mi--phase--over = Spiel vorbei
mi--header = Runde { $deal }/{ $deals } · Geber { $dealer } · { $phase }
mi--pay = Zahlkarten (Chips): { $piles }
mi--decided--swap = Der Geber hat die Extrahand unbesehen genommen.
mi--decided--keep = Der Geber hat seine Hand behalten; die Extrahand ist aus dem Spiel.
mi--auction_high = Versteigerung: Höchstgebot { $bid } von { $name } (der nächste Bieter kann bis { $max } gehen, seine Chips)
mi--auction_none = Versteigerung: noch kein Gebot (der nächste Bieter kann bis { $max } gehen, seine Chips)
mi--auction_passed = Gepasst: { $names }
mi--auction_sold = Die Extrahand ging für { $bid } an { $name }.
mi--auction_unsold = Niemand hat die Extrahand gekauft: Sie ist aus dem Spiel.
mi--sequence = { $suit }-Folge: { $plays }
mi--no_sequence = Wir warten, bis { $name } ausspielt.
mi--seat = { $marker }{ $name }: { $cards } · { $chips }{ $dealer }{ $played }
mi--seat_dealer = { " " }· Geber
mi--seat_played = { " " }· gelegt { $cards }
mi--hand_pay = Zahlkarten auf deiner Hand: { $cards }
mi--hand_discarded = Aus dem Spiel, die Hand, die du abgegeben hast: { $cards }
mi--hand_chips = Du hast { $chips }.
mi--hand_decide = Du gibst: Tausch deine Hand gegen die Extrahand (unbesehen), behalte sie oder versteigere die Extrahand.
mi--hand_bid = Biete { $min }–{ $max } für die Extrahand (höchstens deine Chips), oder passe (wer passt, ist endgültig raus).
mi--hand_lead = Du spielst aus: Wähl eine Farbe; deine niedrigste Karte darin wird gelegt, dann folgen die erzwungenen Karten.
mi--btn--swap = Hände tauschen
mi--btn--keep = Behalten
mi--btn--auction = Versteigern
mi--btn--bid = { $amount } bieten
mi--stop--ace = das Ass beendet sie; { $seat } spielt als Nächstes aus
mi--stop--no_next_card = { $next } ist nicht im Spiel; { $seat } spielt als Nächstes aus
mi--run = { $seat } spielt { $suit } aus: { $plays }
mi--run_forced = { $seat } muss { $suit } ausspielen: { $plays }
mi--run_stop = { $run } — { $stop }
event--michigan--swapped = { $seat } (Geber) tauscht unbesehen gegen die Extrahand
event--michigan--kept = { $seat } (Geber) behält die eigene Hand
event--michigan--auction_opened = { $seat } (Geber) versteigert die Extrahand
event--michigan--bid = { $seat } bietet { $amount }
event--michigan--passed = { $seat } passt
event--michigan--passed_many = { $names } passen
event--michigan--passed_auto = { $seat } kann nicht überbieten und passt
event--michigan--passed_auto_many = { $names } können nicht überbieten und passen
event--michigan--auction_no_bid = Niemand bietet: Die Extrahand bleibt aus dem Spiel
event--michigan--auction_won = { $seat } kauft die Extrahand für { $amount }, gezahlt an { $dealer }
event--michigan--led = { $seat } spielt { $card } aus
event--michigan--led_forced = { $seat } muss { $card } ausspielen
event--michigan--played = { $seat } legt { $card }
event--michigan--pay_card_won = 💰 { $seat } legt { $card } und gewinnt die { $chips } darauf
event--michigan--sequence_stopped = { $suit } endet bei { $card }: { $stop }
event--michigan--deal_over = Runde { $deal } ist vorbei: { $seat } ist ausgegangen und kassiert { $total } ({ $payments })
event--michigan--deal_over_alone = Runde { $deal } ist vorbei: { $seat } ist ausgegangen
event--michigan--deal_started = Runde { $deal }: { $dealer } gibt · Zahlkarten { $piles }

## Imported from michigan.txt

mi--stop--already_played = { $next } wurde in dieser Runde schon gelegt; { $seat } spielt als Nächstes aus
mi--left_on_pay_cards = Das Spiel ist vorbei, und { $chips } liegen noch auf den Zahlkarten ({ $piles }): Sie zählen für niemanden.
