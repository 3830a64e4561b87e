"""Translation catalogue: every sentence a player reads, in French (default) and English."""

from __future__ import annotations

import errno
import re
from collections.abc import Mapping
from typing import Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")

CATALOGUE: dict[str, tuple[str, str]] = {
    # key: (French, English)
    "game.kilo": ("Kilo de merde", "Kilo de merde"),
    "round_of": ("Manche {round}/{rounds}", "Round {round}/{rounds}"),
    "awaiting.play": ("en jeu : on attend une tape", "in play: waiting for a slap"),
    "awaiting.verdict": (
        "tape à juger : carré valable ou fausse tape ?",
        "slap to judge: valid claim or false slap?",
    ),
    "awaiting.draw": ("pioche due : {names}", "draw owed: {names}"),
    "awaiting.nothing": ("partie terminée", "game over"),
    "kilos": ("{kilos} kg", "{kilos} kg"),
    "no_cards": ("aucune carte", "no cards"),
    "pile": (
        "Tas : {count} {count|carte|cartes}, dont {bottom} {bottom|remise|remises} dessous",
        "Pile: {count} {count|card|cards}, {bottom} of them returned underneath",
    ),
    "pile.empty": ("Tas vide", "Pile empty"),
    "odds": (
        "Prochaine carte : As {ace:.0%}, 7 (chasse d'eau) {seven:.0%}, {exp:.1f} kg en moyenne",
        "Next card: Ace {ace:.0%}, 7 (flush) {seven:.0%}, {exp:.1f} kg on average",
    ),
    "winners": ("Vainqueur : {names} avec {kilos} kg", "Winner: {names} with {kilos} kg"),
    "co_winners": ("Vainqueurs ex aequo : {names} avec {kilos} kg", "Co-winners: {names} with {kilos} kg"),
    "ended.pile_empty": (
        "Le tas est vide alors qu'une pioche était due : la partie s'arrête.",
        "The pile ran out while a draw was owed: the game stops here.",
    ),
    "demo.title": (
        "Démo de {game} : {players} joueurs simulés (graine {seed})",
        "{game} demo: {players} simulated players (seed {seed})",
    ),
    "demo.round": ("— Manche {round}/{rounds} —", "— Round {round}/{rounds} —"),
    "demo.starter": ("{name} a la dame de cœur et commence.", "{name} holds the queen of hearts and starts."),
    "demo.slap": ("{claimant} tape :", "{claimant} slaps:"),
    "demo.press": ("  {pos:>2}. {name:<{width}} {offset}", "  {pos:>2}. {name:<{width}} {offset}"),
    "demo.no_press": (
        "  --  {name:<{width}} n'a pas tapé (délai écoulé)",
        "  --  {name:<{width}} did not slap (timed out)",
    ),
    "demo.valid": (
        "  Carré valable. Dernier : {names}, à {margin} près.",
        "  Valid claim. Last: {names}, by {margin}.",
    ),
    "demo.valid_timeout": (
        "  Carré valable. Dernier : {names} (n'a pas tapé).",
        "  Valid claim. Last: {names} (never slapped).",
    ),
    "demo.tie": ("  Égalité à la dernière place : {names}.", "  Tie for last: {names}."),
    "demo.reslap": (
        "  Égalité pour la dernière place : on retape.",
        "  Tie for last place: the slap is replayed.",
    ),
    "demo.false": ("  Fausse tape ! {names} pioche.", "  False slap! {names} draws."),
    "demo.false_many": ("  Fausse tape ! {names} piochent.", "  False slap! {names} draw."),
    "demo.held_back": (
        "  --  {name:<{width}} n'a pas tapé (bien vu)",
        "  --  {name:<{width}} held back (well spotted)",
    ),
    "demo.draw": (
        "  {name} pioche {card} : +{kilos} kg (total {total} kg)",
        "  {name} draws {card}: +{kilos} kg (total {total} kg)",
    ),
    "demo.flush": (
        "  {name} pioche {card} : chasse d'eau ! {count} {count|carte|cartes} sous le tas, retour à 0 kg",
        "  {name} draws {card}: flush! {count} {count|card|cards} under the pile, back to 0 kg",
    ),
    "demo.seven_kept": (
        "  {name} pioche {card} : première carte, le 7 compte 7 kg",
        "  {name} draws {card}: first card, the 7 counts 7 kg",
    ),
    "demo.undo": ("  (La table annule : {what})", "  (The table undoes: {what})"),
    "demo.undone_draw": ("la pioche de {name}, {card}, mal saisie", "{name}'s draw, {card}, mistyped"),
    "demo.standings": ("  Classement : {line}", "  Standings: {line}"),
    "demo.pile": (
        "  Tas : {count} {count|carte|cartes} ({bottom} {bottom|remise|remises} dessous) · "
        "prochaine carte : As {ace:.0%}, sept {seven:.0%}, {exp:.1f} kg en moyenne",
        "  Pile: {count} {count|card|cards} ({bottom} returned underneath) · next card: "
        "Ace {ace:.0%}, "
        "seven {seven:.0%}, {exp:.1f} kg on average",
    ),
    "cli.players_range": (
        "--players : {game} se joue de {low} à {high} joueurs",
        "--players: {game} is played by {low} to {high} players",
    ),
    "cli.players_are_names": (
        "--players : play prend les noms des joueurs, séparés par des virgules "
        "(--players Alice,Bruno,Chloé), pas leur nombre ({value}) ; c'est demo --players qui prend un nombre",
        "--players: play takes the players' names, separated by commas "
        "(--players Alice,Bruno,Chloé), not how many they are ({value}); demo --players takes a count",
    ),
    "cli.rounds_fixed": (
        "--rounds ne vaut que pour le Kilo de merde : {game} a ses donnes fixées par la règle",
        "--rounds is for Kilo de merde only: {game} has its rounds fixed by its rules",
    ),
    # Help texts of the parser that say what a game's numbers are (``cli/parser.py`` reads them
    # as they are, with the parser's own typography).
    "cli.help.export_csv": (
        "la feuille de score en CSV : une ligne par joueur, une colonne par "
        "manche (Kilo de merde : kilos après la manche ; autres jeux : points "
        "de la manche)",
        "the score sheet as CSV: a row per player, a column per round (Kilo de "
        "merde: kilos after the round; other games: points of the round)",
    ),
    "cli.help.stats": (
        "les chiffres des joueurs : parties, victoires, et pour le "
        "Kilo de merde kilos, tapes, temps de réaction, plus "
        "belles évasions",
        "players' numbers: games, wins, and for Kilo de merde kilos, slaps, reaction times, closest escapes",
    ),
    "cli.rounds_range": ("--rounds : de 1 à 99 manches", "--rounds: 1 to 99 rounds"),
    "cli.speed_range": ("--speed : 0 (au plus vite) ou plus", "--speed: 0 (as fast as possible) or more"),
    "buttons.no_screen": (
        "Il n'y a pas d'écran ici pour lire le clavier (ni session graphique ni affichage) : pour "
        "de vrais boutons lancez `companion buttons --input gpio` (ou `--input serial` pour le "
        "Pico), pour essayer `companion buttons --input sim`.",
        "There is no screen here to read the keyboard from (no desktop session, no display): for "
        "real buttons run `companion buttons --input gpio` (or `--input serial` for the Pico), to "
        "try it `companion buttons --input sim`.",
    ),
    "buttons.assign_gpio_only": (
        "--assign écrit le plan des broches GPIO, il écoute donc les broches du Pi et non "
        "--input {source} : retirez --input ; pour voir des appuis simulés lancez "
        "`companion buttons --input sim`.",
        "--assign writes the GPIO pin map, so it listens to the Pi's pins, not to --input "
        "{source}: leave --input out; to watch simulated presses run "
        "`companion buttons --input sim`.",
    ),
    "buttons.assign_no_gpiod": (
        "--assign a besoin des broches GPIO du Pi, et il n'y en a pas ici (pas de bibliothèque "
        "gpiod ou pas de puce GPIO) : sur un Raspberry Pi lancez `{pip}` ; sur un portable il "
        "n'y a pas de broches, `companion buttons --input keyboard` montre les touches.",
        "--assign needs the Pi's GPIO pins, and there are none here (no gpiod library or no GPIO "
        "chip): on a Raspberry Pi run `{pip}`; a laptop has no pins, "
        "`companion buttons --input keyboard` shows the keys.",
    ),
    "buttons.assign_no_chip": (
        "--assign a besoin des broches GPIO du Pi, et cette machine n'a pas de puce GPIO "
        "(aucun /dev/gpiochip) : ce n'est pas un Raspberry Pi ; sur un portable, "
        "`companion buttons --input keyboard` montre les touches.",
        "--assign needs the Pi's GPIO pins, and this machine has no GPIO chip (no "
        "/dev/gpiochip): it is not a Raspberry Pi; on a laptop, "
        "`companion buttons --input keyboard` shows the keys.",
    ),
    "cli.stopped": ("Interrompu.", "Interrupted."),
    "cli.interrupted": (
        "Interrompu : `companion resume` reprend cette partie.",
        "Interrupted: `companion resume` continues this game.",
    ),
    "cli.cannot_read": ("impossible de lire {path} : {why}", "cannot read {path}: {why}"),
    "cli.bad_game": (
        "jeu inconnu {value!r} : choisissez parmi {choices}",
        "unknown game {value!r}: choose among {choices}",
    ),
    "games.none": ("Aucune partie enregistrée.", "No stored games."),
    "games.finished": ("terminée", "finished"),
    "games.running": ("en cours", "in progress"),
    "games.damaged": ("ABÎMÉE", "DAMAGED"),
    "games.demo": ("  (démo)", "  (demo)"),
    "games.row": (
        "{id}  {when}  {game:<14} {status:<11} {events:>5} év.  {players}",
        "{id}  {when}  {game:<14} {status:<11} {events:>5} events  {players}",
    ),
    "standings.header": ("Classement :", "Standings:"),
    "last_slap.header": ("Dernière tape :", "Last slap:"),
    "demo.resumed": (
        "Reprise de la partie {game_id} à l'événement {seq}.",
        "Resuming game {game_id} at event {seq}.",
    ),
    "demo.journal": ("Partie {game_id} enregistrée dans {path}", "Game {game_id} journaled in {path}"),
    # --- the table screen (companion.display) ------------------------------------------------
    "scr.setup.title": ("Nouvelle partie", "New game"),
    "scr.nav.table": ("Table", "Table"),
    "scr.nav.pile": ("Tas", "Pile"),
    "scr.nav.history": ("Courbes", "History"),
    "scr.nav.stats": ("Chiffres", "Numbers"),
    "scr.nav.rules": ("Règles", "Rules"),
    "scr.nav.status": ("Matériel", "Hardware"),
    "scr.nav.undo": ("Annuler", "Undo"),
    "scr.nav.menu": ("Menu", "Menu"),
    "scr.nav.sound_on": ("Son : oui", "Sound: on"),
    "scr.lang_not_kept": (
        "Langue changée pour maintenant, mais pas enregistrée : {why}",
        "Language changed for now, but not kept: {why}",
    ),
    "scr.nav.sound_off": ("Son : non", "Sound: off"),
    "scr.nav.voice_on": ("Voix : oui", "Voice: on"),
    "scr.nav.voice_off": ("Voix : non", "Voice: off"),
    "scr.await.play": ("On passe les cartes : on attend une tape", "Cards are passing: waiting for a slap"),
    "scr.await.play_starter": ("{name} commence (dame de cœur)", "{name} starts (queen of hearts)"),
    "scr.await.verdict": ("Tape ! Carré valable ou fausse tape ?", "Slap! Valid claim or false slap?"),
    "scr.await.draw": ("Pioche : {names}", "Draw: {names}"),
    "scr.card.worth_flush": ("chasse", "flush"),
    "scr.await.draw_n": ("Pioche {n}/{of} : {names}", "Draw {n}/{of}: {names}"),
    "scr.hw.disconnected": (
        "Boutons débranchés ({source}) : rebranchez-les, les scores sont gardés",
        "Buttons disconnected ({source}): plug them back in, scores are kept",
    ),
    "scr.hw.stuck": ("Bouton coincé : {button}", "Stuck button: {button}"),
    "scr.hw.not_started": (
        "Boutons ({source}) non démarrés : voir le message ou l'écran Matériel",
        "Buttons ({source}) not started: see the message or the Hardware screen",
    ),
    "scr.hw.held": (
        "Le bouton de la place {seat} ({name}) était enfoncé quand la tape s'est "
        "ouverte ; il recompte une fois relâché.",
        "The button of seat {seat} ({name}) was held down as the slap opened; it counts again once released.",
    ),
    "scr.hw.held_released": (
        "Le bouton de la place {seat} ({name}) est relâché et compte de nouveau.",
        "The button of seat {seat} ({name}) is released and counts again.",
    ),
    "scr.hw.none": (
        "Aucune source de boutons (aperçu ou configuration)",
        "No button source (snapshot or setup)",
    ),
    "scr.hw.ok": ("Boutons : {source}, tout va bien", "Buttons: {source}, all fine"),
    # Phones at the table (companion/web/, docs/phones.md).
    "scr.web.url": ("Téléphones : {url}", "Phones: {url}"),
    "scr.web.join": ("Classement", "Standings"),
    "scr.web.seat": ("Place {seat}", "Seat {seat}"),
    "scr.web.seat_res": ("Place {seat} ± {ms} ms", "Seat {seat} ± {ms} ms"),
    "scr.web.scorer": ("Marqueur", "Scorer"),
    "scr.web.more": ("Autres codes {page}/{pages}", "More codes {page}/{pages}"),
    "scr.web.paired": ("Le téléphone de la place {seat} est appairé.", "The phone of seat {seat} is paired."),
    "scr.web.left": ("Le téléphone de la place {seat} est parti.", "The phone of seat {seat} left."),
    "scr.tag.draws": ("pioche", "draws"),
    "scr.tag.starts": ("commence", "starts"),
    "scr.tag.flushes": ("{n}× chasse", "{n}× flush"),
    "scr.lots.button": ("Tirer au sort le donneur", "Draw lots: who deals"),
    "scr.lots.drawing": ("Tirage au sort du donneur…", "Drawing lots for the dealer…"),
    "scr.lots.dealer": ("{name} distribue", "{name} deals"),
    "scr.starter_hint": ("touchez qui a la dame de cœur", "touch who holds the queen of hearts"),
    "scr.pile_line": (
        "Tas : {count} {count|carte|cartes} · As {ace:.0%} · sept {seven:.0%}",
        "Pile: {count} {count|card|cards} · Ace {ace:.0%} · seven {seven:.0%}",
    ),
    "scr.no_game": (
        "Pas de partie en cours : commencez-en une depuis l'écran Nouvelle partie.",
        "No game in progress: start one from the New game screen.",
    ),
    # The stats screen (display/tally.py) and the evening's tally under game over.
    "scr.stats.none": (
        "Aucune partie terminée pour l'instant\u202f: les chiffres viendront.",
        "No finished game yet: the numbers will come.",
    ),
    "scr.stats.wins": ("Victoires", "Wins"),
    "scr.stats.reaction": ("Réaction", "Reaction"),
    "scr.stats.draws": ("Pioches par partie", "Draws per game"),
    "scr.stats.false": ("Fausses tapes", "False slaps"),
    "scr.stats.closest": ("Au ras", "Closest escape"),
    "scr.stats.won": ("{wins}/{games}", "{wins}/{games}"),
    "scr.stats.per_game": ("{n:.1f}", "{n:.1f}"),
    "scr.stats.evening": ("Ce soir · {n} {n|partie|parties}", "Tonight · {n} {n|game|games}"),
    "scr.stats.evening_wins": ("{wins} vict.", "{wins} won"),
    "scr.stats.evening_kilos": ("{wins} vict. · {kilos} kg", "{wins} won · {kilos} kg"),
    "scr.slap.waiting": (
        "{claimant} a tapé · on attend : {names}",
        "{claimant} slapped · waiting for: {names}",
    ),
    "scr.slap.all_in": (
        "{claimant} a tapé · tout le monde a tapé",
        "{claimant} slapped · everyone has pressed",
    ),
    "scr.slap.false": ("Fausse tape : {names} pioche", "False slap: {names} draws"),
    "scr.slap.false_many": ("Fausse tape : {names} piochent", "False slap: {names} draw"),
    "scr.slap.reslap": ("Égalité pour la dernière place : on retape", "Tie for last place: slap again"),
    "scr.slap.timeout": ("{names} n'a pas tapé et pioche", "{names} never slapped and draws"),
    "scr.slap.tie": ("Égalité à la dernière place : {names}", "Tie for last: {names}"),
    "scr.slap.lost_by": ("{names} perd de {margin}", "{names} lost by {margin}"),
    "scr.slap.claimant": ("annonce", "claims"),
    "scr.slap.loses": ("PIOCHE", "DRAWS"),
    "scr.slap.held_back": ("n'a pas tapé (bien vu)", "held back (well spotted)"),
    "scr.slap.not_yet": ("pas encore tapé", "not pressed yet"),
    "scr.slap.no_press": ("n'a pas tapé à temps", "did not press in time"),
    "scr.slap.none": (
        "Aucune tape jugée pour l'instant : le résultat s'affiche après un verdict.",
        "No slap judged yet: the result shows after a verdict.",
    ),
    "scr.slap.live": ("Tape en cours, pas encore jugée", "Slap in progress, not judged yet"),
    "scr.slap.continue": ("Saisir la carte de {names}", "Enter {names}'s card"),
    # The slap screen's headline is the loser's row: their name, then what happened to them.
    "scr.slap.phrase.lost_by": ("perd de {margin}", "lost by {margin}"),
    "scr.slap.phrase.timeout": (
        "{n|n'a|n'ont} pas tapé\u202f: {n|pioche|piochent}",
        "never slapped: {n|draws|draw}",
    ),
    "scr.slap.phrase.tie": ("ex aequo à la dernière place\u202f: piochent", "tied for last: draw"),
    "scr.slap.phrase.false": ("fausse tape\u202f: {n|pioche|piochent}", "false slap: {n|draws|draw}"),
    "scr.slap.phrase.claims": ("annonce un carré", "claims four of a kind"),
    "scr.window.open": ("Encore {s} s · {n} {n|n'a|n'ont} pas tapé", "{s} s left · {n} still to press"),
    "scr.window.closed": (
        "Fenêtre fermée · {n} {n|n'a|n'ont} pas tapé à temps",
        "Window closed · {n} did not press in time",
    ),
    "scr.window.length": (
        "Fenêtre de {s:g} s · {n} {n|n'a|n'ont} pas encore tapé",
        "{s:g} s window · {n} yet to press",
    ),
    "scr.window.all_in": ("Tout le monde a tapé", "Everyone has pressed"),
    "scr.key.enter": ("touche Entrée", "Enter key"),
    "scr.key.false": ("touche Échap", "Esc key"),
    "scr.key.esc": ("Échap", "Esc"),
    "scr.verdict.over": (
        "La partie est finie : plus de tape à juger.",
        "The game is over: no slap to judge.",
    ),
    "scr.verdict.draw_first": (
        "Pas de tape à juger : {names} doit d'abord piocher.",
        "No slap to judge: {names} must draw first.",
    ),
    "scr.verdict.none": (
        "Pas de tape à juger : personne n'a tapé depuis le dernier verdict.",
        "No slap to judge: nobody has pressed since the last verdict.",
    ),
    "scr.verdict.ask": ("Le carré est-il bon ?", "Is the claim good?"),
    "scr.verdict.valid": ("Carré valable", "Valid claim"),
    "scr.verdict.false": ("Fausse tape", "False slap"),
    "scr.verdict.who": ("Qui a tapé par erreur ?", "Who slapped in error?"),
    "scr.verdict.confirm_false": ("Valider ({n} pioche)", "Confirm ({n} draw)"),
    "scr.pick.hint": (
        "Touches 1 … 0\u202f: ajouter ou retirer un joueur",
        "Keys 1 … 0: add or remove a player",
    ),
    "scr.pick.draws": ("{n|Pioche|Piochent}", "{n|Draws|Draw}"),
    "scr.pick.spared": ("{n|Ne pioche pas|Ne piochent pas}", "{n|Does not draw|Do not draw}"),
    "scr.pick.nobody": (
        "Personne pour l'instant\u202f: touchez qui a tapé par erreur",
        "Nobody yet: touch who slapped in error",
    ),
    "scr.pick.confirm": ("Valider\u202f: {n} {n|pioche|piochent}", "Confirm: {n} {n|draws|draw}"),
    "scr.pick.not_pressed": (
        "{name} n'a pas tapé cette fois\u202f: pas de pioche pour une fausse tape",
        "{name} did not press this time: no draw for a false slap",
    ),
    "scr.await.judge": ("Tape à juger", "Slap to judge"),
    "scr.await.false_pick": ("Fausse tape", "False slap"),
    "scr.back": ("Retour", "Back"),
    "scr.card.over": ("La partie est finie : on ne pioche plus.", "The game is over: no more draws."),
    "scr.card.none": (
        "Personne ne doit piocher : une pioche suit un verdict.",
        "Nobody owes a draw: a draw follows a verdict.",
    ),
    "scr.card.who": ("{name} pioche : quelle carte ?", "{name} draws: which card?"),
    "scr.card.any_suit": ("couleur ?", "any suit"),
    "scr.card.chosen": ("Carte : {card}", "Card: {card}"),
    "scr.card.pick": (
        "Choisissez la valeur (la couleur est facultative)",
        "Pick the rank (the suit is optional)",
    ),
    "scr.card.confirm": ("Valider", "Confirm"),
    "scr.card.tag.dealt": ("en main", "dealt"),
    "scr.card.tag.gone": ("épuisé", "all out"),
    "scr.card.tag.later": ("plus tard", "later"),
    "scr.card.tag.empty": ("tas vide", "pile empty"),
    "scr.pile.count": ("Cartes au tas", "Cards left"),
    "scr.pile.ace": ("Chance d'un As", "Chance of an Ace"),
    "scr.pile.seven": ("Chasse d'eau (7)", "Flush (a 7)"),
    "scr.pile.expected": ("Kilos attendus", "Expected kilos"),
    "scr.pile.ranks": (
        "Prochaine carte, par valeur ({bottom} {bottom|remise|remises} dessous)",
        "Next card, by rank ({bottom} returned underneath)",
    ),
    "scr.pile.returned": (
        "Il ne reste sous le tas que {n} {n|carte remise|cartes remises}",
        "Only the {n} {n|card|cards} returned under the pile {n|is|are} left",
    ),
    "scr.history.none": (
        "Aucune manche terminée : la courbe commence après la première.",
        "No round finished yet: the chart starts after the first.",
    ),
    "scr.history.title": ("Kilos par manche", "Kilos per round"),
    "scr.over.not_yet": (
        "La partie n'est pas finie (manche {round}/{rounds}) : classement provisoire.",
        "The game is not over (round {round}/{rounds}): provisional standings.",
    ),
    "scr.over.provisional": ("Classement provisoire", "Provisional standings"),
    "scr.over.thanks": ("Merci d'avoir joué !", "Thanks for playing!"),
    "scr.over.heaviest": (
        "{n|Le plus lourd|Les plus lourds} : {names}, {kilos} kg",
        "{n|Heaviest|Heaviest, tied}: {names}, {kilos} kg",
    ),
    "scr.over.again": ("Rejouer", "Play again"),
    "scr.over.new": ("Nouvelle partie", "New game"),
    "scr.over.winner": ("Vainqueur avec {kilos} kg", "Winner with {kilos} kg"),
    "scr.over.co_winners": ("Vainqueurs ex aequo avec {kilos} kg", "Joint winners with {kilos} kg"),
    "scr.over.n_winners": ("{n} vainqueurs ex aequo avec {kilos} kg", "{n} joint winners with {kilos} kg"),
    "scr.card.draws_q": ("Quelle carte\u202f?", "Which card?"),
    "scr.pile.pct": ("{value:.0%}", "{value:.0%}"),
    "scr.pile.kg": ("{value:.1f} kg", "{value:.1f} kg"),
    "scr.rules.body": (
        "Kilo de merde. Les cartes distribuées dépendent du nombre de joueurs ; les autres "
        "forment le tas, qui dure toute la partie. Chaque manche, on passe les cartes à gauche. "
        "Qui a un carré tape ; tout le monde doit taper ensuite. Carré valable : le dernier "
        "pioche une carte et la manche finit. Fausse tape : celui qui a tapé par erreur pioche "
        "et la manche continue. Kilos : 2 à 10 leur valeur, Valet 11, Dame 12, Roi 13, As 100. "
        "Un 7 pioché renvoie toutes ses cartes sous le tas : retour à 0 kg. Le moins de kilos "
        "gagne.",
        "Kilo de merde. Which cards are dealt depends on the number of players; the rest form "
        "the pile, which lasts the whole game. Each round, cards are passed to the left. "
        "Whoever holds four of a kind slaps; everyone must slap after. Valid claim: the last "
        "one draws a card and the round ends. False slap: whoever slapped in error draws and "
        "the round goes on. Kilos: 2 to 10 face value, Jack 11, Queen 12, King 13, Ace 100. "
        "Drawing a 7 sends all your cards under the pile: back to 0 kg. Fewest kilos wins.",
    ),
    "scr.rules.house": ("Règles de la maison pour cette partie :", "House rules for this game:"),
    "scr.rules.other": ("sinon « {other} »", 'otherwise "{other}"'),
    "scr.rules.keys.kilo": (
        "Touches\n1 … 0 : boutons des joueurs 1 à 10 (pavé numérique aussi)\n"
        "Entrée : valider (carré valable, carte)\nÉchap : fausse tape, retour\n"
        "Retour arrière, U ou Ctrl+Z : annuler la dernière décision\n"
        "Carte : A/1, 2 … 9, 0 = 10, V, D, R (ou J, Q, K ; pavé / * -) puis F1 … F4 pour la "
        "couleur\nT table · P tas · G courbes · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 0: the players' buttons 1 to 10 (numpad too)\n"
        "Enter: confirm (valid claim, card)\nEsc: false slap, back\n"
        "Backspace, U or Ctrl+Z: undo the last decision\n"
        "Card: A/1, 2 … 9, 0 = 10, J, Q, K (or V, D, R; numpad / * -) then F1 … F4 for the "
        "suit\nT table · P pile · G history · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit",
    ),
    "scr.rule.seven.flush": (
        "Un 7 pioché fait chasse d'eau : toutes ses cartes sous le tas, 0 kg",
        "A drawn 7 flushes: all your cards go under the pile, 0 kg",
    ),
    "scr.rule.seven.first_card_counts": (
        "Un 7 en première carte se garde et vaut 7 kg ; sinon chasse d'eau",
        "A 7 as your first card is kept for 7 kg; otherwise it flushes",
    ),
    "scr.rule.seven.flush.short": ("7 : chasse d'eau", "7: flush"),
    "scr.rule.seven.first_card_counts.short": ("7 : première carte gardée", "7: first card kept"),
    "scr.rule.quads.rank": ("On tape sur quatre cartes de même valeur", "Slap on four cards of one rank"),
    "scr.rule.quads.rank_or_suit": (
        "On tape sur quatre de même valeur ou de même couleur",
        "Slap on four of one rank or of one suit",
    ),
    "scr.rule.quads.rank.short": ("Carré : valeur", "Quad: rank"),
    "scr.rule.quads.rank_or_suit.short": ("Carré : valeur ou couleur", "Quad: rank or suit"),
    "scr.rule.passing.one_by_one": (
        "On passe une carte à la fois : taper avant que tous aient 4 cartes est une fausse tape",
        "Cards pass one at a time: slapping before all hold 4 cards is a false slap",
    ),
    "scr.rule.passing.simultaneous": (
        "Tout le monde passe en même temps : jamais trop tôt",
        "Everyone passes at once: never too early",
    ),
    "scr.rule.passing.one_by_one.short": ("Passe : une à une", "Passing: one by one"),
    "scr.rule.passing.simultaneous.short": ("Passe : simultanée", "Passing: simultaneous"),
    "scr.rule.tie.all_draw": (
        "Égalité à la dernière place : tous piochent",
        "Tie for last place: all of them draw",
    ),
    "scr.rule.tie.reslap": ("Égalité à la dernière place : on retape", "Tie for last place: slap again"),
    "scr.rule.tie.all_draw.short": ("Égalité : tous piochent", "Tie: all draw"),
    "scr.rule.tie.reslap.short": ("Égalité : on retape", "Tie: slap again"),
    "scr.rule.timeout": (
        "Délai pour taper : {s:g} s après la première tape",
        "Time to slap: {s:g} s after the first press",
    ),
    "scr.setup.in_game": (
        "Une partie est en cours : « Commencer » en lance une nouvelle.",
        'A game is in progress: "Start" begins a new one.',
    ),
    "scr.setup.players": ("Joueurs ({n}), sens horaire", "Players ({n}), clockwise"),
    "scr.setup.rounds": ("Manches : {n}", "Rounds: {n}"),
    "scr.setup.rounds_help": ("Nombre de manches de la partie", "Rounds in the game"),
    "scr.setup.timeout": ("Délai : {s:g} s", "Time limit: {s:g} s"),
    "scr.setup.timeout_help": (
        "Qui n'a pas tapé à temps est dernier",
        "Whoever has not pressed by then is last",
    ),
    "scr.setup.input": ("Boutons : {name}", "Buttons: {name}"),
    "scr.setup.game": ("Jeu : {name}", "Game: {name}"),
    "scr.setup.game.kilo": ("le dernier à taper pioche des kilos", "the last to slap draws kilos"),
    "scr.setup.game.cinq-rois": (
        "rami à jokers, 11 donnes de 3 à 13 cartes",
        "rummy with wilds, 11 rounds of 3 to 13 cards",
    ),
    "scr.setup.game.treize": (
        "se défausser le premier ; appuyer = je passe",
        "first to empty their hand; a press = I pass",
    ),
    "scr.setup.change": ("Changer", "Change"),
    "scr.setup.hint": (
        "Touchez un nom ou son nom court (celui des écrans) pour le changer ; ^\u00a0avance le joueur "
        "d'une place.",
        "Touch a name or its short name (the screens') to change it; ^\u00a0moves the player up a seat.",
    ),
    "scr.setup.start": ("Commencer", "Start"),
    "scr.setup.tab.players": ("Joueurs ({n})", "Players ({n})"),
    "scr.setup.tab.settings": ("Réglages", "Settings"),
    "scr.input.keyboard": ("clavier", "keyboard"),
    "scr.input.keyboard.help": ("Touches 1 … 0 pour les joueurs 1 à 10", "Keys 1 … 0 for players 1 to 10"),
    "scr.input.sim": ("joueurs simulés", "simulated players"),
    "scr.input.sim.help": (
        "Les joueurs tapent tout seuls : pour essayer",
        "Players slap by themselves: to try it out",
    ),
    "scr.input.gpio": ("GPIO du Raspberry Pi", "Raspberry Pi GPIO"),
    "scr.input.gpio.help": (
        "Boutons câblés au Pi (fichier de configuration)",
        "Buttons wired to the Pi (config file)",
    ),
    "scr.input.serial": ("carte Pico (USB)", "Pico board (USB)"),
    "scr.input.serial.help": (
        "Boutons sur une carte Pico branchée en USB",
        "Buttons on a Pico board over USB",
    ),
    "scr.flush": ("Chasse d'eau ! {name} repart à 0 kg", "Flush! {name} is back to 0 kg"),
    # Event time: a decision that went on without a source, a press that came late.
    "scr.late.silent": ("ne répond pas", "does not answer"),
    "scr.late.silent.pl": ("ne répondent pas", "do not answer"),
    "scr.late.gone": ("ne répond plus", "no longer answers"),
    "scr.late.gone.pl": ("ne répondent plus", "no longer answer"),
    "scr.late.colon": (" : ", ": "),
    "scr.late.seats": (
        "{n|siège|sièges} {seats} non {n|compté|comptés}",
        "{n|seat|seats} {seats} not counted",
    ),
    "scr.late.and": (" et ", " and "),
    "scr.late.note.rejudged": (
        "{names} : arrivé après le verdict, qui a été rejugé",
        "{names}: arrived after the verdict, which was judged again",
    ),
    "scr.late.note.recorded": (
        "{names} : arrivé après le verdict, noté sans compter (la pioche était faite)",
        "{names}: arrived after the verdict, recorded, not counted (the draw was made)",
    ),
    "scr.late.rejudged": (
        "{name} a tapé avant le verdict, mais c'est arrivé après : verdict rejugé",
        "{name} slapped before the verdict, but it arrived after it: the verdict is judged again",
    ),
    "scr.late.recorded": (
        "{name} a tapé avant le verdict, arrivé après la pioche : noté, non compté",
        "{name} slapped before the verdict, arrived after the draw: recorded, not counted",
    ),
    "scr.outage.stretched": (
        "Fenêtre coupée par un arrêt de {s} s : le délai reprend",
        "Window cut by a {s} s stop: the countdown resumes",
    ),
    "scr.outage.reboot": (
        "La table a redémarré pendant la fenêtre : seules les tapes d'avant l'arrêt comptent",
        "The table restarted during the window: only the slaps before the stop count",
    ),
    "scr.msg.undone": ("Annulé : {what}", "Undone: {what}"),
    "scr.undone.draw": ("la pioche de {name}, {card}, {kilos} kg", "{name}'s draw, {card}, {kilos} kg"),
    "scr.undone.flush": ("la pioche de {name}, {card} (chasse d'eau)", "{name}'s draw, {card} (flush)"),
    "scr.undone.verdict": ("le verdict « {what} »", 'the verdict "{what}"'),
    "scr.msg.nothing_to_undo": ("Rien à annuler", "Nothing to undo"),
    "scr.msg.pick_rank": ("Choisissez d'abord la valeur de la carte", "Pick the card's rank first"),
    "scr.msg.name_taken": (
        "Deux joueurs ne peuvent pas avoir le même nom : {name}",
        "Two players cannot have the same name: {name}",
    ),
    "scr.msg.name_empty": ("Un nom ne peut pas être vide", "A name cannot be empty"),
    # A short form chosen at setup (display/names.py ``short_problem``), said with a better one.
    "names.short.empty": (
        "Le nom court de {name} ne peut pas être vide\u202f; par exemple «\u202f{example}\u202f»",
        "{name}’s short name cannot be empty; for example “{example}”",
    ),
    "names.short.long": (
        "«\u202f{short}\u202f» a {n} caractères, un nom court en a {most} au plus pour tenir sur la case "
        "d’un joueur à dix joueurs sur l’écran 7 pouces (800x480)\u202f; par exemple «\u202f{example}\u202f»",
        "“{short}” has {n} characters; a short name has at most {most}, to fit a player’s tile with "
        "ten players on the 7-inch screen (800x480); for example “{example}”",
    ),
    "names.short.wide": (
        "«\u202f{short}\u202f» est trop large pour la case d’un joueur à table pleine sur l’écran "
        "7 pouces (800x480)\u202f: environ sept lettres, moins de larges (M, W)\u202f; "
        "par exemple «\u202f{example}\u202f»",
        "“{short}” is too wide for a player’s tile at a full table on the 7-inch screen (800x480): "
        "about seven letters, fewer wide ones (M, W); for example “{example}”",
    ),
    "names.short.taken_name": (
        "«\u202f{short}\u202f» est le nom de {other}\u202f: {name} a besoin d’un autre nom court, "
        "par exemple «\u202f{example}\u202f»",
        "“{short}” is {other}’s name: {name} needs another short name, for example “{example}”",
    ),
    "names.short.taken_short": (
        "«\u202f{short}\u202f» est déjà le nom court de {other}\u202f: {name} a besoin d’un autre, "
        "par exemple «\u202f{example}\u202f»",
        "“{short}” is already {other}’s short name: {name} needs another one, for example “{example}”",
    ),
    "scr.setup.short": ("court", "short"),
    "scr.msg.source_failed": ("Les boutons ne démarrent pas : {why}", "The buttons do not start: {why}"),
    "scr.msg.resumed": ("Partie {game_id} reprise", "Game {game_id} resumed"),
    "cli.no_display": (
        "Aucun écran disponible ({why}). Lancez la commande dans une session graphique, "
        "réglez SDL_VIDEODRIVER=kmsdrm sur un Raspberry Pi sans bureau, ou faites une image "
        "avec `companion snapshot`.",
        "No display available ({why}). Run it in a desktop session, set "
        "SDL_VIDEODRIVER=kmsdrm on a Raspberry Pi without a desktop, or render an image with "
        "`companion snapshot`.",
    ),
    "cli.bad_size": (
        "--size {value!r} : écrivez LARGEURxHAUTEUR, par exemple 1280x720 (de 320x240 à 7680x4320)",
        "--size {value!r}: write WIDTHxHEIGHT, for example 1280x720 (320x240 to 7680x4320)",
    ),
    "cli.bad_screen": (
        "écran inconnu {value!r} : choisissez parmi {choices}",
        "unknown screen {value!r}: choose one of {choices}",
    ),
    "cli.bad_lang": ("langue inconnue {value!r} : fr ou en", "unknown language {value!r}: fr or en"),
    "cli.bad_input": (
        "source de boutons inconnue {value!r} : {choices}",
        "unknown button source {value!r}: {choices}",
    ),
    "cli.read_log": ("impossible de lire {path} : {why}", "cannot read {path}: {why}"),
    "cli.wrote": ("Image écrite : {path} ({size})", "Image written: {path} ({size})"),
    "cli.write_failed": ("impossible d'écrire {path} : {why}", "cannot write {path}: {why}"),
    "cli.game_over": ("Partie {game_id} terminée.", "Game {game_id} finished."),
}


