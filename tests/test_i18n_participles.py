"""French in the catalogue (issue 23, finding 7): a sentence about a player never makes a past
participle agree with them, since the table never said whether Zoé or Marc is meant; a neutral
turn of phrase (the present tense, "avoir") says it for everyone."""

from __future__ import annotations

import re

import companion.games.cinq_rois.game
import companion.games.kilo.game
import companion.games.treize.game  # noqa: F401
from companion.i18n import CATALOGUE, t

# "{name} s'est exposé", "{name} est sorti", "{names} sont partis": être + a participle whose
# ending depends on who the player is.
AGREES = re.compile(r"\{names?\}\s+(?:s['’]est|est|sont|s['’]étai(?:en)?t|était)\s+\w*(?:é|i|u|t)s?\b")


def test_no_participle_agrees_with_a_player() -> None:
    found = {key: fr for key, (fr, _en) in CATALOGUE.items() if AGREES.search(fr)}
    assert not found, found


def test_the_rule_catches_an_agreement() -> None:
    assert AGREES.search("Donne 3 : {name} s'est exposé")
    assert AGREES.search("{names} sont sortis")
    assert not AGREES.search("Donne 3 : {name} s'expose")


def test_going_out_reads_for_everyone() -> None:
    assert t("cinq.round.title", "fr", round=10, bonus="D", name="Zoé") == (
        "Donne 10 (atout D)\u202f: Zoé s\u2019expose"
    )
    assert t("cinq.entry.out_zero_long", "fr", name="Anne") == "Anne s\u2019expose\u202f: 0 point"


def test_suits_are_named_in_french() -> None:
    """The French keys help names the suits (pique, cœur, carreau, trèfle), not the English
    letters of the table log (S H D C), which still work as keys."""
    for key, (fr, _en) in CATALOGUE.items():
        assert not re.search(r"\bS H D C\b", fr), key
    keys = t("scr.rules.keys.cinq-rois", "fr")
    assert all(name in keys for name in ("pique", "cœur", "carreau", "trèfle"))


# An apostrophe between two letters is an elision ("d'eau", "n'a", "s'expose"): French sets it
# with the typographic one (U+2019), as the elision of a name already is ("d’Anne").
STRAIGHT = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")


def test_french_apostrophes_are_typographic() -> None:
    found = {key: fr for key, (fr, _en) in CATALOGUE.items() if STRAIGHT.search(fr)}
    assert not found, f"{len(found)} French strings with a straight apostrophe: {sorted(found)[:10]}"
    assert t("scr.flush", "fr", name="Zoé") == "Chasse d\u2019eau\u202f! Zoé repart à 0 kg"
    # English keeps its own ("didn't"): only the French side is set.
    assert any("'" in en for _fr, en in CATALOGUE.values())


def test_the_rule_catches_a_straight_apostrophe() -> None:
    assert STRAIGHT.search("chasse d'eau") and STRAIGHT.search("n'a pas tapé")
    assert not STRAIGHT.search("chasse d\u2019eau") and not STRAIGHT.search("«\u202f'1'\u202f»")


def test_the_cinq_rois_engine_says_going_out_for_everyone() -> None:
    """The sentences the Les Cinq Rois engine and entry build themselves (the round's summary,
    the refusals) keep the catalogue's rule: "Zoé s'expose", never "Zoé s'est exposé"."""
    import inspect

    import companion.games.cinq_rois.entry as entry
    import companion.games.cinq_rois.rules as rules
    from tests.games.cinq_rois.test_rules import end, game

    g = game(3)
    end(g, out="Ben", points={"Ana": 12, "Cy": 3})
    assert "Ben s\u2019expose" in g.summary("fr")
    for module in (rules, entry):
        built = re.findall(r"\{[\w.]+\} s['’]est exposé", inspect.getsource(module))
        assert not built, (module.__name__, built)
