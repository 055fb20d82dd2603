### Tapis: die Lobby, Tische, Hände, Ablehnungen, Hilfe und Regeln.

# Anzahlen: "1 Karte", "3 Karten" (siehe `count`)
n--card =
    { $n ->
        [one] { $n } Karte
       *[other] { $n } Karten
    }
n--chip =
    { $n ->
        [one] { $n } Chip
       *[other] { $n } Chips
    }
n--move =
    { $n ->
        [one] { $n } Zug
       *[other] { $n } Züge
    }
# ein Endstand in der Einheit des Spiels (Schlusswertung, /scores)
n--score--ochs-esel =
    { $n ->
        [one] { $n } Minuspunkt
       *[other] { $n } Minuspunkte
    }
n--score--the-game =
    { $n ->
        [one] { $n } Karte übrig
       *[other] { $n } Karten übrig
    }
n--score--nix-fur-ungut =
    { $n ->
        [one] { $n } Punkt
       *[other] { $n } Punkte
    }
n--score--michigan =
    { $n ->
        [one] { $n } Chip
       *[other] { $n } Chips
    }
# Der Name jedes Spiels, wie ihn Spieler dieser Sprache kennen (in jedem Satz, der ein Spiel nennt).
game--ochs-esel = Ochs und Esel
game--the-game = The Game
game--nix-fur-ungut = Nix für Ungut
game--michigan = Michigan
# Sprachen und Einstellungen
lang_unknown = Ich spreche diese Sprachen: { $langs }.
lang_set_personal = Ich spreche ab jetzt Deutsch mit dir.
lang_set_channel = In diesem Kanal wird ab jetzt auf Deutsch gespielt.
admin_only = Das kann nur ein Admin des Kanals.
mentions_on = Ich erwähne dich, wenn dein Zug beginnt.
mentions_off = Ich erwähne dich nicht mehr, wenn dein Zug beginnt.
# Lobby
unknown_game = Das Spiel „{ $text }“ kenne ich nicht. Spiele: { $games }.
bad_option_word = Die Option „{ $word }“ verstehe ich nicht: schreib name=wert, z. B. rounds=3.
bad_table_setting = „{ $key }={ $value }“ ist keine gültige Tischeinstellung (deadline: aus oder 30–86400 Sekunden; bot_delay: 0–30 Sekunden).
bad_options = Diese Optionen passen nicht: { $message }
bad_deadline_range = Diese Optionen passen nicht: „deadline“ geht von { $low } bis { $high } Sekunden, oder aus.
bad_bot_delay_range = Diese Optionen passen nicht: „bot_delay“ geht von { $low } bis { $high } Sekunden.
option--unknown_option = { $game } hat keine Option „{ $key }“ (Optionen: { $options }).
option--not_a_number = „{ $key }“ braucht eine ganze Zahl.
option--not_yes_no = „{ $key }“ braucht ja oder nein.
option--out_of_range = „{ $key }“ geht von { $low } bis { $high }.
option--invalid = „{ $key }“ kann diesen Wert nicht annehmen.
table_exists = In diesem Kanal gibt es schon einen Tisch ({ $game }, { $status }). Spiel ihn erst zu Ende oder brich ihn mit /cancel ab.
table_exists_short = In diesem Kanal gibt es schon einen anderen Tisch.
status_lobby = wartet auf Mitspieler
status_playing = läuft
status_finished = beendet
status_cancelled = abgebrochen
status_closed = geschlossen
storage_failed = Das konnte ich gerade nicht speichern; nichts wurde geändert. Versuch es bitte noch einmal.
lobby_opened = Der Tisch für { $game } ist offen. Andere können mit /join beitreten; der Gastgeber startet mit /start.
no_table = In diesem Kanal ist kein Tisch offen. Eröffne einen mit /newgame.
already_seated = Du sitzt schon an diesem Tisch.
table_full = Der Tisch ist voll (höchstens { $max } Spieler).
joined = Du sitzt jetzt am Tisch für { $game }.
seat_reclaimed = { $name } ist zurück und übernimmt wieder den eigenen Platz.
reclaimed = Willkommen zurück: Dein Platz gehört wieder dir.
game_running = Hier läuft schon ein Spiel und kein Platz ist frei.
takeover_queued = Du übernimmst den Platz eines Bots, sobald die nächste Runde beginnt.
takeover_no_rounds = { $game } hat keine Runden: Die Bots behalten ihre Plätze bis zum Ende des Spiels. Beim nächsten Spiel kannst du einsteigen.
takeover_last_round = Das ist die letzte Runde von { $game }: Die Bots behalten ihre Plätze bis zum Ende des Spiels. Beim nächsten Spiel kannst du einsteigen.
takeover_last_round--michigan = Das ist die letzte Runde von { $game }: Die Bots behalten ihre Plätze bis zum Ende des Spiels. Beim nächsten Spiel kannst du einsteigen.
takeover_full = Jeder Bot-Platz bei { $game } ist schon jemandem versprochen, der auf die nächste Runde wartet. Beim nächsten Spiel kannst du einsteigen.
left = Du hast den Tisch verlassen.
not_seated = Du spielst an diesem Tisch nicht mit.
seat_to_bot_left = { $name } ist gegangen; { $bot } spielt auf dem Platz weiter. Mit /join geht es zurück ins Spiel.
seat_to_bot_forgotten = Jemand ist gegangen; { $bot } spielt auf dem Platz weiter.
left_game = Du hast das Spiel verlassen; ein Bot spielt für dich weiter. Mit /join kommst du zurück.
left_closed = Du bist gegangen und der Tisch ist geschlossen (sonst saß niemand daran).
host_moved = { $name } ist jetzt Gastgeber.
not_in_lobby = Das geht nur vor dem Start des Spiels.
host_only = Das kann nur der Gastgeber.
host_or_admin_only = Das können nur der Gastgeber oder ein Admin des Kanals.
bot_added = Ein Bot hat sich an den Tisch gesetzt.
no_bot = Es gibt keinen Bot, der gehen könnte.
bot_removed = Ein Bot hat den Tisch verlassen.
already_started = Das Spiel hat schon begonnen.
player_count =
    { $count ->
        [one] Mit { $count } Spieler geht das nicht: Es braucht { $low } bis { $high }.
       *[other] Mit { $count } Spielern geht das nicht: Es braucht { $low } bis { $high }.
    }