# `companion buttons` (the wiring monitor and pin assignment)
CATALOGUE.update(
    {
        # key: (French, English)
        "buttons.press": ("appui", "press"),
        "buttons.release": ("relâché", "release"),
        "buttons.seat": ("place {n}", "seat {n}"),
        "buttons.referee": ("arbitre {role}", "referee {role}"),
        "buttons.burst": ("— nouvelle salve —", "— new burst —"),
        "buttons.stats": ("rebonds {b}, parasites {g}", "bounces {b}, glitches {g}"),
        "buttons.stuck": ("COINCÉ", "STUCK"),
        "buttons.listening": (
            "Source {source} : appuyez sur les boutons (Ctrl+C pour finir).",
            "Source {source}: press the buttons (Ctrl+C to stop).",
        ),
        "buttons.summary": (
            "{who} : {presses} appuis, {b} rebonds, {g} parasites{stuck}",
            "{who}: {presses} presses, {b} bounces, {g} glitches{stuck}",
        ),
        "buttons.assign.intro": (
            "Attribution des boutons : {n} broches GPIO libres écoutées.",
            "Assigning buttons: listening on {n} free GPIO pins.",
        ),
        "buttons.assign.seat": (
            "Appuyez sur le bouton de la place {n} (ou de nouveau sur celui de la place 1 pour finir).",
            "Press the button of seat {n} (or seat 1's button again to finish).",
        ),
        "buttons.assign.referee": (
            "Appuyez sur le bouton d'arbitre « {fr} » (ou sur celui de la place 1 s'il n'y en a pas).",
            'Press the referee button "{en}" (or seat 1\'s button if there is none).',
        ),
        "buttons.assign.got": (
            "  {what} → GPIO{pin} (broche {header})",
            "  {what} → GPIO{pin} (header pin {header})",
        ),
        "buttons.assign.again": (
            "  GPIO{pin} est déjà {what} : appuyez sur un autre bouton.",
            "  GPIO{pin} is already {what}: press another button.",
        ),
        "buttons.assign.written": ("Plan de câblage écrit dans {path}.", "Pin map written to {path}."),
        "buttons.assign.none": (
            "Aucun bouton attribué avant la fin du délai : vérifiez le câblage (une patte au GPIO, "
            "l'autre à la masse).",
            "No button assigned before the time ran out: check the wiring (one leg to the GPIO, the "
            "other to ground).",
        ),
    }
)

