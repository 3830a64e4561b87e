// The phones' words, French first; the table's screen says the same things in the same way.
"use strict";
const WORDS = {
  fr: { other: "English", standings: "Classement", waiting: "En attente de la table…",
    live: "À jour", lost: "Connexion perdue, nouvel essai…", round: "Manche {0} sur {1}",
    slap: "Dernière tape", gap: "+{0}", tie: "égalité (à {0} près)", finished: "Partie finie",
    seat: "Place {0}", sync: "Accord de l'horloge…", res: "Précision : ± {0}",
    pressOk: "Appui reçu (± {0})", noGame: "Pas de partie à la table",
    player: "Joueur", card: "Carte tirée (ex. 7H, KS)", send: "Enregistrer",
    out: "Qui est sorti", points: "Points de {0}", entry_draw: "Carte tirée", entry_round_end: "Fin de manche",
    mode: "Saisie", modePoints: "Points", modeLeft: "Cartes restantes", modeHands: "Mains entières",
    cardsOf: "Cartes de {0} (ex. 7H KS JK)",
    tiles: "La table", owes: "doit tirer", drawn: "Tirées : {0}",
    sheet: "Feuille de marque", roundCol: "M.", total: "Total", cardsDealt: "{0} cartes, joker : {1}",
    table: "La table", gameN: "Partie {0}, pli {1}", toPlay: "À {0} de jouer",
    passed: "passe", inHand: "{0} en main", race: "Course à {0}", stacks: "Sur la table : {0}",
    losers: "Perd : {0}", margin: "écart {0}",
    replaced: "Ce bouton est passé sur un autre téléphone ou une autre page : celui-ci ne compte plus. Rechargez pour le reprendre.",
    revoked: "Ce code n'est plus valable (nouveau code ou nouvelle partie) : scannez celui de votre place sur l'écran de la table.",
    refusedMany: "Trop de messages refusés : rechargez la page du bouton.",
    dead: "Ce code n'ouvre plus rien : scannez celui de votre place sur l'écran de la table.",
    restarting: "La table ne répond plus (elle redémarre ?) : nouvel essai…",
    ended: "Ce code était celui d'une autre partie : scannez celui de l'écran de la table.",
    pickRank: "Choisissez la valeur (la couleur est facultative)", anySuit: "couleur ?",
    chosen: "Carte : {0}", noDraw: "Personne ne doit piocher : une pioche suit un verdict.",
    pickFirst: "Choisissez d'abord la valeur de la carte." },
  en: { other: "Français", standings: "Standings", waiting: "Waiting for the table…",
    live: "Up to date", lost: "Connection lost, retrying…", round: "Round {0} of {1}",
    slap: "Last slap", gap: "+{0}", tie: "tie (within {0})", finished: "Game over",
    seat: "Seat {0}", sync: "Tuning the clock…", res: "Precision: ± {0}",
    pressOk: "Press received (± {0})", noGame: "No game at the table",
    player: "Player", card: "Card drawn (e.g. 7H, KS)", send: "Record",
    out: "Who went out", points: "{0}'s points", entry_draw: "Card drawn", entry_round_end: "End of round",
    mode: "Entry", modePoints: "Points", modeLeft: "Cards left", modeHands: "Whole hands",
    cardsOf: "{0}'s cards (e.g. 7H KS JK)",
    tiles: "The table", owes: "owes a draw", drawn: "Drawn: {0}",
    sheet: "Score sheet", roundCol: "R.", total: "Total", cardsDealt: "{0} cards, wild: {1}",
    table: "The table", gameN: "Game {0}, trick {1}", toPlay: "{0} to play",
    passed: "passed", inHand: "{0} in hand", race: "Race to {0}", stacks: "On the table: {0}",
    losers: "Loses: {0}", margin: "margin {0}",
    replaced: "This button was opened on another phone or page: this one no longer counts. Reload to take it back.",
    revoked: "This code is no longer valid (a new code or a new game): scan your seat's code on the table's screen.",
    refusedMany: "Too many refused messages: reload the button page.",
    dead: "This code opens nothing any more: scan your seat's code on the table's screen.",
    restarting: "The table does not answer (restarting?): trying again…",
    ended: "This code was another game's: scan the one on the table's screen.",
    pickRank: "Pick the rank (the suit is optional)", anySuit: "any suit",
    chosen: "Card: {0}", noDraw: "Nobody owes a draw: a draw follows a verdict.",
    pickFirst: "Pick the card's rank first." },
};
let LANG = (localStorage.getItem("lang") || (navigator.language || "fr")).startsWith("en") ? "en" : "fr";
function tr(key, ...args) {
  return fill(WORDS[LANG][key] || key, ...args);
}
// A text with its places ("{0}", "{1}") filled: the page's own words or the table's (sent in
// both languages, e.g. a game's unit).
function fill(text, ...args) {
  let s = text;
  args.forEach((a, i) => { s = s.replace("{" + i + "}", a); });
  return s;
}
function duration(us) {
  if (us === null || us === undefined) return "?";
  if (us < 1000) return us + " µs";
  const ms = us / 1000;
  return (ms < 10 ? ms.toFixed(1) : Math.round(ms)).toString().replace(".", LANG === "fr" ? "," : ".") + " ms";
}
function setupLang(redraw) {
  const b = document.getElementById("lang");
  if (!b) return;
  b.textContent = tr("other");
  b.addEventListener("click", () => {
    LANG = LANG === "fr" ? "en" : "fr";
    localStorage.setItem("lang", LANG);
    document.documentElement.lang = LANG;
    b.textContent = tr("other");
    redraw();
  });
}