started = { $game } hat begonnen. Deine Hand kommt per Privatnachricht.
cancelled_by = { $name } hat den Tisch abgebrochen.
cancelled = Der Tisch ist abgebrochen.
no_such_player = Niemand namens „{ $name }“ spielt an diesem Tisch.
cannot_kick_self = Du kannst dich nicht selbst entfernen; nimm /leave.
kicked = { $name } wurde vom Tisch entfernt.
kick_done = { $name } sitzt nicht mehr am Tisch.
kicked_out = Du wurdest von diesem Tisch entfernt; beim nächsten kannst du wieder mitspielen.
took_over = { $name } übernimmt den Platz von { $bot }.
# Züge
no_game = In diesem Kanal läuft kein Spiel.
bad_button = Dieser Knopf stammt nicht von mir.
out_of_date = Diese Nachricht ist veraltet: Am Tisch ging es schon weiter, und nichts wurde gespielt. Schau auf den Tisch und versuch es noch einmal.
seat_taken_by_bot = Gerade spielt ein Bot auf deinem Platz; mit /join holst du ihn dir zurück.
move_done = Erledigt.
your_turn = { $name }, du bist dran ({ $game }).
your_turn_goes_on = { $name }, du bist immer noch dran ({ $game }).
reminder = { $name }, dein Zug endet in { $seconds } s; danach spiele ich für dich.
afk_move = { $name } war zu langsam; ich habe für { $name } gespielt.
seat_to_bot_afk = { $name } war wieder zu langsam; { $bot } übernimmt den Platz. Mit /join geht es zurück.
you_were_replaced = Deine Zeit in { $game } ({ $title }) ist abgelaufen; ein Bot spielt für dich weiter. Mit /join dort holst du dir den Platz zurück.
cannot_reach = Ich kann { $name } die Hand nicht privat schicken. { $name }: Öffne einen privaten Chat mit mir (oder erlaube Direktnachrichten) oder drück am Tisch auf „Meine Hand“; bis dahin laufen deine Züge nach der Frist ab.
cannot_reach_waits = Ich kann { $name } die Hand nicht privat schicken. { $name }: Öffne einen privaten Chat mit mir (oder erlaube Direktnachrichten) oder drück am Tisch auf „Meine Hand“; bis dahin wartet der Tisch auf dich.
# Darstellung
lobby_title = 🃏 { $game } — wartet auf Mitspieler
lobby_players = Spieler ({ $count }, { $low }–{ $high }):
lobby_host = Gastgeber
lobby_options = Optionen: { $options }
lobby_hint = Tritt mit dem Knopf oder /join bei; der Gastgeber startet mit /start.
table_title = 🃏 { $game } — { $status }
table_turn = Am Zug: { $names }
table_round = Runde { $round }/{ $rounds }
table_round_open = Runde { $round }
table_seat = { $marker }{ $name }: { $cards }, { $score } Pkt.
table_seat_noscore = { $marker }{ $name }: { $cards }
table_last = Letzte Züge:
table_over = Spiel vorbei.
table_cancelled = Dieser Tisch wurde abgebrochen.
table_closed = Dieser Tisch ist geschlossen.
table_back = Der Tisch ist wieder da: Das Spiel geht weiter, wo es stehen geblieben ist.
hand_title = 🂠 { $game } · { $title }
hand_cards = Deine Hand: { $cards }
hand_empty = Deine Hand ist leer.
hand_your_turn = ▶ Du bist dran. Tipp auf einen Zug oder schreib /play …
hand_not_your_turn = Deine Züge erscheinen hier, wenn du dran bist.
hand_bot = Ein Bot spielt auf deinem Platz; mit /join im Kanal holst du ihn dir zurück.
hand_more = Nicht angezeigt: { $count }; schreib /play und dahinter den Zug.
btn_join = Mitspielen
btn_leave = Aufstehen
btn_addbot = Bot dazu
btn_options = Optionen
btn_removebot = Bot entfernen
opt_yes = ja
opt_no = nein
# /options deadline=aus schaltet die Frist ebenfalls ab
opt_off = aus
opt_random = zufällig
opt_custom = eigene
opt_default = Standard
options_now = Optionen: { $options }. Der Gastgeber ändert sie mit /options name=wert.
options_changed = Optionen jetzt: { $options }.
btn_start = Starten
btn_hand = Meine Hand
btn_rematch = Revanche
btn_pass = Passen
round_over = Runde { $round } ist vorbei. Punkte dieser Runde:
round_line = { $name }: { $points } (gesamt { $total })
# Nur die Abrechnung der Restkarten: Zahlkarten und Einsätze haben schon während des Gebens Chips bewegt.
round_over--michigan = Runde { $round } ist vorbei. Ein Chip pro Restkarte, gezahlt an den, der ausgegangen ist; die Summen sind vor den Einsätzen der nächsten Runde:
round_over--michigan--last = Die letzte Runde ({ $round }) ist vorbei. Ein Chip pro Restkarte, gezahlt an den, der ausgegangen ist; der Endstand:
round_over--ochs-esel = Runde { $round } ist vorbei. Minuspunkte (die kleinste Summe gewinnt):
final_title = 🏁 { $game } ist vorbei. Endstand:
final_line = { $rank }. { $name } — { $score }
scores_title = Punkte ({ $game }):
scores_line = { $name }: { $score }
stats_none = Noch keine beendeten Spiele.
stats_title = Statistik von { $name }:
stats_line = { $game }: { $played } gespielt, { $wins } gewonnen, im Schnitt Platz { $rank }
# Ablehnungen (Codes der Spielregeln)
refusal--not_your_turn = Du bist nicht dran: Wir warten auf { $names }.
refusal--not_your_turn--turn_ended = Deine Hand war vor dem Ende dieser Nachricht leer, und damit war dein Zug zu Ende: Nichts wurde gespielt.
refusal--game_over = Das Spiel ist vorbei.
refusal--bad_notation = „{ $text }“ verstehe ich nicht als Zug.{ $hint }
refusal--unknown_card = „{ $text }“ ist keine Karte dieses Spiels.{ $hint }
refusal--card_not_in_hand = Du hast { $cards } nicht auf der Hand.
refusal--must_match_count = Spiel genau { $count }, so viele wie der Ausspieler.
refusal--too_low = Zu niedrig: Du brauchst mindestens { $needed }, um zu überbieten.
refusal--too_low--unbeatable = Gegen Joker allein kommt nichts an: Du kannst nur passen.
refusal--leader_cannot_pass = Du spielst diesen Stich aus: Du musst spielen, nicht passen.
refusal--animal_alone = Spiel { $animal } allein, ohne andere Karte.
refusal--animal_only_leads = { $animal } darfst du nur ausspielen, um einen Stich zu eröffnen.
refusal--animal_just_received = Du hast gerade { $animal } bekommen: Frühestens zwei Stiche später darfst du ihn ausspielen.
refusal--must_play_one_card = In diesem Stich spielt jeder genau eine Karte; passen gilt nicht.
refusal--not_a_set = Ein Satz besteht aus Karten eines Werts (Joker dürfen dazu): { $cards } ist keiner.
refusal--below_minimum = Leg in diesem Zug mindestens { $needed }, bevor du ihn beendest.
refusal--not_playable = { $card } passt nicht auf { $pile } (oberste Karte { $top }).
refusal--unknown_pile = „{ $text }“ ist kein Stapel: A1, A2, D1 oder D2.
refusal--unknown_row = „{ $text }“ ist keine Reihe: vierling, reihe4, drilling, reihe3, paar, reihe2, einzel oder nichts.
refusal--bid_too_low = Biete mindestens { $min }.
refusal--bid_too_high = Du kannst höchstens { $max } bieten.
refusal--joker_limit = Eine Kombination darf höchstens einen Joker enthalten.
refusal--joker_single_only = In Zug 5 (oder als letzte Karte) darf ein Joker nur einzeln gespielt werden.
refusal--must_change_suit = Spiel eine andere Farbe als { $previous } aus: Du hast noch eine andere.
refusal--no_card_of_suit = Du hast keine Karte dieser Farbe ({ $suit }).
refusal--none_needs_empty_hand = „Nichts“ geht nur mit leerer Hand; du hast noch { $hand_size }.
refusal--not_a_combination = { $cards } ergibt nicht die Reihe { $row }.
refusal--not_bidding_phase = Gerade wird nicht geboten.
refusal--not_dealer_decision = Das entscheidet der Geber, und gerade ist nicht der Moment dafür.
refusal--not_playing_phase = Gerade werden keine Karten gespielt.
refusal--super_not_allowed = Der Superchip kann hier nicht eingesetzt werden.
refusal--super_not_allowed--joker = Der Superchip geht nur mit einer Kombination ohne Joker.
refusal--super_not_allowed--turn_5 = In Zug 5 gibt es keinen Superchip; er wird als normaler Chip gesetzt.
refusal--super_used = Deinen Superchip hast du in dieser Runde schon eingesetzt.
refusal--generic = Dieser Zug ist nicht erlaubt ({ $code }).
# nach einem unlesbaren Zug ({hint} oben, mit Leerzeichen davor): wie man in diesem Spiel einen Zug schreibt
hint--ochs-esel = Schreib die Karten, die du spielst, z. B. 7 7 J, oder passen; mit D spielst du den Esel aus.
hint--the-game = Schreib eine Karte und einen Stapel, z. B. 23 A1 (mehrere: 23 A1, 77 D2), oder ende.
hint--nix-fur-ungut = Schreib die Reihe und dann die Karten, z. B. paar 5 J, reihe3 2 3 4 super, oder nichts.
hint--michigan = Züge: ausspielen herz (Farben: pik, herz, karo, kreuz), tauschen, behalten, versteigern, bieten 5, passen.
# Hilfe und Regeln
help =
    Befehle: /newgame <spiel> [optionen] · /join · /leave · /start · /play <zug> · /pass · /hand · /table · /options · /scores · /stats · /rules [spiel] · /cancel · /kick <spieler> · /lang <de|en|fr> · /mentions on|off · /help
    Spiele: { $games }
