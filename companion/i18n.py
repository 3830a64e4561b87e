"""Translation catalogue: every sentence a player reads, in French (default) and English."""

from __future__ import annotations

import re
from typing import Literal

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")

CATALOGUE: dict[str, tuple[str, str]] = {
    # key: (French, English)
    "game.kilo": ("Kilo de merde", "Kilo de merde"),
    "round_of": ("Manche {round}/{rounds}", "Round {round}/{rounds}"),
    "awaiting.play": ("en jeu : on attend une tape", "in play: waiting for a slap"),
    "awaiting.verdict": ("tape à juger : carré valable ou fausse tape ?",
                         "slap to judge: valid claim or false slap?"),
    "awaiting.draw": ("pioche due : {names}", "draw owed: {names}"),
    "awaiting.nothing": ("partie terminée", "game over"),
    "kilos": ("{kilos} kg", "{kilos} kg"),
    "no_cards": ("aucune carte", "no cards"),
    "pile": ("Tas : {count} {count|carte|cartes}, dont {bottom} {bottom|remise|remises} dessous",
             "Pile: {count} {count|card|cards}, {bottom} of them returned underneath"),
    "pile.empty": ("Tas vide", "Pile empty"),
    "odds": ("Prochaine carte : As {ace:.0%}, 7 (chasse d'eau) {seven:.0%}, {exp:.1f} kg en moyenne",
             "Next card: Ace {ace:.0%}, 7 (flush) {seven:.0%}, {exp:.1f} kg on average"),
    "winners": ("Vainqueur : {names} avec {kilos} kg", "Winner: {names} with {kilos} kg"),
    "co_winners": ("Vainqueurs ex aequo : {names} avec {kilos} kg",
                   "Co-winners: {names} with {kilos} kg"),
    "ended.pile_empty": ("Le tas est vide alors qu'une pioche était due : la partie s'arrête.",
                         "The pile ran out while a draw was owed: the game stops here."),
    "demo.title": ("Démo de {game} : {players} joueurs simulés (graine {seed})",
                   "{game} demo: {players} simulated players (seed {seed})"),
    "demo.round": ("— Manche {round}/{rounds} —", "— Round {round}/{rounds} —"),
    "demo.starter": ("{name} a la dame de cœur et commence.",
                     "{name} holds the queen of hearts and starts."),
    "demo.slap": ("{claimant} tape :", "{claimant} slaps:"),
    "demo.press": ("  {pos:>2}. {name:<{width}} {offset}", "  {pos:>2}. {name:<{width}} {offset}"),
    "demo.no_press": ("  --  {name:<{width}} n'a pas tapé (délai écoulé)",
                      "  --  {name:<{width}} did not slap (timed out)"),
    "demo.valid": ("  Carré valable. Dernier : {names}, à {margin} près.",
                   "  Valid claim. Last: {names}, by {margin}."),
    "demo.valid_timeout": ("  Carré valable. Dernier : {names} (n'a pas tapé).",
                           "  Valid claim. Last: {names} (never slapped)."),
    "demo.tie": ("  Égalité à la dernière place : {names}.", "  Tie for last: {names}."),
    "demo.reslap": ("  Égalité pour la dernière place : on retape.",
                    "  Tie for last place: the slap is replayed."),
    "demo.false": ("  Fausse tape ! {names} pioche.", "  False slap! {names} draws."),
    "demo.false_many": ("  Fausse tape ! {names} piochent.", "  False slap! {names} draw."),
    "demo.held_back": ("  --  {name:<{width}} n'a pas tapé (bien vu)",
                       "  --  {name:<{width}} held back (well spotted)"),
    "demo.draw": ("  {name} pioche {card} : +{kilos} kg (total {total} kg)",
                  "  {name} draws {card}: +{kilos} kg (total {total} kg)"),
    "demo.flush": ("  {name} pioche {card} : chasse d'eau ! {count} {count|carte|cartes} sous le "
                   "tas, retour à 0 kg",
                   "  {name} draws {card}: flush! {count} {count|card|cards} under the pile, back "
                   "to 0 kg"),
    "demo.seven_kept": ("  {name} pioche {card} : première carte, le 7 compte 7 kg",
                        "  {name} draws {card}: first card, the 7 counts 7 kg"),
    "demo.undo": ("  (La table annule : {what})", "  (The table undoes: {what})"),
    "demo.standings": ("  Classement : {line}", "  Standings: {line}"),
    "demo.pile": ("  Tas : {count} {count|carte|cartes} ({bottom} {bottom|remise|remises} dessous) · "
                  "prochaine carte : As {ace:.0%}, 7 {seven:.0%}, {exp:.1f} kg en moyenne",
                  "  Pile: {count} {count|card|cards} ({bottom} returned underneath) · next card: "
                  "Ace {ace:.0%}, "
                  "7 {seven:.0%}, {exp:.1f} kg on average"),
    "cli.players_range": ("--players : {game} se joue de {low} à {high} joueurs",
                          "--players: {game} is played by {low} to {high} players"),
    "cli.rounds_kilo_only": ("--rounds ne vaut que pour le Kilo de merde : {game} a ses donnes "
                             "fixées par la règle",
                             "--rounds is for Kilo de merde only: {game} has its rounds fixed by "
                             "its rules"),
    "cli.rounds_range": ("--rounds : de 1 à 99 manches", "--rounds: 1 to 99 rounds"),
    "cli.speed_range": ("--speed : 0 (au plus vite) ou plus", "--speed: 0 (as fast as possible) or more"),
    "buttons.no_screen": (
        "Il n'y a pas d'écran ici pour lire le clavier (ni session graphique ni affichage) : pour "
        "de vrais boutons lancez `companion buttons --input gpio` (ou `--input serial` pour le "
        "Pico), pour essayer `companion buttons --input sim`.",
        "There is no screen here to read the keyboard from (no desktop session, no display): for "
        "real buttons run `companion buttons --input gpio` (or `--input serial` for the Pico), to "
        "try it `companion buttons --input sim`."),
    "buttons.assign_gpio_only": (
        "--assign écrit le plan des broches GPIO, il écoute donc les broches du Pi et non "
        "--input {source} : retirez --input ; pour voir des appuis simulés lancez "
        "`companion buttons --input sim`.",
        "--assign writes the GPIO pin map, so it listens to the Pi's pins, not to --input "
        "{source}: leave --input out; to watch simulated presses run "
        "`companion buttons --input sim`."),
    "buttons.assign_no_lgpio": (
        "--assign a besoin des broches GPIO du Pi, et la bibliothèque lgpio n'est pas installée : "
        "sur un Raspberry Pi lancez `pip install 'table-companion[gpio]'` ; sur un portable il "
        "n'y a pas de broches, `companion buttons --input keyboard` montre les touches.",
        "--assign needs the Pi's GPIO pins, and the lgpio library is not installed: on a "
        "Raspberry Pi run `pip install 'table-companion[gpio]'`; a laptop has no pins, "
        "`companion buttons --input keyboard` shows the keys."),
    "cli.stopped": ("Interrompu.", "Interrupted."),
    "cli.interrupted": ("Interrompu : `companion resume` reprend cette partie.",
                        "Interrupted: `companion resume` continues this game."),
    "cli.cannot_read": ("impossible de lire {path} : {why}", "cannot read {path}: {why}"),
    "cli.bad_game": ("jeu inconnu {value!r} : choisissez parmi {choices}",
                     "unknown game {value!r}: choose among {choices}"),
    "games.none": ("Aucune partie enregistrée.", "No stored games."),
    "games.finished": ("terminée", "finished"),
    "games.running": ("en cours", "in progress"),
    "games.damaged": ("ABÎMÉE", "DAMAGED"),
    "games.row": ("{id}  {when}  {game:<14} {status:<11} {events:>5} év.  {players}",
                  "{id}  {when}  {game:<14} {status:<11} {events:>5} events  {players}"),
    "standings.header": ("Classement :", "Standings:"),
    "last_slap.header": ("Dernière tape :", "Last slap:"),
    "demo.resumed": ("Reprise de la partie {game_id} à l'événement {seq}.",
                     "Resuming game {game_id} at event {seq}."),
    "demo.journal": ("Partie {game_id} enregistrée dans {path}",
                     "Game {game_id} journaled in {path}"),
    # --- the table screen (companion.display) ------------------------------------------------
    "scr.setup.title": ("Nouvelle partie", "New game"),
    "scr.nav.table": ("Table", "Table"),
    "scr.nav.pile": ("Tas", "Pile"),
    "scr.nav.history": ("Courbes", "History"),
    "scr.nav.stats": ("Chiffres", "Numbers"),
    "scr.nav.rules": ("Règles", "Rules"),
    "scr.nav.status": ("Matériel", "Hardware"),
    "scr.nav.undo": ("Annuler", "Undo"),
    "scr.nav.sound_on": ("Son : oui", "Sound: on"),
    "scr.nav.sound_off": ("Son : non", "Sound: off"),
    "scr.await.play": ("On passe les cartes : on attend une tape",
                       "Cards are passing: waiting for a slap"),
    "scr.await.play_starter": ("{name} commence (dame de cœur)",
                               "{name} starts (queen of hearts)"),
    "scr.await.verdict": ("Tape ! Carré valable ou fausse tape ?",
                          "Slap! Valid claim or false slap?"),
    "scr.await.draw": ("Pioche : {names}", "Draw: {names}"),
    "scr.hw.disconnected": ("Boutons débranchés ({source}) : rebranchez-les, les scores sont gardés",
                            "Buttons disconnected ({source}): plug them back in, scores are kept"),
    "scr.hw.stuck": ("Bouton coincé : {button}", "Stuck button: {button}"),
    "scr.hw.not_started": ("Boutons ({source}) non démarrés : voir le message ou l'écran Matériel",
                           "Buttons ({source}) not started: see the message or the Hardware screen"),
    "scr.hw.held": ("Le bouton de la place {seat} ({name}) était enfoncé quand la tape s'est "
                    "ouverte ; il recompte une fois relâché.",
                    "The button of seat {seat} ({name}) was held down as the slap opened; it "
                    "counts again once released."),
    "scr.hw.held_released": ("Le bouton de la place {seat} ({name}) est relâché et compte de "
                             "nouveau.",
                             "The button of seat {seat} ({name}) is released and counts again."),
    "scr.hw.none": ("Aucune source de boutons (aperçu ou configuration)",
                    "No button source (snapshot or setup)"),
    "scr.hw.ok": ("Boutons : {source}, tout va bien", "Buttons: {source}, all fine"),
    "scr.tag.draws": ("pioche", "draws"),
    "scr.tag.starts": ("commence", "starts"),
    "scr.tag.flushes": ("{n}× chasse", "{n}× flush"),
    "scr.lots.button": ("Tirer au sort le donneur", "Draw lots: who deals"),
    "scr.lots.drawing": ("Tirage au sort du donneur…", "Drawing lots for the dealer…"),
    "scr.lots.dealer": ("{name} distribue", "{name} deals"),
    "scr.starter_hint": ("touchez qui a la dame de cœur", "touch who holds the queen of hearts"),
    "scr.pile_line": ("Tas : {count} {count|carte|cartes} · As {ace:.0%} · 7 {seven:.0%}",
                      "Pile: {count} {count|card|cards} · Ace {ace:.0%} · 7 {seven:.0%}"),
    "scr.no_game": ("Pas de partie en cours : commencez-en une depuis l'écran Nouvelle partie.",
                    "No game in progress: start one from the New game screen."),
    "scr.slap.waiting": ("{claimant} a tapé · on attend : {names}",
                         "{claimant} slapped · waiting for: {names}"),
    "scr.slap.all_in": ("{claimant} a tapé · tout le monde a tapé",
                        "{claimant} slapped · everyone has pressed"),
    "scr.slap.false": ("Fausse tape : {names} pioche", "False slap: {names} draws"),
    "scr.slap.false_many": ("Fausse tape : {names} piochent", "False slap: {names} draw"),
    "scr.slap.reslap": ("Égalité pour la dernière place : on retape",
                        "Tie for last place: slap again"),
    "scr.slap.timeout": ("{names} n'a pas tapé et pioche", "{names} never slapped and draws"),
    "scr.slap.tie": ("Égalité à la dernière place : {names}", "Tie for last: {names}"),
    "scr.slap.lost_by": ("{names} perd de {margin}", "{names} lost by {margin}"),
    "scr.slap.claimant": ("annonce", "claims"),
    "scr.slap.loses": ("PIOCHE", "DRAWS"),
    "scr.slap.held_back": ("n'a pas tapé (bien vu)", "held back (well spotted)"),
    "scr.slap.not_yet": ("pas encore tapé", "not pressed yet"),
    "scr.slap.no_press": ("n'a pas tapé à temps", "did not press in time"),
    "scr.slap.none": ("Aucune tape jugée pour l'instant : le résultat s'affiche après un verdict.",
                      "No slap judged yet: the result shows after a verdict."),
    "scr.slap.live": ("Tape en cours, pas encore jugée", "Slap in progress, not judged yet"),
    "scr.slap.continue": ("Saisir la carte de {names}", "Enter {names}'s card"),
    "scr.key.enter": ("touche Entrée", "Enter key"),
    "scr.key.false": ("touche Échap", "Esc key"),
    "scr.key.esc": ("Échap", "Esc"),
    "scr.verdict.over": ("La partie est finie : plus de tape à juger.",
                         "The game is over: no slap to judge."),
    "scr.verdict.draw_first": ("Pas de tape à juger : {names} doit d'abord piocher.",
                               "No slap to judge: {names} must draw first."),
    "scr.verdict.none": ("Pas de tape à juger : personne n'a tapé depuis le dernier verdict.",
                         "No slap to judge: nobody has pressed since the last verdict."),
    "scr.verdict.ask": ("Le carré est-il bon ?", "Is the claim good?"),
    "scr.verdict.valid": ("Carré valable", "Valid claim"),
    "scr.verdict.false": ("Fausse tape", "False slap"),
    "scr.verdict.who": ("Qui a tapé par erreur ?", "Who slapped in error?"),
    "scr.verdict.confirm_false": ("Valider ({n} pioche)", "Confirm ({n} draw)"),
    "scr.back": ("Retour", "Back"),
    "scr.card.over": ("La partie est finie : on ne pioche plus.",
                      "The game is over: no more draws."),
    "scr.card.none": ("Personne ne doit piocher : une pioche suit un verdict.",
                      "Nobody owes a draw: a draw follows a verdict."),
    "scr.card.who": ("{name} pioche : quelle carte ?", "{name} draws: which card?"),
    "scr.card.any_suit": ("couleur ?", "any suit"),
    "scr.card.note": ("Le tas contient {ranks} ; touchez une carte grisée pour savoir pourquoi.",
                      "The pile holds {ranks}; touch a greyed card to see why."),
    "scr.card.chosen": ("Carte : {card}", "Card: {card}"),
    "scr.card.pick": ("Choisissez la valeur (la couleur est facultative)",
                      "Pick the rank (the suit is optional)"),
    "scr.card.confirm": ("Valider", "Confirm"),
    "scr.card.tag.dealt": ("en main", "dealt"),
    "scr.card.tag.gone": ("épuisé", "all out"),
    "scr.card.tag.later": ("plus tard", "later"),
    "scr.card.tag.empty": ("tas vide", "pile empty"),
    "scr.pile.count": ("Cartes au tas", "Cards left"),
    "scr.pile.ace": ("Chance d'un As", "Chance of an Ace"),
    "scr.pile.seven": ("Chasse d'eau (7)", "Flush (a 7)"),
    "scr.pile.expected": ("Kilos attendus", "Expected kilos"),
    "scr.pile.ranks": ("Prochaine carte, par valeur ({bottom} {bottom|remise|remises} dessous)",
                       "Next card, by rank ({bottom} returned underneath)"),
    "scr.pile.returned": ("Il ne reste sous le tas que {n} {n|carte remise|cartes remises}",
                          "Only the {n} {n|card|cards} returned under the pile {n|is|are} left"),
    "scr.history.none": ("Aucune manche terminée : la courbe commence après la première.",
                         "No round finished yet: the chart starts after the first."),
    "scr.history.title": ("Kilos par manche", "Kilos per round"),
    "scr.over.not_yet": ("La partie n'est pas finie (manche {round}/{rounds}) : classement provisoire.",
                         "The game is not over (round {round}/{rounds}): provisional standings."),
    "scr.over.provisional": ("Classement provisoire", "Provisional standings"),
    "scr.over.thanks": ("Merci d'avoir joué !", "Thanks for playing!"),
    "scr.over.again": ("Rejouer", "Play again"),
    "scr.over.new": ("Nouvelle partie", "New game"),
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
        "Drawing a 7 sends all your cards under the pile: back to 0 kg. Fewest kilos wins."),
    "scr.rules.house": ("Règles de la maison pour cette partie :", "House rules for this game:"),
    "scr.rules.other": ("sinon : {other}", "otherwise: {other}"),
    "scr.rules.keys.kilo": (
        "Touches\n1 … 0 : boutons des joueurs 1 à 10 (pavé numérique aussi)\n"
        "Entrée : valider (carré valable, carte)\nÉchap : fausse tape, retour\n"
        "Retour arrière, U ou Ctrl+Z : annuler la dernière décision\n"
        "Carte : A/1, 2 … 9, 0 = 10, V, D, R (ou J, Q, K ; pavé / * -) puis F1 … F4 pour la "
        "couleur\nT table · P tas · G courbes · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 0: the players' buttons 1 to 10 (numpad too)\n"
        "Enter: confirm (valid claim, card)\nEsc: false slap, back\n"
        "Backspace, U or Ctrl+Z: undo the last decision\n"
        "Card: A/1, 2 … 9, 0 = 10, J, Q, K (or V, D, R; numpad / * -) then F1 … F4 for the "
        "suit\nT table · P pile · G history · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit"),
    "scr.rule.seven.flush": ("Un 7 pioché fait chasse d'eau : toutes ses cartes sous le tas, 0 kg",
                             "A drawn 7 flushes: all your cards go under the pile, 0 kg"),
    "scr.rule.seven.first_card_counts": (
        "Un 7 en première carte se garde et vaut 7 kg ; sinon chasse d'eau",
        "A 7 as your first card is kept for 7 kg; otherwise it flushes"),
    "scr.rule.seven.flush.short": ("7 : chasse d'eau", "7: flush"),
    "scr.rule.seven.first_card_counts.short": ("7 : première carte gardée",
                                               "7: first card kept"),
    "scr.rule.quads.rank": ("On tape sur quatre cartes de même valeur",
                            "Slap on four cards of one rank"),
    "scr.rule.quads.rank_or_suit": ("On tape sur quatre de même valeur ou de même couleur",
                                    "Slap on four of one rank or of one suit"),
    "scr.rule.quads.rank.short": ("Carré : valeur", "Quad: rank"),
    "scr.rule.quads.rank_or_suit.short": ("Carré : valeur ou couleur", "Quad: rank or suit"),
    "scr.rule.passing.one_by_one": (
        "On passe une carte à la fois : taper avant que tous aient 4 cartes est une fausse tape",
        "Cards pass one at a time: slapping before all hold 4 cards is a false slap"),
    "scr.rule.passing.simultaneous": ("Tout le monde passe en même temps : jamais trop tôt",
                                      "Everyone passes at once: never too early"),
    "scr.rule.passing.one_by_one.short": ("Passe : une à une", "Passing: one by one"),
    "scr.rule.passing.simultaneous.short": ("Passe : simultanée", "Passing: simultaneous"),
    "scr.rule.tie.all_draw": ("Égalité à la dernière place : tous piochent",
                              "Tie for last place: all of them draw"),
    "scr.rule.tie.reslap": ("Égalité à la dernière place : on retape",
                            "Tie for last place: slap again"),
    "scr.rule.tie.all_draw.short": ("Égalité : tous piochent", "Tie: all draw"),
    "scr.rule.tie.reslap.short": ("Égalité : on retape", "Tie: slap again"),
    "scr.rule.timeout": ("Délai pour taper : {s:g} s après la première tape",
                         "Time to slap: {s:g} s after the first press"),
    "scr.setup.in_game": ("Une partie est en cours : « Commencer » en lance une nouvelle.",
                          "A game is in progress: \"Start\" begins a new one."),
    "scr.setup.players": ("Joueurs ({n}), sens horaire", "Players ({n}), clockwise"),
    "scr.setup.rounds": ("Manches : {n}", "Rounds: {n}"),
    "scr.setup.rounds_help": ("Nombre de manches de la partie", "Rounds in the game"),
    "scr.setup.timeout": ("Délai : {s:g} s", "Time limit: {s:g} s"),
    "scr.setup.timeout_help": ("Qui n'a pas tapé à temps est dernier",
                               "Whoever has not pressed by then is last"),
    "scr.setup.input": ("Boutons : {name}", "Buttons: {name}"),
    "scr.setup.game": ("Jeu : {name}", "Game: {name}"),
    "scr.setup.game.kilo": ("le dernier à taper pioche des kilos",
                            "the last to slap draws kilos"),
    "scr.setup.game.cinq-rois": ("rami à jokers, 11 donnes de 3 à 13 cartes",
                                 "rummy with wilds, 11 rounds of 3 to 13 cards"),
    "scr.setup.game.treize": ("se défausser le premier ; appuyer = je passe",
                              "first to empty their hand; a press = I pass"),
    "scr.setup.change": ("Changer", "Change"),
    "scr.setup.hint": ("Touchez un nom pour le changer ; ^ l'avance d'une place.",
                       "Touch a name to change it; ^ moves it up one seat."),
    "scr.setup.start": ("Commencer", "Start"),
    "scr.input.keyboard": ("clavier", "keyboard"),
    "scr.input.keyboard.help": ("Touches 1 … 0 pour les joueurs 1 à 10",
                                "Keys 1 … 0 for players 1 to 10"),
    "scr.input.sim": ("joueurs simulés", "simulated players"),
    "scr.input.sim.help": ("Les joueurs tapent tout seuls : pour essayer",
                           "Players slap by themselves: to try it out"),
    "scr.input.gpio": ("GPIO du Raspberry Pi", "Raspberry Pi GPIO"),
    "scr.input.gpio.help": ("Boutons câblés au Pi (fichier de configuration)",
                            "Buttons wired to the Pi (config file)"),
    "scr.input.serial": ("carte Pico (USB)", "Pico board (USB)"),
    "scr.input.serial.help": ("Boutons sur une carte Pico branchée en USB",
                              "Buttons on a Pico board over USB"),
    "scr.flush": ("Chasse d'eau ! {name} repart à 0 kg", "Flush! {name} is back to 0 kg"),
    "scr.msg.undone": ("Annulé : {what}", "Undone: {what}"),
    "scr.msg.nothing_to_undo": ("Rien à annuler", "Nothing to undo"),
    "scr.msg.pick_rank": ("Choisissez d'abord la valeur de la carte", "Pick the card's rank first"),
    "scr.msg.name_taken": ("Deux joueurs ne peuvent pas avoir le même nom : {name}",
                           "Two players cannot have the same name: {name}"),
    "scr.msg.name_empty": ("Un nom ne peut pas être vide", "A name cannot be empty"),
    "scr.msg.source_failed": ("Les boutons ne démarrent pas : {why}",
                              "The buttons do not start: {why}"),
    "scr.msg.resumed": ("Partie {game_id} reprise", "Game {game_id} resumed"),
    "cli.no_display": (
        "Aucun écran disponible ({why}). Lancez la commande dans une session graphique, "
        "réglez SDL_VIDEODRIVER=kmsdrm sur un Raspberry Pi sans bureau, ou faites une image "
        "avec `companion snapshot`.",
        "No display available ({why}). Run it in a desktop session, set "
        "SDL_VIDEODRIVER=kmsdrm on a Raspberry Pi without a desktop, or render an image with "
        "`companion snapshot`."),
    "cli.bad_size": ("--size {value!r} : écrivez LARGEURxHAUTEUR, par exemple 1280x720 "
                     "(de 320x240 à 7680x4320)",
                     "--size {value!r}: write WIDTHxHEIGHT, for example 1280x720 "
                     "(320x240 to 7680x4320)"),
    "cli.bad_screen": ("écran inconnu {value!r} : choisissez parmi {choices}",
                       "unknown screen {value!r}: choose one of {choices}"),
    "cli.bad_lang": ("langue inconnue {value!r} : fr ou en", "unknown language {value!r}: fr or en"),
    "cli.bad_input": ("source de boutons inconnue {value!r} : {choices}",
                      "unknown button source {value!r}: {choices}"),
    "cli.read_log": ("impossible de lire {path} : {why}", "cannot read {path}: {why}"),
    "cli.wrote": ("Image écrite : {path} ({size})", "Image written: {path} ({size})"),
    "cli.write_failed": ("impossible d'écrire {path} : {why}", "cannot write {path}: {why}"),
    "cli.game_over": ("Partie {game_id} terminée.", "Game {game_id} finished."),
}