# `companion firmware` (the Pico button board)
CATALOGUE.update(
    {
        # key: (French, English)
        "fw.no_source": (
            "Fichiers du firmware introuvables dans {path} : indiquez le dossier avec --source.",
            "Firmware files not found in {path}: give the folder with --source.",
        ),
        "fw.no_mpremote": (
            "mpremote n'est pas installé : {pip}.",
            "mpremote is not installed: {pip}.",
        ),
        "fw.no_board": (
            "Aucun Pico trouvé en USB : branchez-le avec un câble de données (s'il est neuf, "
            "installez d'abord MicroPython, voir docs/pico.md), ou indiquez son port avec --port.",
            "No Pico found on USB: plug it in with a data cable (if it is new, put MicroPython "
            "on it first, see docs/pico.md), or give its port with --port.",
        ),
        "fw.copying": ("Copie du firmware sur {port} :", "Copying the firmware to {port}:"),
        "fw.failed": (
            "mpremote a échoué (code {code}) : débranchez et rebranchez le Pico, puis recommencez.",
            "mpremote failed (exit {code}): unplug and replug the Pico, then try again.",
        ),
        "fw.done": (
            "Firmware installé ; le Pico redémarre. Vérifiez avec : companion firmware info",
            "Firmware installed; the Pico restarts. Check with: companion firmware info",
        ),
        "fw.info.title": ("Boîtier de boutons sur {port}", "Button board on {port}"),
        "fw.info.firmware": ("Firmware {fw}, protocole v{proto}", "Firmware {fw}, protocol v{proto}"),
        "fw.info.machine": ("Carte : {machine}", "Board: {machine}"),
        "fw.info.uid": ("Identifiant : {uid}", "Unique id: {uid}"),
        "fw.info.events": (
            "Événements depuis le démarrage : {next} (gardés pour un rattrapage : {held})",
            "Events since power-up: {next} (kept for a catch-up: {held})",
        ),
        "fw.info.debounce": (
            "Anti-rebond : verrou {lockout} ms, impulsion minimale {glitch} ms, coincé après {stuck}",
            "Debounce: lockout {lockout} ms, minimum pulse {glitch} ms, stuck after {stuck}",
        ),
        "fw.info.capture.pio": (
            "Capture : PIO + DMA, résolution {res} µs, alignement sur ticks_us ≤ {align} µs, "
            "réserve de {ring} fronts",
            "Capture: PIO + DMA, resolution {res} µs, aligned with ticks_us within {align} µs, "
            "room for {ring} edges",
        ),
        "fw.info.capture.irq": (
            "Capture : interruptions (PIO ou DMA indisponible), résolution ~{res} µs",
            "Capture: interrupts (PIO or DMA not available), resolution ~{res} µs",
        ),
        "fw.info.rtt": ("Aller-retour USB : {rtt:.2f} ms", "USB round trip: {rtt:.2f} ms"),
        "fw.info.pins": ("Câblage (GPn = broche GPIO du Pico) :", "Wiring (GPn = Pico GPIO pin):"),
        "fw.info.seat": (
            "  place {n:>2} : bouton GP{pin:<2}  LED {led}",
            "  seat {n:>2}: button GP{pin:<2}  LED {led}",
        ),
        "fw.info.ref": ("  {role:>8} : bouton {pin}", "  {role:<9}: button {pin}"),
        "fw.none": ("aucune", "none"),
        "fw.never": ("jamais", "never"),
    }
)