rules_pick = Die Regeln welchen Spiels? { $games }
newgame_usage = Eröffne einen Tisch mit /newgame <spiel> [option=wert …], z. B. /newgame ochs rounds=3 ox=ja. Spiele:
newgame_game = • { $id } — { $name }, { $low }–{ $high } Spieler; Optionen: { $options }
newgame_table_options = Jeder Tisch: deadline=<sekunden>|aus (Standard 300), bot_delay=<sekunden>, rated=nein für eine Freundschaftspartie (ohne Wertung).
needs_private_chat = { $name }: Ich kann dir noch nicht privat schreiben, und dort werden deine Karten ausgeteilt. Öffne { $link } und drück auf Start: Dann sitzt du sofort am Tisch.
needs_private_chat_short = Öffne den privaten Chat mit mir und drück auf Start: Dann sitzt du am Tisch.
error_generic = Bei mir ist etwas schiefgegangen; nichts wurde geändert. Versuch es bitte noch einmal.
mentions_usage = Schreib /mentions on oder /mentions off.
cmd--newgame = Tisch eröffnen: /newgame <spiel> [optionen]
cmd--join = Am Tisch Platz nehmen
cmd--leave = Den Tisch verlassen
cmd--addbot = Einen Bot dazusetzen (Gastgeber)
cmd--removebot = Einen Bot aus der Lobby entfernen (Gastgeber)
cmd--start = Das Spiel starten (Gastgeber)
cmd--start_private = Den privaten Chat öffnen, in den deine Hände kommen
cmd--play = Einen Zug spielen: /play <zug>
cmd--pass = Passen
cmd--hand = Meine Hand noch einmal schicken
cmd--table = Den Tisch noch einmal zeigen
cmd--rules = Regeln: /rules [spiel]
cmd--scores = Punktestand des Spiels
cmd--stats = Meine Statistik
cmd--cancel = Den Tisch abbrechen (Gastgeber oder Admin)
cmd--kick = Einen Spieler entfernen (Gastgeber oder Admin)
cmd--lang = Sprache: /lang de|en|fr
cmd--options = Tischoptionen vor dem Start: /options name=wert (Gastgeber)
cmd--mentions = Erwähnung, wenn ich dran bin: /mentions on|off
cmd--help = Wie man mit mir spielt
console_resume = Dein Spiel { $game } geht weiter.
console_pick_game = Welches Spiel?
console_options = Optionen (Standard: { $defaults }), Enter behält sie:
console_bots = Wie viele Bots als Gegner ({ $low }–{ $high }, Enter für { $default })?
console_no_button = In der Liste oben gibt es keine Auswahl mit dieser Nummer.
console_bad_bots = Gib eine Zahl von { $low } bis { $high } ein, oder Enter.
console_help = In diesem Terminal: Schreib einen Zug oder #N, um Knopf N zu drücken; /quit beendet (das Spiel bleibt gespeichert).
rules_options = Optionen (/newgame <spiel> name=wert, oder der Knopf „Optionen“ in der Lobby):
optdesc--rounds = Anzahl der Runden, 1 bis 20
optdesc--ox = ja: die Ochsen-Variante (Ochs und Esel beginnen in der Mitte)
optdesc--min_play = Karten, die man pro Zug legen muss, solange der Nachziehstapel reicht, 1 bis 5 (Profis: 3)
optdesc--hand_minus_one = ja: jede Hand hat eine Karte weniger (Profis)
optdesc--first = der Platz, nummeriert wie in der Lobby, der anfängt
optdesc--personne = ja: Monsieur Personne spielt mit
optdesc--board = andere Feldwerte, z. B. board={ "{" }"pair": [5, 3, 1]{ "}" }
optdesc--chips = Chips pro Spieler zu Beginn, 1 bis 1000
optdesc--hands_per_player = wie oft jeder Spieler gibt, 1 bis 10
optdesc--deadline = Zeit für einen Zug (30s bis 24h, oder aus); danach spielt der Bot für dich
optdesc--bot_delay = Sekunden, die ein Bot vor seinem Zug wartet, 0 bis 30
rules--ochs-esel = Ochs und Esel (3–12 Spieler): Werde deine Karten los. Der Ausspieler legt eine oder mehrere Karten eines Werts; jeder andere überbietet einmal mit gleich vielen, strikt höheren Karten oder passt; wer am höchsten liegt, spielt als Nächstes aus. Ein Joker ergänzt jeden Wert; Joker allein zählen 14. Der Esel (20 Minuspunkte) darf nur allein ausgespielt werden: Dann legt jeder eine Karte (Joker = 1), und die höchste nimmt alle Karten auf die Hand. Eine Runde endet nach einem Stich, nach dem jemand keine Karten mehr hat; die Karten auf der Hand sind Minuspunkte (Kartenwert, Joker 14). Die kleinste Summe nach allen Runden gewinnt. Option ox=ja: Der Ochs (15) geht an den Gewinner von Stich 1, der Esel an den Gewinner von Stich 2; die Karten eines Ochsenstichs liegen verdeckt als Minuspunkte aus. Züge: `7 7 J`, `passen`, `D` (Esel ausspielen).
rules--the-game = The Game (1–5, kooperativ): Legt alle 98 Karten auf vier Stapel, A1 A2 aufsteigend ab 1 und D1 D2 absteigend ab 100. In deinem Zug legst du mindestens 2 Karten (1, sobald der Nachziehstapel leer ist) und ziehst dann nach. Genau 10 zurück ist erlaubt (35 auf 45 aufsteigend, 75 auf 65 absteigend). Welche Karten du hast, darfst du nicht verraten. Das Spiel ist verloren, wenn der Spieler am Zug sein Minimum nicht legen kann. Züge: `23 A1`, `23 A1, 77 D2`, `ende`. Signale, jederzeit: `signal A1 stop` (bitte hier nicht legen), `signal D2 small` (hier kein großer Sprung), `signal A1 off`.
rules--nix-fur-ungut = Nix für Ungut (2–5): Spiel in jedem Zug eine Kombination aus deiner Hand und setz einen Chip auf ihre Reihe: vierling (4 gleiche), reihe4 (4 aufeinanderfolgende), drilling (3 gleiche), reihe3, paar, reihe2, einzel (eine Karte), nichts (keine Karte mehr). Ein neuer Chip schiebt die Chips der Reihe weiter; wer hinausgeschoben wird, punktet nicht. Höchstens ein Joker pro Kombination. Dein Superchip verdoppelt sein Feld. 4 Runden zu je 5 Zügen; die meisten Punkte gewinnen. Mit personne=ja spielt Monsieur Personne vom Nachziehstapel mit und kommt in die Wertung, ist aber kein Spieler: Es gewinnt der Beste unter den Menschen. Züge: `paar 5 J`, `reihe3 2 3 4 super`, `nichts`.
rules--michigan = Michigan (3–8): Chips auf den Zahlkarten ♠B ♦D ♣K ♥A. Der Geber kann seine Hand gegen die Extrahand tauschen, sie behalten oder die Extrahand versteigern (ein Gebot ist höchstens so hoch wie deine eigenen Chips; wer nicht überbieten kann, passt). Der Ausspieler legt die niedrigste Karte einer Farbe; wer die nächsthöhere Karte dieser Farbe hat, muss sie legen (erzwungene Karten lege ich für dich), bis zum Ass oder einer toten Karte; wer zuletzt gelegt hat, spielt neu aus. Wer eine Zahlkarte legt, bekommt ihre Chips; wer zuerst keine Karten mehr hat, bekommt von jedem einen Chip pro Karte. Züge: `ausspielen herz`, `tauschen`, `behalten`, `versteigern`, `bieten 5`, `passen`.

