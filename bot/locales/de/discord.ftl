### Nur Discord: Privatnachrichten und flüchtige Ansichten.

discord--oops = Bei mir ist etwas schiefgegangen; nichts wurde geändert. Versuch es bitte noch einmal.
discord--hand_here = Ich kann dir keine Privatnachrichten schicken (deine DMs sind zu), deshalb siehst du deine Hand hier, nur für dich, und sie folgt dem Spiel. Discord hält diese Ansicht 15 Minuten aktuell; danach drück noch einmal auf „Meine Hand“.
discord--hand_in_dm = Deine Hand mit ihren Knöpfen liegt in unseren Privatnachrichten.
discord--hand_expired = Deine private Ansicht deiner Hand ist abgelaufen (Discord hält sie 15 Minuten). Drück auf „Meine Hand“, um deine Karten wieder zu sehen.
discord--guild_only = Gespielt wird in einem Kanal oder Thread eines Servers, nicht hier.
discord--cannot_post = Ich kann in diesem Kanal nicht schreiben, also könnte sein Tisch dort nicht erscheinen: Gib mir das Recht, ihn zu sehen und darin Nachrichten zu senden (bei einem Thread auch in Threads), oder spielt in einem anderen Kanal. Nichts wurde geändert.

# Slash-Befehle: Name (Kleinbuchstaben, 1–32 Buchstaben, Ziffern, - oder _), Beschreibung
# (höchstens 100 Zeichen), Namen und Beschreibungen ihrer Optionen.
discord--cmd--join = beitreten
discord--cmd--join--desc = Am Tisch dieses Kanals Platz nehmen
discord--cmd--leave = verlassen
discord--cmd--leave--desc = Den Tisch dieses Kanals verlassen (im Spiel übernimmt ein Bot)
discord--cmd--start = starten
discord--cmd--start--desc = Das Spiel starten (Gastgeber oder Admin)
discord--cmd--addbot = bot-dazu
discord--cmd--addbot--desc = Einen Bot in die Lobby setzen (Gastgeber oder Admin)
discord--cmd--removebot = bot-entfernen
discord--cmd--removebot--desc = Einen Bot aus der Lobby entfernen (Gastgeber oder Admin)
discord--cmd--cancel = abbrechen
discord--cmd--cancel--desc = Den Tisch dieses Kanals abbrechen (Gastgeber oder Admin)
discord--cmd--table = tisch
discord--cmd--table--desc = Den Tisch unten im Kanal neu anzeigen
discord--cmd--scores = punkte
discord--cmd--scores--desc = Der Punktestand des Spiels in diesem Kanal
discord--cmd--newgame = neues-spiel
discord--cmd--newgame--desc = Einen Tisch für ein Spiel in diesem Kanal eröffnen
discord--cmd--newgame--game = spiel
discord--cmd--newgame--game--desc = Das Spiel, das ihr spielt
discord--cmd--newgame--options = optionen
discord--cmd--newgame--options--desc = Optionen, z. B. rounds=3 ox=ja deadline=aus
discord--cmd--play = spielen
discord--cmd--play--desc = Einen Zug spielen, z. B. 7 7 J
discord--cmd--play--move = zug
discord--cmd--play--move--desc = Dein Zug in der Schreibweise des Spiels
discord--cmd--pass = passen
discord--cmd--pass--desc = Passen
discord--cmd--hand = hand
discord--cmd--hand--desc = Deine Hand ansehen (nur du siehst sie)
discord--cmd--kick = rauswerfen
discord--cmd--kick--desc = Einen Spieler vom Tisch entfernen (Gastgeber oder Admin)
discord--cmd--kick--member = spieler
discord--cmd--kick--member--desc = Der Spieler, der gehen soll
discord--cmd--options = optionen
discord--cmd--options--desc = Die Optionen des Tisches vor dem Start ansehen oder ändern (Gastgeber oder Admin)
discord--cmd--options--options = optionen
discord--cmd--options--options--desc = z. B. rounds=3 ox=ja deadline=aus; leer, um sie zu sehen
discord--cmd--stats = statistik
discord--cmd--stats--desc = Deine Ergebnisse in beendeten Spielen
discord--cmd--rules = regeln
discord--cmd--rules--desc = Die Regeln eines Spiels
discord--cmd--rules--game = spiel
discord--cmd--rules--game--desc = Welches Spiel (sonst das, das hier läuft)
discord--cmd--lang = sprache
discord--cmd--lang--desc = Die Sprache, die ich mit dir oder in diesem Kanal spreche
discord--cmd--lang--language = sprache
discord--cmd--lang--language--desc = Sprache
discord--cmd--lang--where = wo
discord--cmd--lang--where--desc = Nur für dich (Standard) oder für den Kanal
discord--cmd--mydata = meine-daten
discord--cmd--mydata--desc = Bekomm als Datei, was ich über dich speichere
discord--cmd--forgetme = vergiss-mich
discord--cmd--forgetme--desc = Lösch, was ich über dich speichere
discord--cmd--help = hilfe
discord--cmd--help--desc = Was ich kann
# Die Auswahl in der Liste eines Befehls.
discord--choice--me = ich
discord--choice--channel = kanal
discord--cmd--leaderboard = rangliste
discord--cmd--leaderboard--desc = Die besten Spieler dieses Servers, Spiel für Spiel
discord--cmd--leaderboard--game = spiel
discord--cmd--leaderboard--game--desc = Welches Spiel (sonst alle gewerteten Spiele)
discord--cmd--leaderboard--season = saison
discord--cmd--leaderboard--season--desc = Eine Saison, z. B. 2026-Q4 (sonst die laufende)
discord--cmd--rating = wertung
discord--cmd--rating--desc = Die Wertungen eines Spielers auf diesem Server
discord--cmd--rating--player = spieler
discord--cmd--rating--player--desc = Wessen Wertungen (sonst deine)