# `companion buttons` (the wiring monitor and pin assignment)
CATALOGUE.update({
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
})

# `companion firmware` (the Pico button board)
CATALOGUE.update({
    # key: (French, English)
    "fw.no_source": (
        "Fichiers du firmware introuvables dans {path} : indiquez le dossier avec --source.",
        "Firmware files not found in {path}: give the folder with --source.",
    ),
    "fw.no_mpremote": (
        "mpremote n'est pas installé : pip install 'table-companion[serial]'.",
        "mpremote is not installed: pip install 'table-companion[serial]'.",
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
    "fw.info.ref": ("  {role:<9}: bouton {pin}", "  {role:<9}: button {pin}"),
    "fw.none": ("aucune", "none"),
    "fw.never": ("jamais", "never"),
})


# 13 feuilles. French typography: a narrow no-break space before : ; ! ? (``_typo``).
TREIZE: dict[str, tuple[str, str]] = {
    "game.treize": ("13 feuilles", "13 feuilles"),
    "scr.nav.scores": ("Scores", "Scores"),
    "scr.nav.gameover": ("Résultat", "Result"),
    "treize.head.game": ("Partie {n} · manche {trick}", "Game {n} · trick {trick}"),
    "treize.head.over": ("Match : {games} parties", "Match: {games} games"),
    "treize.head.over_basic": ("Partie finie", "Game over"),
    "treize.todo.lots": ("appuyez pour tirer au sort", "press to draw lots"),
    "treize.todo.turn": ("à {name} : jouer ou passer", "{name}: play or pass"),
    "treize.todo.lead": ("à {name} d'entamer : jouer", "{name} leads: play"),
    "treize.todo.first": ("à {name} de commencer : jouer", "{name} starts: play"),
    "treize.todo.passes": ("bouton = je passe", "button = I pass"),
    "treize.todo.take": ("{name} passe : quelle carte ?", "{name} passes: which card?"),
    "treize.todo.next": ("partie {n} finie : Entrée pour continuer",
                         "game {n} over: Enter to go on"),
    "treize.todo.over": ("match fini", "match over"),
    "treize.todo.over_basic": ("partie finie", "game over"),
    "treize.series.empty": ("Table vide : {name} entame, autant de cartes d'une même valeur "
                            "que voulu",
                            "Table empty: {name} leads with any number of cards of one value"),
    "treize.series.empty_nobody": ("Table vide : le premier coup entame la série",
                                   "Table empty: the first play starts the series"),
    "treize.series.title": ("Sur la table", "On the table"),
    "treize.series.low": ("bas : {count} × {value}", "low: {count} × {value}"),
    "treize.series.high": ("haut : {count} × {value}", "high: {count} × {value}"),
    "treize.series.one": ("une seule pile : {count} × {value}", "one stack: {count} × {value}"),
    "treize.allowed": ("{name} peut jouer : {what}", "{name} may play: {what}"),
    "treize.series.unknown": ("Coups non saisis dans cette partie : appuyer = je passe",
                              "Plays not entered in this game: a press = I pass"),
    "treize.tag.turn": ("joue", "to play"),
    "treize.tag.passed": ("a passé", "passed"),
    "treize.tag.leads": ("entame", "leads"),
    "treize.tag.starts": ("commence", "starts"),
    "treize.cards": ("cartes", "cards"),
    "treize.points": ("{n} pts", "{n} pts"),
    "treize.btn.play": ("Coup de {name}", "{name}'s play"),
    "treize.btn.end": ("Fin de partie", "End of game"),
    "treize.btn.helper.on": ("Aide à la série : oui", "Series helper: on"),
    "treize.btn.helper.off": ("Aide à la série : non", "Series helper: off"),
    "treize.setup.helper.on.help": ("On entre chaque coup : série et mains suivies",
                                    "Each play is entered: series and hands followed"),
    "treize.setup.helper.off.help": ("Seulement les passes et la fin de chaque partie",
                                     "Only the passes and each game's end"),
    "treize.msg.helper_fixed": ("L'aide se choisit avant la première carte de la partie",
                                "The helper is chosen before the game's first card"),
    "treize.hint.press": ("Bouton d'un joueur ou toucher son nom = il passe",
                          "A player's button or touching their name = they pass"),
    "treize.play.who": ("{name} joue : quelle valeur, combien ?",
                        "{name} plays: which value, how many?"),
    "treize.play.chosen": ("Coup : {count} × {value}", "Play: {count} × {value}"),
    "treize.play.pick_value": ("Touchez la valeur jouée", "Touch the value played"),
    "treize.play.pick_count": ("Combien de {value} ?", "How many {value}s?"),
    "treize.play.none": ("Pas de coup à entrer. {why}", "No play to enter. {why}"),
    "treize.play.none_turn": ("on ne sait pas à qui c'est le tour",
                              "whose turn it is is not known"),
    "treize.tag.min": ("{n} ou +", "{n}+"),
    "treize.tag.gap": ("interdit", "gap"),
    "treize.tag.few": ("pas assez", "too few"),
    "treize.take.who": ("{name} passe et prend une carte de la table : laquelle ?",
                        "{name} passes and takes a card from the table: which one?"),
    "treize.take.stack": ("{count} sur la table", "{count} on the table"),
    "treize.take.none": ("Personne ne passe en ce moment.", "Nobody is passing right now."),
    "treize.lots.title": ("Qui commence ? Appuyez sur un bouton pour tirer au sort",
                          "Who starts? Press any button to draw lots"),
    "treize.lots.button": ("Tirer au sort", "Draw lots"),
    "treize.lots.drawing": ("Tirage au sort…", "Drawing lots…"),
    "treize.lots.result": ("{name} commence !", "{name} starts!"),
    "treize.lots.known": ("Pas de tirage : {name} commence la partie {n}.",
                          "No lots to draw: {name} starts game {n}."),
    "treize.lots.over": ("Le match est fini : plus de tirage.", "The match is over: no lots."),
    "treize.scores.title": ("Feuille de scores", "Score sheet"),
    "treize.scores.game": ("P{n}", "G{n}"),
    "treize.scores.total": ("Total", "Total"),
    "treize.scores.race": ("Course à {target} points", "Race to {target} points"),
    "treize.scores.none": ("Aucune partie finie : la feuille se remplit après la première.",
                           "No game finished yet: the sheet fills in after the first."),
    "treize.scores.basic": ("Variante de base : une partie, sans points. Gagnant : {name}",
                            "Basic variant: one game, no points. Winner: {name}"),
    "treize.scores.basic_none": ("Variante de base : une partie, sans points.",
                                 "Basic variant: one game, no points."),
    "treize.scores.won": ("Partie {n} : {name} a vidé sa main", "Game {n}: {name} emptied their hand"),
    "treize.scores.next": ("Partie suivante", "Next game"),
    "treize.scores.starts": ("{name} commence la partie {n} (plus haut total)",
                             "{name} starts game {n} (highest total)"),
    "treize.over.winner": ("{names} gagne", "{names} wins"),
    "treize.over.co": ("{names} gagnent ex aequo", "{names} win, tied"),
    "treize.over.points": ("avec {n} pts", "with {n} pts"),
    "treize.over.not_yet": ("Le match n'est pas fini (partie {n}) : classement provisoire.",
                            "The match is not over (game {n}): provisional standings."),
    "treize.end.title": ("Fin de la partie {n} : qui a vidé sa main ?",
                         "End of game {n}: who emptied their hand?"),
    "treize.end.left": ("Cartes qui restent à chacun", "Cards each player still holds"),
    "treize.end.confirm": ("Valider la fin", "Confirm the end"),
    "treize.end.none": ("Les coups sont saisis : la partie finit d'elle-même sur la dernière "
                        "carte.",
                        "Plays are entered: the game ends by itself on the last card."),
    "treize.msg.lead_first": ("{name} ne peut pas passer : {leader} entame en jouant ; entrez son "
                              "coup (Entrée)",
                              "{name} cannot pass: {leader} leads with a play; enter it (Enter)"),
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
        "left wins."),
    "treize.rules.legend": (
        "Les cartes : un point = 1, un rond pointé = 5, un carré pointé = 10 (un rond pointé "
        "et deux points = 7).",
        "The cards: a dot = 1, a dotted circle = 5, a dotted square = 10 (a dotted circle and "
        "two dots = 7)."),
    "treize.rules.advanced": (
        "Variante avancée : le gagnant marque 0, les autres 1 point par carte gardée ; le plus "
        "haut total commence la partie suivante ; le match finit quand un total atteint 20. Le "
        "plus petit total gagne (ex aequo possibles).",
        "Advanced variant: the winner scores 0, the others 1 point per card kept; the highest "
        "total starts the next game; the match ends when a total reaches 20. Lowest total wins "
        "(ties share the win)."),
    "treize.rules.basic": ("Variante de base : une seule partie.",
                           "Basic variant: a single game."),
    "treize.rules.ties": ("Totaux les plus hauts égaux : commence le premier d'entre eux dans le "
                          "sens horaire après le gagnant.",
                          "Equal highest totals: the first of them clockwise after the winner "
                          "starts."),
    "scr.rules.keys.treize": (
        "Touches\n1 … 6 : boutons des joueurs = je passe\n"
        "Entrée : entrer le coup du joueur (puis valider)\n"
        "Coup : 1 … 9, 0 = 10, V/J = 11, D/Q = 12, R/K = 13, puis le nombre de cartes (1 … 9)\n"
        "Échap : retour · Retour arrière, U ou Ctrl+Z : annuler\n"
        "A : aide à la série, avant la première carte d'une partie\n"
        "T table · G scores · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 6: the players' buttons = I pass\n"
        "Enter: enter the player's play (then confirm)\n"
        "Play: 1 … 9, 0 = 10, J/V = 11, Q/D = 12, K/R = 13, then how many cards (1 … 9)\n"
        "Esc: back · Backspace, U or Ctrl+Z: undo\n"
        "A: series helper, before a game's first card\n"
        "T table · G scores · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit"),
    "treize.setup.variant.basic": ("Variante : de base", "Variant: basic"),
    "treize.setup.variant.advanced": ("Variante : avancée (à 20)", "Variant: advanced (to 20)"),
    "treize.setup.variant.basic.help": ("Une partie : le premier sans carte gagne",
                                        "One game: the first with no cards wins"),
    "treize.setup.variant.advanced.help": ("Des parties jusqu'à 20 points ; le plus bas gagne",
                                           "Games until 20 points; the lowest wins"),
    "treize.demo.game": ("— Partie {n} : {name} commence ({why}) —",
                         "— Game {n}: {name} starts ({why}) —"),
    "treize.why.lots": ("tiré au sort", "drawn by lot"),
    "treize.why.totals": ("plus haut total", "highest total"),
    "treize.why.setup": ("désigné", "named"),
    "treize.demo.play": ("  {name} joue {count} × {value}    table : {series}",
                         "  {name} plays {count} × {value}    table: {series}"),
    "treize.demo.pass": ("  {name} passe et prend un {value}", "  {name} passes and takes a {value}"),
    "treize.demo.trick": ("  Manche finie : {name} vide la table et entame.",
                          "  Trick over: {name} clears the table and leads."),
    "treize.demo.won": ("  {name} pose sa dernière carte et gagne la partie {n} !",
                        "  {name} plays their last card and wins game {n}!"),
    "treize.demo.points": ("  Points : {line}", "  Points: {line}"),
    "treize.demo.totals": ("  Totaux : {line}", "  Totals: {line}"),
    "treize.demo.winner": ("Vainqueur : {names} avec {n} pts", "Winner: {names} with {n} pts"),
    "treize.demo.co": ("Vainqueurs ex aequo : {names} avec {n} pts",
                       "Co-winners: {names} with {n} pts"),
    "treize.demo.basic_winner": ("Vainqueur : {names}", "Winner: {names}"),
}