## Imported from tapis.txt

option--too_high = „{ $key }“ geht höchstens bis { $high }.
option--too_low = „{ $key }“ beginnt bei { $low }.
option_number_too_long = Die Zahl für „{ $key }“ ist zu lang: höchstens { $max } Ziffern.
option_value_too_long = Der Wert von „{ $key }“ ist zu lang: höchstens { $max } Zeichen.
option_value_too_deep = Der Wert von „{ $key }“ ist zu tief verschachtelt: höchstens { $max } Klammerebenen.
too_many_options = Das sind zu viele Optionen auf einmal: höchstens { $max }.
move_too_long = Dieser Zug ist zu lang zum Lesen: höchstens { $max } Zeichen.
storage_unavailable = Ich erreiche meine Daten gerade nicht; nichts wurde geändert. Versuch es bitte gleich noch einmal.
move_unstorable = Diesen Zug kann ich nicht speichern, also wurde er nicht gespielt.
table_unstorable = Dieser Tisch hat einen Stand erreicht, den ich nicht speichern kann, und ist geschlossen; nach dem letzten gespeicherten Zug zählt nichts mehr. Öffne mit /newgame einen neuen.
table_unrestorable = Dieser Tisch ließ sich nach einem Update nicht wiederherstellen und ist geschlossen. Öffne mit /newgame einen neuen.
lobby_busy = Der Tisch hat sich im selben Moment geändert; nichts wurde geändert. Versuch es bitte noch einmal.
former_player = ein ehemaliger Spieler
cmd--forgetme = Lösch, was ich über dich speichere
cmd--mydata = Bekomm als Datei, was ich über dich speichere
forget_ask = Damit werden deine Einstellungen und deine Sprache gelöscht, und dein Name von jedem Tisch und Ergebnis, das ich aufbewahre (die Punkte bleiben, als „ein ehemaliger Spieler“, damit die Statistiken der anderen vollständig bleiben). Spielst du gerade, übernimmt ein Bot deinen Platz. Deine eigenen Statistiken sind endgültig weg. Bist du sicher?
btn_forget = Ja, vergiss mich
btn_keep = Nein, behalte meine Daten
forget_done = Erledigt: Ich speichere deinen Namen, deine Einstellungen und deine Sprache nicht mehr. Spielst du später wieder, fängst du von vorn an.
forget_kept = Es wurde nichts gelöscht.
forget_expired = Diese Bestätigung ist abgelaufen; schick /forgetme noch einmal.
forget_too_soon = Du hast mich vor weniger als einer Minute gebeten, dich zu vergessen, darum hat sich diesmal nichts geändert; du kannst es in { $seconds ->
        [one] einer Sekunde
       *[other] { $seconds } Sekunden
    } wieder verlangen.
