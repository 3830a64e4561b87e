"""Les Cinq Rois's strings (French, English), added to the catalogue when the game is loaded
(``i18n.register``): everything a player reads on its screens and in its demo."""

from __future__ import annotations

from companion.i18n import register

STRINGS: dict[str, tuple[str, str]] = {
    "cinq.pts": ("pts", "pts"),  # the unit beside a total in far type (the kit's tiles)
    "cinq.points": ("{n} {n|pt|pts}", "{n} {n|pt|pts}"),
    # The navigation bar names the game's screens by these keys (display/screens.py).
    "scr.nav.sheet": ("Feuille", "Sheet"),
    "scr.nav.entry": ("Saisie", "Entry"),
    "scr.nav.round": ("Donne", "Round"),
    "cinq.head.round": ("Donne {round}/{rounds}", "Round {round}/{rounds}"),
    "cinq.headline": ("Donne {round} : {detail}", "Round {round}: {detail}"),
    "cinq.head.detail": (
        "{cards} cartes, atout {bonus}, donneur {dealer}, {first} commence",
        "{cards} cards, bonus {bonus}, dealer {dealer}, {first} plays first",
    ),
    "cinq.head.short": ("atout {bonus} · {dealer} donne", "bonus {bonus} · {dealer} deals"),
    "cinq.head.lots": ("atout {bonus} · donneur à tirer", "bonus {bonus} · dealer to draw"),
    "cinq.head.over": ("Partie terminée", "Game over"),
    "cinq.head.played": ("11 donnes jouées", "11 rounds played"),
    "cinq.todo.over": ("partie terminée", "game over"),
    "cinq.todo.lots": (
        "appuyez sur un bouton pour tirer le premier donneur au sort",
        "press a button to draw the first dealer by lot",
    ),
    "cinq.todo.last_turns": ("dernier tour : {name}", "last turn: {name}"),
    "cinq.todo.entry": ("saisissez la donne", "enter the round"),
    "cinq.todo.play": ("qui s'expose appuie sur son bouton", "whoever goes out presses their button"),
    "cinq.sheet.now": (
        "Donne {round} : {cards} cartes, atout {bonus}",
        "Round {round}: {cards} cards, bonus {bonus}",
    ),
    "cinq.sheet.total": ("Total", "Total"),
    "cinq.sheet.hint": (
        "Qui s'expose appuie sur son bouton (ou touchez son nom).",
        "Whoever goes out presses their button (or touch their name).",
    ),
    "cinq.sheet.enter": ("Saisir la donne", "Enter the round"),
    "cinq.key.e": ("E ou Entrée", "E or Enter"),
    "cinq.key.backspace": ("retour arrière", "backspace"),
    "cinq.lots.title": ("Qui donne en premier ?", "Who deals first?"),
    "cinq.lots.button": ("Tirer au sort", "Draw lots"),
    "cinq.lots.hint": ("un bouton ou Entrée ; ou touchez un joueur", "a button or Enter; or touch a player"),
    "cinq.lots.skip": ("{name} donne", "{name} deals"),
    "cinq.lots.drawing": ("Tirage au sort…", "Drawing lots…"),
    "cinq.lots.result": ("{name} donne !", "{name} deals!"),
    "cinq.lots.done": ("Le premier donneur est tiré : {name}", "The first dealer was drawn: {name}"),
    "cinq.lots.given": ("Le premier donneur est choisi : {name}", "The first dealer is set: {name}"),
    "cinq.last.title": ("{name} s'expose !", "{name} goes out!"),
    "cinq.last.sub": (
        "Chacun joue un dernier tour, dans l'ordre ; appuyez quand c'est fait.",
        "Everyone plays one last turn, in order; press when it is done.",
    ),
    "cinq.last.played": ("joué", "played"),
    "cinq.last.now": ("à vous", "your turn"),
    "cinq.last.waiting": ("ensuite", "next"),
    "cinq.last.none": ("Personne ne s'est exposé dans cette donne.", "Nobody has gone out this round."),
    "cinq.last.cancel": ("Erreur, annuler", "Mistake, cancel"),
    "cinq.last.go": ("Saisir la donne", "Enter the round"),
    "cinq.mode.points": ("Points", "Points"),
    "cinq.mode.left": ("Cartes restantes", "Cards left"),
    "cinq.mode.hands": ("Mains entières", "Whole hands"),
    "cinq.entry.out_tag": ("exposé", "out"),
    "cinq.entry.out_zero": ("0 (exposé)", "0 (out)"),
    "cinq.entry.out_zero_long": ("{name} s'expose : 0 point", "{name} went out: 0 points"),
    "cinq.entry.cards_n": ("{n} cartes", "{n} cards"),
    "cinq.entry.who_out": (
        "Qui s'est exposé ? Touchez « exposé » ou tapez son numéro",
        'Who went out? Touch "out" or type their number',
    ),
    "cinq.entry.points_of": ("Points de {name}", "{name}'s points"),
    "cinq.entry.hand_of": ("Main de {name} : {n}/{size} cartes", "{name}'s hand: {n}/{size} cards"),
    "cinq.entry.left_of": ("Cartes restantes de {name} : {n}", "{name}'s cards left: {n}"),
    "cinq.entry.no_cards": ("Aucune carte : Entrée", "No cards: Enter"),
    "cinq.entry.type_cards": (
        "Touchez les cartes ou tapez-les : 7 H, 1 0 S, J K",
        "Touch the cards or type them: 7 H, 1 0 S, J K",
    ),
    "cinq.entry.rank_typed": ("{rank} : couleur ?", "{rank}: suit?"),
    "cinq.entry.back": ("Effacer", "Erase"),
    "cinq.entry.erase": ("Effacer", "Erase"),
    "cinq.entry.next": ("Suivant", "Next"),
    "cinq.entry.next_short": ("Suivant", "Next"),
    "cinq.entry.confirm": ("Valider la donne", "Count the round"),
    "cinq.entry.over": (
        "La partie est finie : plus de donne à saisir.",
        "The game is over: no round left to enter.",
    ),
    "cinq.round.none": ("Aucune donne comptée pour l'instant.", "No round counted yet."),
    "cinq.round.title": (
        "Donne {round} (atout {bonus}) : {name} s'expose",
        "Round {round} (bonus {bonus}): {name} went out",
    ),
    "cinq.round.went_out": ("exposé", "out"),
    "cinq.round.unit": ("pts", "pts"),
    "cinq.round.by_points": ("points saisis", "points entered"),
    "cinq.round.legend": (
        "Vert : suites et familles ; jaune : ce que vaut un joker ou un atout ; orange : cartes restantes.",
        "Green: runs and sets; yellow: what a wild stands for; orange: cards left.",
    ),
    "cinq.round.continue": ("Continuer", "Continue"),
    "cinq.over.winner": ("{names} gagne avec {n} {n|point|points}", "{names} wins with {n} {n|point|points}"),
    "cinq.over.co_winners": (
        "Ex æquo : {names} ({n} {n|point|points})",
        "Co-winners: {names} ({n} {n|point|points})",
    ),
    "cinq.over.co_count": (
        "{count} vainqueurs ex æquo ({n} {n|point|points})",
        "{count} co-winners ({n} {n|point|points})",
    ),
    "cinq.over.not_yet": (
        "La partie n'est pas finie (donne {round}/11) : classement provisoire.",
        "The game is not over (round {round}/11): provisional standings.",
    ),
    "cinq.over.provisional": ("Classement provisoire", "Provisional standings"),
    "cinq.undone.round": ("donne {round} ({name} exposé)", "round {round} ({name} out)"),
    "cinq.undone.dealer": ("tirage du donneur ({name})", "dealer draw ({name})"),
    "cinq.rules.body": (
        "Les Cinq Rois. 2 à 7 joueurs, deux jeux de 58 cartes (5 couleurs du 3 au Roi, deux fois, "
        "et 6 jokers). 11 donnes : la donne n distribue n + 2 cartes. Combinaisons d'au moins "
        "trois cartes : suite (valeurs qui se suivent, même couleur, du 3 au Roi) ou famille "
        "(même valeur).",
        "Les Cinq Rois. 2 to 7 players, two 58-card decks (5 suits 3 to King, twice, and 6 "
        "jokers). 11 rounds: round n deals n + 2 cards. Combinations of three cards or more: a "
        "run (consecutive ranks of one suit, 3 to King) or a set (one rank).",
    ),
    "cinq.rules.values": (
        "Valeurs : joker 50, atout 20, Roi 13, Dame 12, Valet 11, 10 à 3 leur valeur.",
        "Values: joker 50, bonus card 20, King 13, Queen 12, Jack 11, 10 to 3 face value.",
    ),
    "cinq.rules.wilds": (
        "Jokers et atouts remplacent n'importe quelle carte, sans limite.",
        "Jokers and bonus cards stand for any card, without limit.",
    ),
    "cinq.rules.bonus_table": (
        "Atout de chaque donne = le nombre de cartes distribuées : donne 1 = atout 3, donne 2 = "
        "atout 4 … donne 8 = atout 10, donne 9 = Valet, donne 10 = Dame, donne 11 = Roi.",
        "Bonus card of each round = the number of cards dealt: round 1 = bonus 3, round 2 = "
        "bonus 4 … round 8 = bonus 10, round 9 = Jack, round 10 = Queen, round 11 = King.",
    ),
    "cinq.rules.now": (
        "Cette donne : {cards} cartes, atout {bonus}.",
        "This round: {cards} cards, bonus {bonus}.",
    ),
    "cinq.rules.out": (
        "Qui s'expose marque 0 ; les autres jouent un dernier tour puis comptent "
        "leurs cartes hors combinaison. Après 11 donnes, le moins de points gagne.",
        "Whoever goes out scores 0; the others play one last turn, then count "
        "the cards outside combinations. After 11 rounds, fewest points wins.",
    ),
    "cinq.rules.dealer": (
        "Premier donneur : {name} ; la donne tourne dans le sens horaire, le joueur suivant commence.",
        "First dealer: {name}; the deal moves clockwise, the next player starts.",
    ),
    "cinq.rules.dealer_lots": (
        "Premier donneur : tiré au sort à la table ; la donne tourne dans le sens horaire.",
        "First dealer: drawn by lot at the table; the deal moves clockwise.",
    ),
    "cinq.setup.dealer": ("Donneur : {name}", "Dealer: {name}"),
    "cinq.setup.dealer_lots": ("Donneur : au sort", "Dealer: by lot"),
    "cinq.setup.dealer_help": (
        "Premier donneur ; au sort : tiré à la table",
        "First dealer; by lot: drawn at the table",
    ),
    "scr.rules.keys.cinq-rois": (
        "Touches\n1 … 7 : boutons des joueurs (je m'expose, puis dernier tour joué)\n"
        "Entrée : valider · Échap : retour, annuler\n"
        "U ou Ctrl+Z : annuler la dernière décision\n"
        "Saisie : flèches gauche/droite = mode, haut/bas = joueur, chiffres = points ; "
        "carte = valeur puis couleur "
        "(3 … 9, 0 ou 1 0 = 10, V/J, D/Q, R/K ; F1 pique, F2 cœur, F3 carreau, F4 trèfle, "
        "F5, E ou * étoile), X ou J K "
        "joker, retour arrière efface\n"
        "T feuille · E saisie · D donne · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 7: the players' buttons (I go out, then last turn played)\n"
        "Enter: confirm · Esc: back, cancel\n"
        "U or Ctrl+Z: undo the last decision\n"
        "Entry: left/right arrows = mode, up/down = player, digits = points; card = rank then suit "
        "(3 … 9, 0 or 1 0 = 10, J/V, Q/D, K/R; S H D C, E or * star, or F1 … F5), X or J K "
        "joker, backspace erases\n"
        "T sheet · E entry · D round · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit",
    ),
    # companion demo cinq-rois
    "cinq.demo.dealer": ("Tirage au sort du premier donneur : {name}.", "First dealer drawn by lot: {name}."),
    "cinq.demo.round": ("— {headline} —", "— {headline} —"),
    "cinq.demo.turns": ("  {turns} tours ; {name} s'expose.", "  {turns} turns; {name} goes out."),
    "cinq.demo.hand": (
        "  {name:<{width}} {groups}{rest} → {points} {points|pt|pts}",
        "  {name:<{width}} {groups}{rest} → {points} {points|pt|pts}",
    ),
    "cinq.demo.rest": ("  reste {cards}", "  left {cards}"),
    "cinq.demo.standings": ("  Classement : {line}", "  Standings: {line}"),
    "cinq.demo.winner": (
        "Gagnant : {names} avec {n} {n|point|points}",
        "Winner: {names} with {n} {n|point|points}",
    ),
    "cinq.demo.co_winners": (
        "Gagnants ex æquo : {names} avec {n} {n|point|points}",
        "Co-winners: {names} with {n} {n|point|points}",
    ),
}