_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")


def french_typography(fr: str) -> str:
    """French spacing: a narrow no-break space (U+202F) before : ; ! ? and inside « »; the
    typographic apostrophe (U+2019) in an elision ("chasse d’eau")."""
    for mark in (":", ";", "!", "?"):
        fr = fr.replace(" " + mark, "\u202f" + mark)
    fr = _APOSTROPHE.sub("\u2019", fr) if "'" in fr else fr
    return fr.replace("« ", "«\u202f").replace(" »", "\u202f»")


# The catalogue above is written with plain spaces and apostrophes, as it reads; what a player
# sees carries the narrow no-break space and the typographic apostrophe, like the games'
# registered strings.
CATALOGUE.update({key: (french_typography(fr), en) for key, (fr, en) in CATALOGUE.items()})


def register(strings: dict[str, tuple[str, str]]) -> None:
    """A game's own strings (``games/<name>/strings.py``), added when the game is loaded, with
    French typography applied so that the catalogue entries stay readable as written."""
    CATALOGUE.update({key: (french_typography(fr), en) for key, (fr, en) in strings.items()})


# Referee buttons, as the table calls them.
REFEREE_FR = {"confirm": "valider", "cancel": "annuler", "undo": "revenir"}


def referee_name(role: str, lang: str = "fr") -> str:
    return REFEREE_FR[role] if lang == "fr" else role


