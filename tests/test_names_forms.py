"""Issue 38: the short names a table proposes and the sentences that refuse a chosen one, as the
setup screen shows them, table by table (fast: no screen drawn)."""

from __future__ import annotations

import pytest

from companion.display.names import forget, proposed, reads_as, short_name, short_problem

N = "\u202f"


@pytest.fixture(autouse=True)
def _no_choice() -> None:
    forget()


@pytest.mark.parametrize(
    ("table", "short", "spoken"),
    [
        (
            ("Anne-Sophie Castelnaudry", "Anne-Sophie Chénier", "Bo"),
            ["A.-S. Ca.", "A.-S. Ch.", "Bo"],
            ["A.-S. Ca.", "A.-S. Ch.", "Bo"],
        ),
        (
            ("Jean-Baptiste Poquelin", "Jean Racine", "Pierre Corneille de Rouen"),
            ["Jean-B.", "Jean R.", "Pierre"],
            ["Jean-B.", "Jean Racine", "Pierre"],
        ),
        (
            # One Jean at the table: Jean-Baptiste is Jean. Two Bartholo… whom no short form
            # tells apart keep their names.
            ("Jean-Baptiste Poquelin", "Marie Curie", "Bartholomé", "Bartholomew"),
            ["Jean", "Marie C.", "Bartholomé", "Bartholomew"],
            ["Jean", "Marie Curie", "Bartholomé", "Bartholomew"],
        ),
        (
            ("Maximilien-Alexandre", "Maximilien Robespierre", "Éloïse Martin-Dupont"),
            ["M.-A.", "M. R.", "Éloïse"],
            ["M.-A.", "M. R.", "Éloïse"],
        ),
        (
            ("Christophe Colomb", "Christophe Colomb-Dupuis"),
            ["Christophe Colomb", "C. Colomb-D."],
            ["Christophe Colomb", "C. Colomb-D."],
        ),
        (("Bartholomé", "Ana"), ["Barth.", "Ana"], ["Bartholomé", "Ana"]),
        # One Anne: she is Anne, as one Jean is Jean.
        (("Anne-Sophie de la Tour", "Zoé"), ["Anne", "Zoé"], ["Anne", "Zoé"]),
    ],
)
def test_each_player_is_proposed_a_short_form_no_one_else_could_be(
    table: tuple[str, ...], short: list[str], spoken: list[str]
) -> None:
    assert proposed(table) == dict(zip(table, short, strict=True))
    assert [short_name(p, table) for p in table] == spoken


def test_a_form_reads_as_a_name_word_by_word() -> None:
    yes = [
        ("A.-S. C.", "Anne-Sophie Castelnaudry"),
        ("Jean", "Jean-Baptiste"),
        ("J. P.", "Jean Pierre Paul"),
        ("J. Pa.", "Jean Pierre Paul"),
        ("Ca.", "Castel"),
        ("Jean-B.", "Jean-Baptiste"),
    ]
    no = [
        ("Jean Paul Pierre", "Jean Pierre Paul"),
        ("", "Jean"),
        ("Jean", ""),
        (".", "Castel"),
        ("C.a.", "Castel"),
        ("J.-B.-C.", "Jean-Baptiste"),
        ("Jean Pierre Paul Marie", "Jean Pierre Paul"),
        ("Pierre", "Jean Pierre"),
        ("Ba.", "Jean-Baptiste"),
    ]
    assert [reads_as(f, n) for f, n in yes] == [True] * len(yes)
    assert [reads_as(f, n) for f, n in no] == [False] * len(no)


TABLE = ("Anne-Sophie Castelnaudry", "Anne-Sophie Chénier", "Bo")


@pytest.mark.parametrize(
    ("who", "short", "fr", "en"),
    [
        (
            "Bo",
            " ",
            f"Le nom court de Bo ne peut pas être vide{N}; par exemple «{N}Bo{N}»",
            "Bo’s short name cannot be empty; for example “Bo”",
        ),
        (
            "Bo",
            "Anne-Sophie Cas",
            f"«{N}Anne-Sophie Cas{N}» a 15 caractères, un nom court en a 10 au plus pour tenir sur la case "
            f"d’un joueur à dix joueurs sur l’écran 7 pouces (800x480){N}; par exemple «{N}Bo{N}»",
            "“Anne-Sophie Cas” has 15 characters; a short name has at most 10, to fit a player’s tile with "
            "ten players on the 7-inch screen (800x480); for example “Bo”",
        ),
        (
            "Bo",
            "WWWWWWWWW",
            f"«{N}WWWWWWWWW{N}» est trop large pour la case d’un joueur à table pleine sur l’écran 7 pouces "
            f"(800x480){N}: environ sept lettres, moins de larges (M, W){N}; par exemple «{N}Bo{N}»",
            "“WWWWWWWWW” is too wide for a player’s tile at a full table on the 7-inch screen (800x480): "
            "about seven letters, fewer wide ones (M, W); for example “Bo”",
        ),
        (
            "Bo",
            "a.-s. ch.",
            f"«{N}a.-s. ch.{N}» est déjà le nom court d’Anne-Sophie Chénier{N}: Bo a besoin d’un autre, "
            f"par exemple «{N}Bo{N}»",
            "“a.-s. ch.” is already Anne-Sophie Chénier’s short name: Bo needs another one, for example “Bo”",
        ),
        ("Bo", "B", None, None),
        ("Bo", "Bo", None, None),
    ],
)
def test_a_chosen_short_form_is_refused_with_what_would_do(
    who: str, short: str, fr: str | None, en: str | None
) -> None:
    said = short_problem(who, short, proposed(TABLE), TABLE)
    assert said == (None if fr is None else (fr, en))