def _typo(fr: str) -> str:
    """French spacing: a narrow no-break space (U+202F) before : ; ! ? and inside « »."""
    for mark in (":", ";", "!", "?"):
        fr = fr.replace(" " + mark, "\u202f" + mark)
    return fr.replace("« ", "«\u202f").replace(" »", "\u202f»")


CATALOGUE.update({key: (_typo(fr), en) for key, (fr, en) in TREIZE.items()})
# Les Cinq Rois on the table screen and in the demo. French typography: a narrow no-break space
# before : ; ! ? (added below, so the strings stay readable here).
_CINQ: dict[str, tuple[str, str]] = {
    "cinq.points": ("{n} pts", "{n} pts"),
    # The navigation bar names the game's screens by these keys (display/screens.py).
    "scr.nav.sheet": ("Feuille", "Sheet"),
    "scr.nav.entry": ("Saisie", "Entry"),
    "scr.nav.round": ("Donne", "Round"),
    "cinq.head.round": ("Donne {round}/{rounds}", "Round {round}/{rounds}"),
    "cinq.headline": ("Donne {round} : {detail}", "Round {round}: {detail}"),
    "cinq.head.detail": ("{cards} cartes, atout {bonus}, donneur {dealer}, {first} commence",
                         "{cards} cards, bonus {bonus}, dealer {dealer}, {first} plays first"),
    "cinq.head.short": ("atout {bonus} · {dealer} donne, {first} commence",
                        "bonus {bonus} · {dealer} deals, {first} starts"),
    "cinq.head.over": ("Partie terminée", "Game over"),
    "cinq.head.played": ("11 donnes jouées", "11 rounds played"),
    "cinq.todo.over": ("partie terminée", "game over"),
    "cinq.todo.lots": ("appuyez sur un bouton pour tirer le premier donneur au sort",
                       "press a button to draw the first dealer by lot"),
    "cinq.todo.last_turns": ("dernier tour : {name}", "last turn: {name}"),
    "cinq.todo.entry": ("saisissez la donne", "enter the round"),
    "cinq.todo.play": ("qui s'expose appuie sur son bouton", "whoever goes out presses their button"),
    "cinq.sheet.row": ("{round}. atout {bonus}", "{round}. bonus {bonus}"),
    "cinq.sheet.total": ("Total", "Total"),
    "cinq.sheet.place": ("Place", "Place"),
    "cinq.sheet.place_n": ("{n}e", "#{n}"),
    "cinq.sheet.hint": ("Qui s'expose appuie sur son bouton (ou touchez son nom).",
                        "Whoever goes out presses their button (or touch their name)."),
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
    "cinq.last.sub": ("Chacun joue un dernier tour, dans l'ordre ; appuyez quand c'est fait.",
                      "Everyone plays one last turn, in order; press when it is done."),
    "cinq.last.played": ("joué", "played"),
    "cinq.last.now": ("à vous", "your turn"),
    "cinq.last.waiting": ("ensuite", "next"),
    "cinq.last.none": ("Personne ne s'est exposé dans cette donne.",
                       "Nobody has gone out this round."),
    "cinq.last.cancel": ("Erreur, annuler", "Mistake, cancel"),
    "cinq.last.go": ("Saisir la donne", "Enter the round"),
    "cinq.mode.points": ("Points", "Points"),
    "cinq.mode.left": ("Cartes restantes", "Cards left"),
    "cinq.mode.hands": ("Mains entières", "Whole hands"),
    "cinq.entry.out_tag": ("exposé", "out"),
    "cinq.entry.out_zero": ("0 (exposé)", "0 (out)"),
    "cinq.entry.out_zero_long": ("{name} s'est exposé : 0 point", "{name} went out: 0 points"),
    "cinq.entry.cards_n": ("{n} cartes", "{n} cards"),
    "cinq.entry.who_out": ("Qui s'est exposé ? Touchez « exposé » ou tapez son numéro",
                           "Who went out? Touch \"out\" or type their number"),
    "cinq.entry.points_of": ("Points de {name}", "{name}'s points"),
    "cinq.entry.hand_of": ("Main de {name} : {n}/{size} cartes", "{name}'s hand: {n}/{size} cards"),
    "cinq.entry.left_of": ("Cartes restantes de {name} : {n}", "{name}'s cards left: {n}"),
    "cinq.entry.no_cards": ("Aucune carte : Entrée", "No cards: Enter"),
    "cinq.entry.type_cards": ("Touchez les cartes ou tapez-les : 7 H, 1 0 S, J K",
                              "Touch the cards or type them: 7 H, 1 0 S, J K"),
    "cinq.entry.rank_typed": ("{rank} : couleur ?", "{rank}: suit?"),
    "cinq.entry.back": ("Effacer", "Erase"),
    "cinq.entry.erase": ("Effacer", "Erase"),
    "cinq.entry.next": ("Suivant", "Next"),
    "cinq.entry.next_short": ("Suivant", "Next"),
    "cinq.entry.confirm": ("Valider la donne", "Count the round"),
    "cinq.entry.over": ("La partie est finie : plus de donne à saisir.",
                        "The game is over: no round left to enter."),
    "cinq.round.none": ("Aucune donne comptée pour l'instant.", "No round counted yet."),
    "cinq.round.title": ("Donne {round} (atout {bonus}) : {name} s'est exposé",
                         "Round {round} (bonus {bonus}): {name} went out"),
    "cinq.round.went_out": ("exposé", "out"),
    "cinq.round.by_points": ("points saisis", "points entered"),
    "cinq.round.legend": ("Vert : suites et familles ; jaune : ce que vaut un joker ou un atout ; "
                          "orange : cartes restantes.",
                          "Green: runs and sets; yellow: what a wild stands for; "
                          "orange: cards left."),
    "cinq.round.continue": ("Continuer", "Continue"),
    "cinq.over.winner": ("{names} gagne avec {n} points", "{names} wins with {n} points"),
    "cinq.over.co_winners": ("Ex æquo : {names} ({n} points)", "Co-winners: {names} ({n} points)"),
    "cinq.over.not_yet": ("La partie n'est pas finie (donne {round}/11) : classement provisoire.",
                          "The game is not over (round {round}/11): provisional standings."),
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
        "run (consecutive ranks of one suit, 3 to King) or a set (one rank)."),
    "cinq.rules.values": ("Valeurs : joker 50, atout 20, Roi 13, Dame 12, Valet 11, 10 à 3 leur "
                          "valeur.",
                          "Values: joker 50, bonus card 20, King 13, Queen 12, Jack 11, 10 to 3 "
                          "face value."),
    "cinq.rules.wilds": ("Jokers et atouts remplacent n'importe quelle carte, sans limite.",
                         "Jokers and bonus cards stand for any card, without limit."),
    "cinq.rules.bonus_table": (
        "Atout de chaque donne = le nombre de cartes distribuées : donne 1 = atout 3, donne 2 = "
        "atout 4 … donne 8 = atout 10, donne 9 = Valet, donne 10 = Dame, donne 11 = Roi.",
        "Bonus card of each round = the number of cards dealt: round 1 = bonus 3, round 2 = "
        "bonus 4 … round 8 = bonus 10, round 9 = Jack, round 10 = Queen, round 11 = King."),
    "cinq.rules.now": ("Cette donne : {cards} cartes, atout {bonus}.",
                       "This round: {cards} cards, bonus {bonus}."),
    "cinq.rules.out": ("Qui s'expose marque 0 ; les autres jouent un dernier tour puis comptent "
                       "leurs cartes hors combinaison. Après 11 donnes, le moins de points gagne.",
                       "Whoever goes out scores 0; the others play one last turn, then count "
                       "the cards outside combinations. After 11 rounds, fewest points wins."),
    "cinq.rules.dealer": ("Premier donneur : {name} ; la donne tourne dans le sens horaire, le "
                          "joueur suivant commence.",
                          "First dealer: {name}; the deal moves clockwise, the next player "
                          "starts."),
    "cinq.rules.dealer_lots": ("Premier donneur : tiré au sort à la table ; la donne tourne dans "
                               "le sens horaire.",
                               "First dealer: drawn by lot at the table; the deal moves "
                               "clockwise."),
    "cinq.setup.dealer": ("Donneur : {name}", "Dealer: {name}"),
    "cinq.setup.dealer_lots": ("Donneur : au sort", "Dealer: by lot"),
    "cinq.setup.dealer_help": ("Premier donneur ; au sort : tiré à la table",
                               "First dealer; by lot: drawn at the table"),
    "scr.rules.keys.cinq-rois": (
        "Touches\n1 … 7 : boutons des joueurs (je m'expose, puis dernier tour joué)\n"
        "Entrée : valider · Échap : retour, annuler\n"
        "U ou Ctrl+Z : annuler la dernière décision\n"
        "Saisie : flèches gauche/droite = mode, haut/bas = joueur, chiffres = points ; "
        "carte = valeur puis couleur "
        "(3 … 9, 0 ou 1 0 = 10, V/J, D/Q, R/K ; S H D C, E ou * étoile, ou F1 … F5), X ou J K "
        "joker, retour arrière efface\n"
        "T feuille · E saisie · D donne · R règles · S matériel · Tab écran suivant\n"
        "M son · L langue · Ctrl+Q quitter",
        "Keys\n1 … 7: the players' buttons (I go out, then last turn played)\n"
        "Enter: confirm · Esc: back, cancel\n"
        "U or Ctrl+Z: undo the last decision\n"
        "Entry: left/right arrows = mode, up/down = player, digits = points; card = rank then suit "
        "(3 … 9, 0 or 1 0 = 10, J/V, Q/D, K/R; S H D C, E or * star, or F1 … F5), X or J K "
        "joker, backspace erases\n"
        "T sheet · E entry · D round · R rules · S hardware · Tab next screen\n"
        "M sound · L language · Ctrl+Q quit"),
    # companion demo cinq-rois
    "cinq.demo.dealer": ("Tirage au sort du premier donneur : {name}.",
                         "First dealer drawn by lot: {name}."),
    "cinq.demo.round": ("— {headline} —", "— {headline} —"),
    "cinq.demo.turns": ("  {turns} tours ; {name} s'expose.", "  {turns} turns; {name} goes out."),
    "cinq.demo.hand": ("  {name:<{width}} {groups}{rest} → {points} pts",
                       "  {name:<{width}} {groups}{rest} → {points} pts"),
    "cinq.demo.rest": ("  reste {cards}", "  left {cards}"),
    "cinq.demo.standings": ("  Classement : {line}", "  Standings: {line}"),
    "cinq.demo.winner": ("Gagnant : {names} avec {n} points", "Winner: {names} with {n} points"),
    "cinq.demo.co_winners": ("Gagnants ex æquo : {names} avec {n} points",
                             "Co-winners: {names} with {n} points"),
}