private_only = Schick mir das in einem privaten Chat: Die Antwort betrifft nur dich.
group_only = Gespielt wird in einer Gruppe oder einem ihrer Themen: Füge mich einer Gruppe hinzu und tippe das dort. Hier, privat, bekommst du deine Karten.
as_yourself = Schreib das als du selbst, nicht im Namen eines Kanals oder als anonymer Admin: Ich setze Menschen an den Tisch und teile ihnen Karten aus. Nichts wurde geändert.
cannot_post_here = Ich darf in „{ $chat }“ keine Nachrichten senden (auch nicht in diesem Thema, falls es geschlossen ist), also kann ich dort keinen Tisch zeigen und habe keinen eröffnet. Ein Admin kann mir dieses Recht geben oder das Thema wieder öffnen; tippe den Befehl dann noch einmal. Nichts wurde geändert.
mydata_caption = Alles, was ich über dich speichere, als JSON.
mydata_failed = Ich konnte deine Daten gerade nicht lesen; versuch es bitte noch einmal.
mydata_too_soon = Du hast deine Daten vor weniger als einer Minute angefordert; du kannst sie in { $seconds ->
        [one] einer Sekunde
       *[other] { $seconds } Sekunden
    } wieder anfordern.
help_privacy = Deine Daten: /mydata schickt dir, was ich über dich speichere, /forgetme löscht es (im privaten Chat mit mir).
error_after_change = Bei mir ist etwas schiefgegangen, nachdem deine Aktion gespeichert war: Sie zählt, und der Tisch zeigt den aktuellen Stand.
button_elsewhere = Dieser Knopf gehört zu einem Tisch in einem anderen Chat: Hier bewirkt er nichts.
button_not_your_hand = Dieser Knopf gehört nicht zu deiner Hand an diesem Tisch: Nimm die Knöpfe deiner neuesten Hand-Nachricht.
rights_unknown = Ich konnte deine Rechte gerade nicht prüfen; versuch es gleich noch einmal. Nichts wurde geändert.
bad_link = Dieser Link führt zu keinem Tisch: Frag im Chat des Tisches nach einem neuen.
not_a_member = Nur Mitglieder des Chats, in dem der Tisch steht, können sich dazusetzen: Tritt zuerst diesem Chat bei.
stats_line_team = { $game }: { $played } gespielt, { $wins } gewonnen, { $lost } verloren (als Team)
refusal--card_not_in_hand--short = Du hast nur { $held } { $card }: Für { $played } brauchst du { $wanted }.
refusal--too_low--short = Du hast nur { $held } { $card }: Für { $played } brauchst du { $wanted } (und um den Tisch zu schlagen, bräuchtest du mindestens { $needed }).
word--1 = eine
word--2 = zwei
word--3 = drei
word--4 = vier
word--5 = fünf
word--6 = sechs
word--7 = sieben
word--8 = acht
word--9 = neun
word--10 = zehn
word--11 = elf
word--12 = zwölf
option--bad_entry = „{ $key }“: „{ $item }“ ist nicht eines von { $allowed }.
option--wrong_length = „{ $key }“: { $item } braucht genau { $length } Werte.
option--too_small = „{ $key }“: Die Werte für { $item } müssen mindestens { $low } sein.
option--bad_shape = „{ $key }“ schreibt man so: { $key }={ $example }.
option--entry_not_a_number = „{ $key }“: Die Werte für { $item } müssen ganze Zahlen sein.
final_extra_ahead = { $extra } ist kein Spieler: Unter den Menschen hat { $names } gewonnen.
refusal--no_signal_to_withdraw = Du hast auf { $pile } kein Signal, das du zurückziehen könntest.
refusal--signal_already_given = Dieses Signal hast du auf { $pile } schon gegeben.
refusal--unknown_signal = „{ $text }“ ist kein Signal: Schreib stop (bitte hier nicht legen), small (hier kein großer Sprung) oder off, z. B. signal A1 stop.
bad_bots_level = „bots={ $value }“ ist keine Bot-Stufe; Stufen: { $levels }.
bots--easy = leicht
bots--strong = stark
optdesc--bots = wie die Bots am Tisch spielen (hinzugefügte Bots und Übernahmen bei Abwesenheit): leicht oder stark
