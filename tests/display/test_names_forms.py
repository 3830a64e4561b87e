"""Issue 38: the short names a table proposes and the sentences that refuse a chosen one, as the
setup screen shows them, table by table (fast: no screen drawn)."""

from __future__ import annotations

import pytest

from companion.display.names import forget, proposed, reads_as, short_name, short_problem
from companion.text import Text

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
        # Two hyphenated names nothing shorter tells apart: whole (eight and ten letters).
        (
            ("Jean-Luc", "Jean-Louis", "Ana"),
            ["Jean-Luc", "Jean-Louis", "Ana"],
            ["Jean-Luc", "Jean-Louis", "Ana"],
        ),
        # A name of three parts keeps its first and the initials of the others ("L.-A.-M."
        # could be Lu-Ai-Mo, "Li" is Li).
        (("Li-Ann-Mei", "Lu-Ai-Mo", "Li"), ["Li-A.-M.", "Lu-Ai-Mo", "Li"], ["Li-Ann-Mei", "Lu-Ai-Mo", "Li"]),
        # A middle name left out: first and last, as a table says it.
        (("Ana Sofia Lee", "Bo", "Cy"), ["Ana Lee", "Bo", "Cy"], ["Ana Sofia Lee", "Bo", "Cy"]),
        # After an apostrophe the next letter is kept: "O’." would say nothing.
        (("Pat O’Neil", "Pat Olsen", "Bo"), ["Pat O’N.", "Pat Ol.", "Bo"], ["Pat O’Neil", "Pat Olsen", "Bo"]),
        # A double name cut after its hyphen's capital, and nothing shorter tells them apart.
        (
            ("Jean-Pierre Ab-Xy", "Jean-Pierre Ab-Cd", "Lu"),
            ["J.-P. Ab-X.", "J.-P. Ab-C.", "Lu"],
            ["J.-P. Ab-X.", "J.-P. Ab-C.", "Lu"],
        ),
        # In a sentence, a name of 16 characters is whole, one of 17 is shortened.
        (
            ("Marie-Anne Martin", "Marie-Anne Morel", "Bo"),
            ["M.-A. Ma.", "M.-A. Mo.", "Bo"],
            ["M.-A. Ma.", "Marie-Anne Morel", "Bo"],
        ),
        # One Anne: she is Anne, as one Jean is Jean.
        (("Anne-Sophie de la Tour", "Zoé"), ["Anne", "Zoé"], ["Anne", "Zoé"]),
    ],
)
def test_each_player_is_proposed_a_short_form_no_one_else_could_be(
    table: tuple[str, ...], short: list[str], spoken: list[str]
) -> None:
    assert proposed(table) == dict(zip(table, short, strict=True))
    assert [short_name(p, table) for p in table] == spoken


def test_a_name_from_elsewhere_is_said_whole() -> None:
    """A sentence may name someone not at this table (a name typed for a search): whole."""
    assert short_name("Zed", ("Ana", "Bo", "Cy")) == "Zed"