def _narrow(text: str) -> str:
    for mark in (":", ";", "!", "?"):
        text = text.replace(" " + mark, "\u202f" + mark)
    return text


CATALOGUE.update({key: (_narrow(fr), en) for key, (fr, en) in _CINQ.items()})

# Referee buttons, as the table calls them.
REFEREE_FR = {"confirm": "valider", "cancel": "annuler", "undo": "revenir"}


def referee_name(role: str, lang: str = "fr") -> str:
    return REFEREE_FR[role] if lang == "fr" else role


_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def _plurals(text: str, lang: str, values: dict[str, object]) -> str:
    """``{n|carte|cartes}`` picks the form for ``values["n"]``: French takes the singular for 0
    and 1 ("0 carte remise"), English for 1 only."""

    def pick(match: re.Match[str]) -> str:
        n = values.get(match[1])
        count = abs(n) if isinstance(n, int | float) else 2
        singular = count < 2 if lang == "fr" else count == 1
        return match[2] if singular else match[3]

    return _PLURAL.sub(pick, text) if "|" in text else text


def t(key: str, lang: str = "fr", /, **values: object) -> str:
    fr, en = CATALOGUE[key]
    text = fr if lang == "fr" else en
    return _plurals(text, lang, values).format(**values)


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


def ms(t_us: int, lang: str = "fr") -> str:
    """A gap for players: milliseconds with one decimal (a decimal comma in French), or µs below
    a tenth of a millisecond."""
    if abs(t_us) < 100:
        return f"{t_us} µs"
    text = f"{t_us / 1000:.1f} ms"
    return text.replace(".", ",") if lang == "fr" else text
