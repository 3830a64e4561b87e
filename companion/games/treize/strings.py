"""13 feuilles's strings (French, English), added to the catalogue when the game is loaded
(``i18n.register``): everything a player reads on its screens and in its demo."""

from __future__ import annotations

from companion.i18n import register

STRINGS: dict[str, tuple[str, str]] = {
    "treize.pts": ("pts", "pts"),  # the unit beside a total in far type (the kit's tiles)
    "game.treize": ("13 feuilles", "13 feuilles"),
    "scr.nav.scores": ("Scores", "Scores"),
    "scr.nav.gameover": ("Résultat", "Result"),
    "treize.head.game": ("Partie {n} · manche {trick}", "Game {n} · trick {trick}"),
    "treize.head.over": ("Match : {games} parties", "Match: {games} games"),
    "treize.head.over_basic": ("Partie finie", "Game over"),
    "treize.todo.lots": ("appuyez pour tirer au sort", "press to draw lots"),
    "treize.todo.turn": ("à {name} : jouer ou passer", "{name}: play or pass"),
    "treize.todo.lead": ("à {name} d'entamer : jouer", "{name} leads: play"),
    "treize.todo.first": ("{name} commence : jouer", "{name} starts: play"),
    "treize.todo.passes": ("bouton = je passe", "button = I pass"),
    "treize.todo.take": ("{name} passe : quelle carte ?", "{name} passes: which card?"),
    "treize.todo.next": ("partie {n} finie : Entrée pour continuer", "game {n} over: Enter to go on"),
    "treize.todo.over": ("match fini", "match over"),
    "treize.todo.over_basic": ("partie finie", "game over"),
    "treize.series.empty": (
        "Table vide : {name} entame, autant de cartes d'une même valeur que voulu",
        "Table empty: {name} leads with any number of cards of one value",
    ),
    "treize.series.empty_nobody": (
        "Table vide : le premier coup entame la série",
        "Table empty: the first play starts the series",
    ),
    "treize.series.title": ("Sur la table", "On the table"),
    "treize.series.low": ("bas : {count} × {value}", "low: {count} × {value}"),
    "treize.series.high": ("haut : {count} × {value}", "high: {count} × {value}"),
    "treize.series.one": ("une seule pile : {count} × {value}", "one stack: {count} × {value}"),
    "treize.allowed": ("{name} peut jouer {what}", "{name} may play {what}"),
    "treize.only_pass": (
        "{name} ne peut que passer : {n} {n|carte|cartes} en main, trop peu pour la table",
        "{name} can only pass: {n} {n|card|cards} in hand, too few for the table",
    ),
    "treize.btn.play_short": ("Saisir le coup", "Enter the play"),
    "treize.can_play": ("Jouable : {what}", "Playable: {what}"),
    "treize.can_play.group": (
        "{values}, {n} {n|carte|cartes} ou plus",
        "{values}, {n} {n|card|cards} or more",
    ),
    "treize.can_play.range": ("{a} à {b}", "{a} to {b}"),
    "treize.can_play.or": (" ou ", " or "),
    "treize.can_play.and": (" ; ", "; "),
    "treize.series.unknown": (
        "Coups non saisis dans cette partie : appuyer = je passe",
        "Plays not entered in this game: a press = I pass",
    ),
    "treize.tag.turn": ("joue", "to play"),
    "treize.tag.passed": ("a passé", "passed"),
    "treize.tag.leads": ("entame", "leads"),
    "treize.tag.starts": ("commence", "starts"),
    "treize.cards": ("cartes", "cards"),
    "treize.card": ("carte", "card"),
    "treize.points": ("{n} {n|pt|pts}", "{n} {n|pt|pts}"),
    "treize.btn.play": ("Coup de {name}", "{name}'s play"),
    "treize.btn.end": ("Fin de partie", "End of game"),
    "treize.btn.helper.on": ("Aide à la série : oui", "Series helper: on"),
    "treize.btn.helper.off": ("Aide à la série : non", "Series helper: off"),
    "treize.setup.helper.on.help": (
        "On entre chaque coup : série et mains suivies",
        "Each play is entered: series and hands followed",
    ),
    "treize.setup.helper.off.help": (
        "Seulement les passes et la fin de chaque partie",
        "Only the passes and each game's end",
    ),
    "treize.msg.helper_fixed": (
        "L'aide se choisit avant la première carte de la partie",
        "The helper is chosen before the game's first card",
    ),
    "treize.hint.press": (
        "Bouton d'un joueur ou toucher son nom = il passe",
        "A player's button or touching their name = they pass",
    ),
    "treize.play.ask": ("Quelle valeur, combien ?", "Which value, how many?"),
    "treize.play.chosen": ("Coup : {count} × {value}", "Play: {count} × {value}"),
    "treize.play.pick_value": ("Touchez la valeur jouée", "Touch the value played"),
    "treize.play.pick_count": ("Combien de {value} ?", "How many {value}s?"),
    "treize.play.none": ("Pas de coup à entrer. {why}", "No play to enter. {why}"),
    "treize.play.none_turn": ("on ne sait pas à qui c'est le tour", "whose turn it is is not known"),
    "treize.tag.min": ("{n} ou +", "{n}+"),
    "treize.tag.gap": ("interdit", "gap"),
    "treize.tag.few": ("pas assez", "too few"),
    "treize.take.ask": (
        "Passe et prend une carte de la table : laquelle ?",
        "Passes and takes a card from the table: which one?",
    ),
    "treize.take.stack": ("{count} sur la table", "{count} on the table"),
    "treize.take.none": ("Personne ne passe en ce moment.", "Nobody is passing right now."),
    "treize.lots.title": ("Qui commence ?", "Who starts?"),
    "treize.lots.hint": ("un bouton ou Entrée", "a button or Enter"),
    "treize.lots.button": ("Tirer au sort", "Draw lots"),
    "treize.lots.drawing": ("Tirage au sort…", "Drawing lots…"),
    "treize.lots.result": ("{name} commence !", "{name} starts!"),
    "treize.lots.known": (
        "Pas de tirage : {name} commence la partie {n}.",
        "No lots to draw: {name} starts game {n}.",
    ),
    "treize.lots.over": ("Le match est fini : plus de tirage.", "The match is over: no lots."),
    "treize.scores.game": ("P{n}", "G{n}"),
    "treize.scores.total": ("Total", "Total"),
    "treize.scores.race": (
        "Course à {target} {target|point|points}",
        "Race to {target} {target|point|points}",
    ),
    "treize.scores.none": (
        "Aucune partie finie : la feuille se remplit après la première.",
        "No game finished yet: the sheet fills in after the first.",
    ),
    "treize.scores.basic": (
        "Variante de base : une partie, sans points. Gagnant : {name}",
        "Basic variant: one game, no points. Winner: {name}",
    ),
    "treize.scores.basic_none": (
        "Variante de base : une partie, sans points.",
        "Basic variant: one game, no points.",
    ),
    "treize.scores.won": ("Partie {n} : {name} a vidé sa main", "Game {n}: {name} emptied their hand"),
    "treize.scores.next": ("Partie suivante", "Next game"),
    "treize.scores.starts": (
        "{name} commence la partie {n} (plus haut total)",
        "{name} starts game {n} (highest total)",
    ),
    "treize.over.points": ("avec {n} {n|point|points}", "with {n} {n|point|points}"),
    "treize.over.won": ("gagne le match", "wins the match"),
    "treize.over.tied": ("{n} vainqueurs ex aequo", "{n} winners, tied"),
    "treize.over.not_yet": (
        "Le match n'est pas fini (partie {n}) : classement provisoire.",
        "The match is not over (game {n}): provisional standings.",
    ),
    "treize.end.title": (
        "Qui a vidé sa main ?",
        "Who emptied their hand?",
    ),
    "treize.end.left": ("Cartes qui restent à chacun", "Cards each player still holds"),
    "treize.end.confirm": ("Valider la fin", "Confirm the end"),
    "treize.end.none": (
        "Les coups sont saisis : la partie finit d'elle-même sur la dernière carte.",
        "Plays are entered: the game ends by itself on the last card.",
    ),
    "treize.msg.lead_first": (
        "{name} ne peut pas passer : {leader} entame en jouant ; entrez son coup (Entrée)",
        "{name} cannot pass: {leader} leads with a play; enter it (Enter)",
    ),
    "treize.msg.pick_value": ("Choisissez d'abord la valeur", "Pick the value first"),
    "treize.msg.pick_count": ("Choisissez combien de cartes", "Pick how many cards"),
    "treize.msg.pick_winner": ("Choisissez qui a vidé sa main", "Pick who emptied their hand"),
    "treize.msg.lots": ("Tiré au sort : {name} commence", "Drawn by lot: {name} starts"),
    "treize.undone.play": ("{name} {count} × {value}", "{name} {count} × {value}"),
    "treize.undone.pass": ("{name} passe", "{name} passes"),
    "treize.undone.starter": ("le tirage au sort", "the lots"),
    "treize.undone.end": ("la fin de la partie", "the end of the game"),
    "treize.rules.body": (
        "13 feuilles. 3 à 6 joueurs, 12/11/10/9 cartes chacun. À son tour, on pose une ou "
        "plusieurs cartes d'une même valeur : plus bas que le bas de la série, plus haut que le "
        "haut, ou égal à un bout, et au moins autant de cartes qu'il y en a sur ce bout. Rien "
        "entre les deux bouts. Qui ne peut ou ne veut pas jouer passe : il prend une carte "
        "visible et sort de la manche. Quand tous sauf un ont passé, celui-là vide la table et "
        "entame. Le premier qui n'a plus de carte gagne.",
        "13 feuilles. 3 to 6 players, 12/11/10/9 cards each. On your turn, put down one or more "
        "cards of one value: below the series' low end, above its high end, or equal to an end, "
        "and at least as many cards as lie on that end. Nothing between the ends. Whoever cannot "
        "or will not play passes: they take one visible card and sit out the trick. When all "
        "but one have passed, that player clears the table and leads. The first with no cards "
        "left wins.",
    ),
    "treize.rules.legend": (
        "Les cartes : un point = 1, un rond pointé = 5, un carré pointé = 10 (un rond pointé "
        "et deux points = 7).",
        "The cards: a dot = 1, a dotted circle = 5, a dotted square = 10 (a dotted circle and two dots = 7).",
    ),
    "treize.rules.advanced": (
        "Variante avancée : le gagnant marque 0, les autres 1 point par carte gardée ; le plus "
        "haut total commence la partie suivante ; le match finit quand un total atteint 20. Le "
        "plus petit total gagne (ex aequo possibles).",
        "Advanced variant: the winner scores 0, the others 1 point per card kept; the highest "
        "total starts the next game; the match ends when a total reaches 20. Lowest total wins "
        "(ties share the win).",
    ),
    "treize.rules.basic": ("Variante de base : une seule partie.", "Basic variant: a single game."),
    "treize.rules.ties": (
        "Totaux les plus hauts égaux : commence le premier d'entre eux dans le "
        "sens horaire après le gagnant.",
        "Equal highest totals: the first of them clockwise after the winner starts.",
    ),
    "scr.rules.keys.treize": (
        "Touches\n1 … 6 : boutons des joueurs = je passe\n"
        "Entrée : entrer le coup du joueur (puis valider)\n"
        "Coup : 1 … 9, 0 = 10, V/J = 11, D/Q = 12, R/K = 13, puis le nombre de cartes (1 … 9)\n"
        "Échap : retour · Retour arrière, U ou Ctrl+Z : annuler\n"
        "A : aide à la série, avant la première carte d'une partie\n"
        "T table · G scores · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 6: the players' buttons = I pass\n"
        "Enter: enter the player's play (then confirm)\n"
        "Play: 1 … 9, 0 = 10, J/V = 11, Q/D = 12, K/R = 13, then how many cards (1 … 9)\n"
        "Esc: back · Backspace, U or Ctrl+Z: undo\n"
        "A: series helper, before a game's first card\n"
        "T table · G scores · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit",
    ),
    "treize.setup.variant.basic": ("Variante : de base", "Variant: basic"),
    "treize.setup.variant.advanced": ("Variante : avancée (à 20)", "Variant: advanced (to 20)"),
    "treize.setup.variant.basic.help": (
        "Une partie : le premier sans carte gagne",
        "One game: the first with no cards wins",
    ),
    "treize.setup.variant.advanced.help": (
        "Des parties jusqu'à 20 points ; le plus bas gagne",
        "Games until 20 points; the lowest wins",
    ),
    "treize.demo.game": ("— Partie {n} : {name} commence ({why}) —", "— Game {n}: {name} starts ({why}) —"),
    "treize.why.lots": ("tiré au sort", "drawn by lot"),
    "treize.why.totals": ("plus haut total", "highest total"),
    "treize.why.setup": ("désigné", "named"),
    "treize.demo.play": (
        "  {name} joue {count} × {value}    table : {series}",
        "  {name} plays {count} × {value}    table: {series}",
    ),
    "treize.demo.pass": ("  {name} passe et prend un {value}", "  {name} passes and takes a {value}"),
    "treize.demo.trick": (
        "  Manche finie : {name} vide la table et entame.",
        "  Trick over: {name} clears the table and leads.",
    ),
    "treize.demo.won": (
        "  {name} pose sa dernière carte et gagne la partie {n} !",
        "  {name} plays their last card and wins game {n}!",
    ),
    "treize.demo.points": ("  Points : {line}", "  Points: {line}"),
    "treize.demo.totals": ("  Totaux : {line}", "  Totals: {line}"),
    "treize.demo.winner": (
        "Vainqueur : {names} avec {n} {n|point|points}",
        "Winner: {names} with {n} {n|point|points}",
    ),
    "treize.demo.co": (
        "Vainqueurs ex aequo : {names} avec {n} {n|point|points}",
        "Co-winners: {names} with {n} {n|point|points}",
    ),
    "treize.demo.basic_winner": ("Vainqueur : {names}", "Winner: {names}"),
}