_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def _plurals(text: str, lang: str, values: Mapping[str, object]) -> str:
    """``{n|carte|cartes}`` picks the form for ``values["n"]``: French takes the singular for 0
    and 1 ("0 carte remise"), English for 1 only."""

    def pick(match: re.Match[str]) -> str:
        n = values.get(match[1])
        count = abs(n) if isinstance(n, int | float) else 2
        singular = count < 2 if lang == "fr" else count == 1
        return match[2] if singular else match[3]

    return _PLURAL.sub(pick, text) if "|" in text else text


class _FrNumber(float):
    """A number as French writes it: a decimal comma, digits grouped by a narrow no-break space,
    and a narrow no-break space before % ("13,7", "1 111,3", "11 %")."""

    def __format__(self, spec: str) -> str:
        text = float.__format__(self, spec).replace(",", "\u202f").replace(".", ",")
        return text[:-1] + "\u202f%" if text.endswith("%") else text


_OS_REASONS_FR = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.EISDIR: "c'est un dossier",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.ENOSPC: "disque plein",
    errno.EROFS: "support en lecture seule",
    errno.EEXIST: "le fichier existe déjà",
    errno.ENAMETOOLONG: "nom trop long",
    errno.EIO: "erreur d'entrée-sortie du support",
}


def os_reason(err: OSError, lang: str = "fr") -> str:
    """Why the system refused, in the player's language (the system says it in English)."""
    if lang == "fr" and err.errno in _OS_REASONS_FR:
        return _OS_REASONS_FR[err.errno]
    return err.strerror or str(err)


