### Discord only: private messages and ephemeral views.

discord--oops = Quelque chose a échoué de mon côté ; rien n'a changé. Réessayez.
discord--hand_here = Je ne peux pas vous écrire en privé (vos messages privés sont fermés) : votre main s'affiche donc ici, pour vous seul, et suit la partie. Discord garde cet affichage à jour 15 minutes ; ensuite, appuyez de nouveau sur « Ma main ».
discord--hand_in_dm = Votre main, avec ses boutons, est dans nos messages privés.
discord--hand_expired = L'affichage privé de votre main a expiré (Discord le garde 15 minutes). Appuyez sur « Ma main » pour revoir vos cartes.
discord--guild_only = Les tables se jouent dans un salon ou un fil d'un serveur, pas ici.