def test_a_form_reads_as_a_name_word_by_word() -> None:
    yes = [
        ("A.-S. C.", "Anne-Sophie Castelnaudry"),
        ("Jean", "Jean-Baptiste"),
        ("J. P.", "Jean Pierre Paul"),
        ("J. Pa.", "Jean Pierre Paul"),
        ("Ca.", "Castel"),
        ("Jean-B.", "Jean-Baptiste"),
        ("J. Pi. Pa.", "Jean Pierre Paul"),
        ("Jean Pierre Paul", "Jean Pierre Paul"),
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
        ("J.R.", "J.R.R. Tolkien"),  # an abbreviation's stem holds no full stop
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
    assert (None if said is None else (said.fr, said.en)) == (None if fr is None else (fr, en))


def said(problem: Text | None) -> tuple[str, str]:
    """A refusal as the players read it: (French, English)."""
    assert problem is not None
    return problem.fr, problem.en


def empty(who: str, example: str, fr_who: str | None = None) -> tuple[str, str]:
    """The refusal of an empty short form, with the form it proposes instead."""
    de = f"d’{who}" if fr_who is None else fr_who
    return (
        f"Le nom court {de} ne peut pas être vide{N}; par exemple «{N}{example}{N}»",
        f"{who}’s short name cannot be empty; for example “{example}”",
    )


@pytest.mark.parametrize(
    ("table", "who", "example"),
    [
        # Mohammed is eight letters but too wide for a full table's tile: the example is the
        # shortest form that names him ("Moh."), not his name.
        (("Mohammed", "Bo", "Cy"), "Mohammed", "Moh."),
        # "Margaux" is as wide as a form may be (89 px at 30 px type): it is the example.
        (("Margaux Wagner", "Bo", "Cy"), "Margaux Wagner", "Margaux"),
        # "Jo Ab-Xy" is too wide as well: its narrow forms, shortest first.
        (("Jo Ab-Xy", "Jo Ab-Cd", "Lu"), "Jo Ab-Xy", "J. Ab-X."),
        # A name typed with two spaces (old journals keep them) is shortened like any other.
        # ("Anabella" is too wide): its initials.
        (("Anabella  Lee", "Bo", "Cy"), "Anabella  Lee", "A."),
        # Nothing shorter tells the two Bartholo… apart: the name itself.
        (("Jean-Baptiste Poquelin", "Marie Curie", "Bartholomé", "Bartholomew"), "Bartholomé", "Bartholomé"),
    ],
)
def test_an_empty_short_form_is_refused_with_a_form_that_fits(
    table: tuple[str, ...], who: str, example: str
) -> None:
    fr_who = None if who[0] in "AEIOUÉ" else f"de {who}"
    assert said(short_problem(who, "", proposed(table), table)) == empty(who, example, fr_who)


def test_the_example_is_never_a_form_another_player_already_took() -> None:
    """Bo chose "moh." before Mohammed chose: "Moh." is refused, and the example is the next
    shortest of his forms. Jean Racine chose "jean-b.": Jean-Baptiste's proposed form is taken,
    so the example is the next one."""
    table = ("Mohammed", "Bo", "Cy")
    assert said(short_problem("Mohammed", "Moh.", {"Bo": "moh.", "Cy": "Cy"}, table)) == (
        f"«{N}Moh.{N}» est déjà le nom court de Bo{N}: Mohammed a besoin d’un autre, "
        f"par exemple «{N}Moha.{N}»",
        "“Moh.” is already Bo’s short name: Mohammed needs another one, for example “Moha.”",
    )
    table = ("Jean-Baptiste Poquelin", "Jean Racine", "Pierre Corneille de Rouen")
    shorts = proposed(table) | {"Jean Racine": "jean-b."}
    assert said(short_problem("Jean-Baptiste Poquelin", "", shorts, table)) == empty(
        "Jean-Baptiste Poquelin", "J.-B.", "de Jean-Baptiste Poquelin"
    )


def test_ten_characters_are_not_too_long_only_too_wide() -> None:
    """Ten characters are allowed (eleven are not): "abcdefghij" is refused for its width, the
    rule after the length."""
    problem = short_problem("Bo", "abcdefghij", proposed(TABLE), TABLE)
    assert problem is not None and problem.en.startswith("“abcdefghij” is too wide for a player’s tile")
    assert problem.fr.startswith(f"«{N}abcdefghij{N}» est trop large pour la case d’un joueur")


def test_the_short_forms_chosen_at_a_table_are_the_ones_its_screens_show() -> None:
    """``choose``: a chosen form every screen shows (``name_forms``), names not at the table
    passed over wherever they come, a form the table refuses left out, and an empty choice
    bringing the proposed forms back."""
    from companion.display.names import choose, name_forms

    forms = {
        "Anne-Sophie Castelnaudry": ("Anne-Sophie Castelnaudry", "A.-S. Ca."),
        "Anne-Sophie Chénier": ("Anne-Sophie Chénier", "A.-S. Ch."),
        "Bo": ("Bo",),
    }
    assert choose(TABLE, {"Zed": "Z", "Bo": "Bobo", "Anne-Sophie Chénier": "bobo"}) == proposed(TABLE) | {
        "Bo": "Bobo"
    }
    assert name_forms(TABLE) == forms | {"Bo": ("Bo", "Bobo")}
    assert choose(list(TABLE), {}) == proposed(TABLE)
    assert name_forms(TABLE) == forms
    assert choose(TABLE, {"Anne-Sophie Chénier": "Sophie"}) == proposed(TABLE) | {
        "Anne-Sophie Chénier": "Sophie"
    }
    assert name_forms(TABLE)["Anne-Sophie Chénier"] == ("Anne-Sophie Chénier", "Sophie")
    assert name_forms(TABLE)["Bo"] == ("Bo",)