ERRORS: dict[str, tuple[str, str]] = {
    "cinq_rois.rules.one_way": (
        "une fin de donne indique un seul de points, left ou hands (ici : {got})",
        "a round_end gives exactly one of points, left or hands (got {got})",
    ),
    "cinq_rois.rules.no_way": ("aucun", "none"),
    # The French elides as it is said: "pas d'As", "pas de 2".
    "cinq_rois.solver.not_in_game": (
        "{card} n'existe pas aux Cinq Rois : les jeux vont du 3 au Roi en cinq couleurs, plus les "
        "jokers, sans As ni 2 (pas de {ranks})",
        "{card} does not exist in Les Cinq Rois: the decks hold 3 to K in five suits and jokers, "
        "no Aces and no 2s ({ranks} are not used)",
    ),
    "cinq_rois.rules.init": (
        "Les Cinq Rois se joue de {MIN_PLAYERS} à {MAX_PLAYERS} joueurs, pas {n_players}",
        "Les Cinq Rois is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n_players}",
    ),
    "cinq_rois.rules.dealer_one_players": (
        "le donneur {dealer!r} n'est pas un des joueurs ({players})",
        "the dealer {dealer!r} is not one of the players ({players})",
    ),
    "cinq_rois.rules.player": (
        "joueur inconnu {name!r} (joueurs : {players})",
        "unknown player {name!r} (players: {players})",
    ),
    "cinq_rois.rules.check_copies": (
        "{n_jokers} jokers dans cette donne ({who}) : les deux jeux n'en ont que {MAX_JOKERS}",
        "{n_jokers} jokers this round ({who}): the two decks hold only {MAX_JOKERS}",
    ),
    "cinq_rois.rules.result": (
        "la partie est finie : Les Cinq Rois se joue en {ROUNDS} donnes, il n'y a pas de donne {round}",
        "the game is over: Les Cinq Rois has {ROUNDS} rounds, there is no round {round}",
    ),
    "cinq_rois.rules.hands_missing_give": (
        "mains manquantes pour {missing} : donnez la main entière de chaque joueur, y compris celle de {out}",
        "hands missing for {missing}: give every player's whole hand, {out}'s included",
    ),
    "cinq_rois.rules.cannot_go_out": (
        "{out} ne peut pas s'exposer : {rest} ne se placent dans aucune suite ni famille (atout {value})",
        "{out} cannot go out: {rest} cannot be placed in a run or a set (bonus {value})",
    ),
    "cinq_rois.rules.check_dealer": (
        "{player} ne peut pas être tiré pour donner en premier : la donne 1 est déjà comptée "
        "({first_dealer} l'a distribuée)",
        "{player} cannot be drawn to deal first: round 1 is already counted ({first_dealer} dealt it)",
    ),
    "cinq_rois.rules.check_counts": (
        "la main de {player} a {count} cartes : la donne {n} en distribue {size}",
        "{player}'s hand has {count} cards: round {n} deals {size}",
    ),
    "cinq_rois.rules.cannot_have_cards": (
        "{player} ne peut pas garder {count} cartes : la donne {n} en distribue {size}",
        "{player} cannot have {count} cards left: round {n} deals {size}",
    ),
    "cinq_rois.rules.given_times_round": (
        "{card} est donné {n_holders} fois dans cette donne ({who}) : les deux jeux n'ont "
        "chaque carte que deux fois",
        "{card} is given {n_holders} times this round ({who}): the two decks hold each card only twice",
    ),
    "cinq_rois.rules.check_points": (
        "{player} ne peut pas marquer {pts} : les points sont positifs ou nuls",
        "{player} cannot score {pts}: points are 0 or more",
    ),
    "cinq_rois.rules.cannot_score_cards": (
        "{player} ne peut pas marquer {pts} : {dealt} cartes valent au plus {top} {top|point|points} "
        "à la donne {n}",
        "{player} cannot score {pts}: {dealt} cards are worth at most {top} {top|point|points} in round {n}",
    ),
    "cinq_rois.rules.check": (
        "{kind} n'est pas un événement des Cinq Rois",
        "{kind} is not an event of Les Cinq Rois",
    ),
    "cinq_rois.rules.there_nothing_undo": (
        "rien à annuler : aucune donne n'a été comptée",
        "there is nothing to undo: no round has been counted",
    ),
    "cinq_rois.solver.check_card": (
        "{card} a besoin de sa couleur : écrivez {card}S, {card}H, {card}D, {card}C ou {card}*",
        "{card} needs its suit: write it like {card}S, {card}H, {card}D, {card}C or {card}*",
    ),
    "cinq_rois.rules.cannot_drawn_deal": (
        "{player} ne peut pas être tiré pour donner en premier : {first} {how}",
        "{player} cannot be drawn to deal first: {first} {how}",
    ),
    "cinq_rois.rules.others": (
        "{out} s'expose et marque 0 : donnez les {what} des autres seulement",
        "{out} went out and scores 0: give {what} only for the others",
    ),
    "cinq_rois.rules.must_given_every": (
        "il faut les {what} de chaque joueur sauf {out} : il manque {missing}",
        "{what} must be given for every player but {out}: missing {missing}",
    ),
    "cinq_rois.rules.check_cards": ("{player} : {what}", "{player}: {what}"),
}

register(STRINGS)
register(ERRORS)
