### Nur Discord: Privatnachrichten und flüchtige Ansichten.

discord--oops = Bei mir ist etwas schiefgegangen; nichts wurde geändert. Versuch es bitte noch einmal.
discord--hand_here = Ich kann dir keine Privatnachrichten schicken (deine DMs sind zu), deshalb siehst du deine Hand hier, nur für dich, und sie folgt dem Spiel. Discord hält diese Ansicht 15 Minuten aktuell; danach drück noch einmal auf „Meine Hand“.
discord--hand_in_dm = Deine Hand mit ihren Knöpfen liegt in unseren Privatnachrichten.
discord--hand_expired = Deine private Ansicht deiner Hand ist abgelaufen (Discord hält sie 15 Minuten). Drück auf „Meine Hand“, um deine Karten wieder zu sehen.
discord--guild_only = Gespielt wird in einem Kanal oder Thread eines Servers, nicht hier.
