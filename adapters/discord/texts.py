"""The few sentences only the Discord adapter says, added to the shared catalogue.

They name Discord's own limits (private messages, 15-minute ephemeral views), which no
other platform shares, so they live here rather than in bot/i18n.py.
"""

from bot.i18n import register

EN = {
    "discord.oops": "Something went wrong on my side; nothing was changed. Please try again.",
    "discord.hand_here": "I can't send you private messages (your DMs are closed), so your "
                         "hand is shown here, only to you, and it follows the game. Discord "
                         "keeps such a view up to date for 15 minutes; after that press "
                         "“My hand” again.",
    "discord.hand_in_dm": "Your hand, with its buttons, is in our private messages.",
    "discord.hand_expired": "Your private view of your hand has expired (Discord keeps it "
                            "15 minutes). Press “My hand” to see your cards again.",
    "discord.guild_only": "Tables are played in a server channel or thread, not here.",
}

FR = {
    "discord.oops": "Quelque chose a échoué de mon côté ; rien n'a changé. Réessayez.",
    "discord.hand_here": "Je ne peux pas vous écrire en privé (vos messages privés sont "
                         "fermés) : votre main s'affiche donc ici, pour vous seul, et suit la "
                         "partie. Discord garde cet affichage à jour 15 minutes ; ensuite, "
                         "appuyez de nouveau sur « Ma main ».",
    "discord.hand_in_dm": "Votre main, avec ses boutons, est dans nos messages privés.",
    "discord.hand_expired": "L'affichage privé de votre main a expiré (Discord le garde "
                            "15 minutes). Appuyez sur « Ma main » pour revoir vos cartes.",
    "discord.guild_only": "Les tables se jouent dans un salon ou un fil d'un serveur, pas ici.",
}

register({"en": EN, "fr": FR})