ERRORS: dict[str, tuple[str, str]] = {
    "treize.rules.left_negative": (
        "'left' ne peut pas donner {n} {n|carte|cartes} à {name} : une main compte 0 carte ou plus",
        "'left' cannot give {name} {n} cards: a hand holds 0 cards or more",
    ),
    "treize.rules.left_too_many": (
        "{name} ne peut pas avoir {n} cartes : {dealt} distribuées plus {taken} "
        "{taken|prise|prises} en passant dans la partie {game_number} font {most}",
        "{name} cannot hold {n} cards: {dealt} dealt plus {taken} taken by passing in game "
        "{game_number} make {most}",
    ),
    "treize.rules.draw_lots": (
        "pas de tirage au sort : on sait déjà qui commence cette partie",
        "there are no lots to draw: who starts this game is already known",
    ),
    "treize.rules.init": (
        "13 feuilles se joue de {low} à {high} joueurs, pas {n}",
        "13 feuilles is played by {low} to {high} players, not {n}",
    ),
    "treize.rules.check_starter": (
        "{player} ne peut pas être tiré au sort : la partie {game_number} a commencé (on tire au "
        "sort avant la première carte)",
        "{player} cannot be drawn to start: game {game_number} has begun (lots are drawn before "
        "the first card)",
    ),
    "treize.rules.check_pass": (
        "{player} a déjà passé dans cette manche : {player} revient à la manche suivante",
        "{player} has already passed in this trick: {player} is back in when the trick ends",
    ),
    "treize.rules.cannot_take_cards": (
        "{player} ne peut pas prendre de {took} : les cartes vont de {MIN_VALUE} à {MAX_VALUE}",
        "{player} cannot take a {took}: cards go from {MIN_VALUE} to {MAX_VALUE}",
    ),
    "treize.rules.cannot_pass_there": (
        "{player} ne peut pas passer : il n'y a aucune carte à prendre sur la table, {player} doit jouer",
        "{player} cannot pass: there is no card on the table to take, {player} must play",
    ),
    "treize.rules.check": (
        "rien à annuler : aucune passe, aucun coup ni résultat n'est en vigueur",
        "there is nothing to undo: no pass, play or game result is in force",
    ),
    "treize.rules.cannot_pass_all": (
        "{player} ne peut pas passer : tous les autres ont passé, donc {player} a vidé la table et "
        "entame cette manche en jouant",
        "{player} cannot pass: all the others passed, so {player} cleared the table and leads this "
        "trick with a play",
    ),
    "treize.rules.not_an_event": (
        "{kind} n'est pas un événement de 13 feuilles (pass, play, trick_end, game_end, starter, undo)",
        "{kind} is not an event of 13 feuilles (pass, play, trick_end, game_end, starter, undo)",
    ),
    "treize.rules.match_over": (
        "le match est fini : un total a atteint {target}, victoire de {winners}",
        "the match is over: a total reached {target}, {winners} won",
    ),
    "treize.rules.starter_one_players": (
        "celui qui commence, {starter!r}, n'est pas un des joueurs ({players})",
        "the starter {starter!r} is not one of the players ({players})",
    ),
    "treize.rules.player": (
        "joueur inconnu {name!r} (joueurs : {players})",
        "unknown player {name!r} (players: {players})",
    ),
    "treize.rules.game_over": (
        "la partie est finie : {winners} a gagné (commencez une nouvelle partie)",
        "the game is over: {winners} won (start a new game)",
    ),
    "treize.rules.cannot_drawn_start": (
        "{player} ne peut pas être tiré au sort : {starter} commence la partie {game_number} ({why})",
        "{player} cannot be drawn to start: {starter} starts game {game_number} ({why})",
    ),
    "treize.rules.check_turn": (
        "{player} ne peut pas {action} : {player} a passé et ne joue plus jusqu'à la fin de la manche",
        "{player} cannot {action}: {player} has passed and is out until the trick ends",
    ),
    "treize.rules.not_your_turn": (
        "{player} ne peut pas {action} : c'est à {turn} de jouer (on joue dans le sens des "
        "aiguilles d'une montre)",
        "{player} cannot {action}: it is {turn}'s turn (play goes clockwise)",
    ),
    "treize.rules.cannot_take_reason": (
        "{player} ne peut pas prendre de {took} : {reason}",
        "{player} cannot take a {took}: {reason}",
    ),
    "treize.rules.check_play": (
        "{player} ne peut pas {what} ici : les coups n'ont pas été saisis depuis le début de la "
        "partie {game_number}, sa série est inconnue (l'aide reprend à la partie suivante)",
        "{player} cannot {what} here: plays were not entered since the start of game "
        "{game_number}, so its series is unknown (the helper starts with the next game)",
    ),
    "treize.rules.cannot_play": (
        "{player} ne peut pas {what} : {reason}",
        "{player} cannot {what}: {reason}",
    ),
    "treize.rules.cannot_holds_only": (
        "{player} ne peut pas {what} : {player} n'a que {held} en main",
        "{player} cannot {what}: {player} holds only {held}",
    ),
    "treize.rules.check_trick_end": (
        "la manche n'est pas finie : {still} jouent encore (quand les coups sont saisis, une "
        "manche finit d'elle-même quand tous sauf un ont passé)",
        "the trick is not over: {still} are still in (with plays entered, a trick ends by itself "
        "when all but one have passed)",
    ),
    "treize.rules.check_game_end": (
        "'left' doit donner les cartes qui restent à chaque joueur sauf le gagnant {winner} : il "
        "manque {missing}",
        "'left' must give the cards still held by every player but the winner {winner}: {missing} missing",
    ),
    "treize.rules.passes_say_which": (
        '{player} passe : dites quelle carte {player} a prise sur la table ("took" : {values})',
        '{player} passes: say which card {player} took from the table ("took": {values})',
    ),
    "treize.rules.won_game_advanced": (
        "{winner} a gagné la partie {game_number} : en variante avancée, 'left' doit donner les "
        "cartes qui restent à {others}",
        "{winner} won game {game_number}: in the advanced variant, 'left' must give the cards "
        "still held by {others}",
    ),
    "treize.rules.won_game_empty": (
        "{winner} a gagné la partie {game_number} la main vide : 'left' ne peut pas donner "
        "{cards} à {winner}",
        "{winner} won game {game_number} with an empty hand: 'left' cannot give {winner} {cards}",
    ),
    # The series' reasons (games/treize/series.py): why a play or a take breaks the rule.
    "treize.series.why.outside": (
        "les cartes vont de {lo} à {hi}, il n'y a pas de {value}",
        "cards go from {lo} to {hi}, there is no {value}",
    ),
    "treize.series.why.no_card": ("on joue au moins une carte", "a play is at least one card"),
    "treize.series.why.between": (
        "pas de carte entre {low} et {high}",
        "no card between {low} and {high}",
    ),
    "treize.series.why.on_end": (
        "{n} {n|carte|cartes} au moins sur le {value}",
        "at least {n} {n|card|cards} on the {value}",
    ),
    "treize.series.why.below_end": (
        "{n} {n|carte|cartes} au moins sous le {value} (il y en a {n} sur le {value})",
        "at least {n} {n|card|cards} below the {value} ({n} {n|lies|lie} on the {value})",
    ),
    "treize.series.why.above_end": (
        "{n} {n|carte|cartes} au moins au-dessus du {value} (il y en a {n} sur le {value})",
        "at least {n} {n|card|cards} above the {value} ({n} {n|lies|lie} on the {value})",
    ),
    "treize.series.why.take_empty": (
        "il n'y a aucune carte à prendre sur la table",
        "there is no card on the table to take",
    ),
    "treize.series.why.take_missing": (
        "il n'y a pas de {value} sur la table (elle porte {held})",
        "there is no {value} on the table (it holds {held})",
    ),
}

register(STRINGS)
register(ERRORS)
