### Discord only: private messages and ephemeral views.

discord--oops = Quelque chose a échoué de mon côté ; rien n'a changé. Réessayez.
discord--hand_here = Je ne peux pas vous écrire en privé (vos messages privés sont fermés) : votre main s'affiche donc ici, pour vous seul, et suit la partie. Discord garde cet affichage à jour 15 minutes ; ensuite, appuyez de nouveau sur « Ma main ».
discord--hand_in_dm = Votre main, avec ses boutons, est dans nos messages privés.
discord--hand_expired = L'affichage privé de votre main a expiré (Discord le garde 15 minutes). Appuyez sur « Ma main » pour revoir vos cartes.
discord--guild_only = Les tables se jouent dans un salon ou un fil d'un serveur, pas ici.
discord--cannot_post = Je ne peux pas écrire dans ce salon, sa table ne pourrait pas s'y afficher : donnez-moi le droit de le voir et d'y envoyer des messages (dans les fils aussi, pour un fil), ou jouez dans un autre salon. Rien n'a été changé.

# Commandes slash : nom (minuscules, 1 à 32 lettres, chiffres, - ou _), description
# (100 caractères au plus), noms et descriptions de leurs options.
discord--cmd--join = rejoindre
discord--cmd--join--desc = Prendre place à la table de ce salon
discord--cmd--leave = quitter
discord--cmd--leave--desc = Quitter la table de ce salon (un bot joue à votre place en partie)
discord--cmd--start = lancer
discord--cmd--start--desc = Lancer la partie (hôte ou admin du salon)
discord--cmd--addbot = ajouter-bot
discord--cmd--addbot--desc = Ajouter un joueur bot au salon d'attente (hôte ou admin)
discord--cmd--removebot = retirer-bot
discord--cmd--removebot--desc = Retirer un joueur bot du salon d'attente (hôte ou admin)
discord--cmd--cancel = annuler
discord--cmd--cancel--desc = Annuler la table de ce salon (hôte ou admin du salon)
discord--cmd--table = table
discord--cmd--table--desc = Afficher à nouveau la table en bas du salon
discord--cmd--scores = scores
discord--cmd--scores--desc = Les scores de la partie de ce salon
discord--cmd--newgame = nouvelle-partie
discord--cmd--newgame--desc = Ouvrir une table pour un jeu dans ce salon
discord--cmd--newgame--game = jeu
discord--cmd--newgame--game--desc = Le jeu à jouer
discord--cmd--newgame--options = options
discord--cmd--newgame--options--desc = Options, par ex. rounds=3 ox=oui deadline=non
discord--cmd--play = jouer
discord--cmd--play--desc = Jouer un coup, par ex. 7 7 J
discord--cmd--play--move = coup
discord--cmd--play--move--desc = Votre coup dans la notation du jeu
discord--cmd--pass = passer
discord--cmd--pass--desc = Passer votre tour
discord--cmd--hand = main
discord--cmd--hand--desc = Voir votre main (vous seul la voyez)
discord--cmd--kick = exclure
discord--cmd--kick--desc = Retirer un joueur de la table (hôte ou admin)
discord--cmd--kick--member = joueur
discord--cmd--kick--member--desc = Le joueur à retirer
discord--cmd--options = options
discord--cmd--options--desc = Voir ou changer les options de la table avant le début (hôte ou admin)
discord--cmd--options--options = options
discord--cmd--options--options--desc = par ex. rounds=3 ox=oui deadline=non ; vide pour les voir
discord--cmd--stats = stats
discord--cmd--stats--desc = Vos résultats dans les parties terminées
discord--cmd--rules = règles
discord--cmd--rules--desc = Les règles d'un jeu
discord--cmd--rules--game = jeu
discord--cmd--rules--game--desc = Quel jeu (par défaut : celui joué ici)
discord--cmd--lang = langue
discord--cmd--lang--desc = La langue que j'emploie avec vous, ou dans ce salon
discord--cmd--lang--language = langue
discord--cmd--lang--language--desc = Langue
discord--cmd--lang--where = où
discord--cmd--lang--where--desc = Pour vous seul (par défaut) ou pour le salon
discord--cmd--mydata = mes-donnees
discord--cmd--mydata--desc = Recevoir ce que je garde sur vous, dans un fichier
discord--cmd--forgetme = oublie-moi
discord--cmd--forgetme--desc = Effacer ce que je garde sur vous
discord--cmd--help = aide
discord--cmd--help--desc = Ce que je sais faire
# Les choix proposés dans la liste d'une commande.
discord--choice--me = moi
discord--choice--channel = salon
discord--cmd--leaderboard = classement
discord--cmd--leaderboard--desc = Les meilleurs joueurs de ce serveur, jeu par jeu
discord--cmd--leaderboard--game = jeu
discord--cmd--leaderboard--game--desc = Quel jeu (par défaut : tous les jeux classés)
discord--cmd--leaderboard--season = saison
discord--cmd--leaderboard--season--desc = Une saison, p. ex. 2026-Q4 (par défaut : l'actuelle)
discord--cmd--rating = cote
discord--cmd--rating--desc = Les classements d'un joueur sur ce serveur
discord--cmd--rating--player = joueur
discord--cmd--rating--player--desc = De qui (par défaut : vous)