def t(key: str, lang: str = "fr", /, **values: object) -> str:
    fr, en = CATALOGUE[key]
    text = fr if lang == "fr" else en
    if lang == "fr":
        values = {k: _FrNumber(v) if isinstance(v, float) else v for k, v in values.items()}
        return elide(_plurals(text, lang, values).format(**values))
    return _plurals(text, lang, values).format(**values)


# French elision: "de" and "que" before a vowel once the name is in ("la pioche d'Alice", "qu'Émile");
# not before h (aspiré or muet, a name does not say which).
_ELISION = re.compile(r"\b([Dd]|[Qq]u)e ([AEIOUYÀÂÉÈÊÎÏÔŒaeiouyàâéèêîïôœ])")


def elide(fr: str) -> str:
    """French elision with a typographic apostrophe: "de Anne-Sophie" -> "d’Anne-Sophie"."""
    return _ELISION.sub(lambda m: f"{m[1]}\u2019{m[2]}", fr) if "e " in fr else fr


def en_fr(key: str, /, **values: object) -> tuple[str, str]:
    """English then French, the order CompanionError takes them."""
    return t(key, "en", **values), t(key, "fr", **values)


def margin_text(margin_us: int, res_us: int = 1, lang: str = "fr") -> str:
    """A slap margin shown only to the precision it has: exact from a 1 µs clock, else rounded
    to the decade of the coarser press's resolution and marked approximate ("≈ 30 ms")."""
    if res_us <= 1:
        return ms(margin_us, lang)
    step = 10 ** (len(str(res_us)) - 1)  # 20 000 µs -> 10 ms, 15 µs -> 10 µs
    rounded = (margin_us + step // 2) // step * step
    if step >= 1000 or rounded >= 1000:
        decimals = max(0, 3 - len(str(step)) + 1)
        text = f"{rounded / 1000:.{decimals}f} ms"
    else:
        text = f"{rounded} µs"
    if lang == "fr":
        text = text.replace(".", ",")
    return "≈ " + text


def number(value: float, spec: str = "", lang: str = "fr") -> str:
    """``value`` formatted by ``spec`` as the language writes numbers: "12,3" and "1 111" (a
    narrow no-break space) in French, "12.3" and "1,111" in English."""
    return format(_FrNumber(value), spec) if lang == "fr" else format(value, spec)


def count(n: int, one: str, many: str, lang: str = "fr") -> str:
    """``n`` and a noun in the form the language takes for it, the number as it writes numbers:
    "1 game", "2 games", "0 partie", "1 234 parties" (French takes the singular for 0 and 1)."""
    return number(n, ",.0f", lang) + " " + _plurals("{n|" + one + "|" + many + "}", lang, {"n": n})


def ms(t_us: int, lang: str = "fr") -> str:
    """A gap for players: milliseconds with one decimal under 10 ms (3,2 ms: the tenth tells two
    close slaps apart), whole milliseconds above (a tenth of 140 ms carries nothing), µs below a
    tenth of a millisecond; a decimal comma in French."""
    if abs(t_us) < 100:
        return f"{t_us} µs"
    spec = ",.1f" if abs(t_us) < 9950 else ",.0f"
    if lang == "fr":
        return f"{t_us / 1000:{spec}}".replace(",", "\u202f").replace(".", ",") + " ms"
    return f"{t_us / 1000:{spec}} ms"
