"""Translation catalogue: every sentence a player reads, in French (default) and English."""

from __future__ import annotations

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
    "standings": ("Classement", "Standings"),
    "kilos": ("{kilos} kg", "{kilos} kg"),
    "no_cards": ("aucune carte", "no cards"),
    "pile": ("Tas : {count} cartes, dont {bottom} remises dessous",
             "Pile: {count} cards, {bottom} of them returned underneath"),
    "pile.empty": ("Tas vide", "Pile empty"),
    "odds": ("Prochaine carte : As {ace:.0%}, 7 (chasse d'eau) {seven:.0%}, {exp:.1f} kg en moyenne",
             "Next card: Ace {ace:.0%}, 7 (flush) {seven:.0%}, {exp:.1f} kg on average"),
    "winners": ("Vainqueur : {names} avec {kilos} kg", "Winner: {names} with {kilos} kg"),
    "co_winners": ("Vainqueurs ex aequo : {names} avec {kilos} kg",
                   "Co-winners: {names} with {kilos} kg"),
    "ended.pile_empty": ("Le tas est vide alors qu'une pioche était due : la partie s'arrête.",
                         "The pile ran out while a draw was owed: the game stops here."),
    "last_slap": ("Dernière tape", "Last slap"),
    "demo.title": ("Démo : {players} joueurs simulés, {rounds} manches (graine {seed})",
                   "Demo: {players} simulated players, {rounds} rounds (seed {seed})"),
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
    "demo.flush": ("  {name} pioche {card} : chasse d'eau ! {count} carte(s) sous le tas, retour à 0 kg",
                   "  {name} draws {card}: flush! {count} card(s) under the pile, back to 0 kg"),
    "demo.seven_kept": ("  {name} pioche {card} : première carte, le 7 compte 7 kg",
                        "  {name} draws {card}: first card, the 7 counts 7 kg"),
    "demo.undo": ("  (La table annule : {what})", "  (The table undoes: {what})"),
    "demo.standings": ("  Classement : {line}", "  Standings: {line}"),
    "demo.pile": ("  Tas : {count} cartes ({bottom} remises dessous) · prochaine carte : As {ace:.0%}, "
                  "7 {seven:.0%}, {exp:.1f} kg en moyenne",
                  "  Pile: {count} cards ({bottom} returned underneath) · next card: Ace {ace:.0%}, "
                  "7 {seven:.0%}, {exp:.1f} kg on average"),
    "demo.resumed": ("Reprise de la partie {game_id} à l'événement {seq}.",
                     "Resuming game {game_id} at event {seq}."),
    "demo.journal": ("Partie {game_id} enregistrée dans {path}",
                     "Game {game_id} journaled in {path}"),
}


def t(key: str, lang: str = "fr", /, **values: object) -> str:
    fr, en = CATALOGUE[key]
    return (fr if lang == "fr" else en).format(**values)


def ms(t_us: int) -> str:
    """A gap for players: milliseconds with one decimal, or µs below a tenth of a millisecond."""
    if abs(t_us) < 100:
        return f"{t_us} µs"
    return f"{t_us / 1000:.1f} ms"
