"""The series of 13 feuilles: what may be played below, above, on and between its ends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.games.treize.series import MAX_VALUE, MIN_VALUE, VALUES, Series, Stack
from companion.text import Text


def said(reason: Text | None) -> tuple[str, str]:
    """A reason as the players read it: (English, French)."""
    assert reason is not None
    return reason.en, reason.fr


def series(*plays: tuple[int, int]) -> Series:
    s = Series()
    for value, count in plays:
        s = s.play(value, count)
    return s


def test_empty_table_takes_any_value_and_count() -> None:
    s = Series()
    assert s.empty and s.low is None and s.high is None
    assert s.legal().values == dict.fromkeys(VALUES, 1)
    assert s.legal().allows(13, 5) and s.legal()(1, 1)
    assert s.legal().text("fr") == "n'importe quelle valeur, autant de cartes que voulu"
    assert s.legal().text("en") == "any value, as many cards as you like"


def test_one_stack_is_both_ends() -> None:
    s = series((7, 2))
    assert s.low == s.high == Stack(7, 2)
    assert s.legal().values == dict.fromkeys(VALUES, 2)
    assert said(s.why_not(3, 1)) == (
        "at least 2 cards below the 7 (2 lie on the 7)",
        "2 cartes au moins sous le 7 (il y en a 2 sur le 7)",
    )
    assert said(s.why_not(7, 1)) == ("at least 2 cards on the 7", "2 cartes au moins sur le 7")
    assert s.why_not(7, 2) is None
    assert s.play(7, 2).stacks == (Stack(7, 4),)
    assert s.legal().text("fr") == "toute valeur\u202f: 2 cartes au moins"


def test_below_above_equal_and_between() -> None:
    s = series((7, 2), (9, 3), (4, 2))  # 2x4 2x7 3x9
    assert s.values == (4, 7, 9) and s.cards == 7
    # Below the low end or on it: as many as lie on the 4.
    assert s.why_not(2, 2) is None and s.why_not(4, 2) is None
    assert said(s.why_not(2, 1))[1] == "2 cartes au moins sous le 4 (il y en a 2 sur le 4)"
    # Above the high end or on it: as many as lie on the 9.
    assert s.why_not(13, 3) is None and s.why_not(9, 3) is None
    assert said(s.why_not(9, 2)) == ("at least 3 cards on the 9", "3 cartes au moins sur le 9")
    assert said(s.why_not(11, 2)) == (
        "at least 3 cards above the 9 (3 lie on the 9)",
        "3 cartes au moins au-dessus du 9 (il y en a 3 sur le 9)",
    )
    # Nothing strictly between the ends, whatever the count, 7 (which lies there) included.
    for value in (5, 6, 7, 8):
        assert said(s.why_not(value, 5)) == ("no card between 4 and 9", "pas de carte entre 4 et 9")
        assert s.min_count(value) is None
    assert s.legal().values == {1: 2, 2: 2, 3: 2, 4: 2, 9: 3, 10: 3, 11: 3, 12: 3, 13: 3}
    assert s.legal().text("fr") == (
        "4 ou moins\u202f: 2 cartes au moins\u202f; 9 ou plus\u202f: 3 cartes au "
        "moins\u202f; pas de carte entre 4 et 9"
    )
    assert s.legal().text("en") == (
        "4 or lower: at least 2 cards; 9 or higher: at least 3 cards; nothing between 4 and 9"
    )


def test_a_play_on_an_end_is_stacked_and_asks_for_more() -> None:
    s = series((9, 3), (9, 3))
    assert s.stacks == (Stack(9, 6),)
    assert s.why_not(10, 5) is not None and s.why_not(10, 6) is None
    s = series((4, 1), (9, 1), (9, 2))
    assert s.stacks == (Stack(4, 1), Stack(9, 3))
    assert s.min_count(13) == 3 and s.min_count(1) == 1


def test_ends_next_to_each_other_and_at_the_limits() -> None:
    s = series((1, 1), (13, 2))
    assert (
        s.legal().text("en") == "on the 1: at least 1 card; on the 13: at least 2 cards; "
        "nothing between 1 and 13"
    )
    assert s.legal().values == {1: 1, 13: 2}
    adjacent = series((5, 1), (6, 1))
    assert "entre" not in adjacent.legal().text("fr")
    assert adjacent.legal().values == {v: 1 for v in VALUES}


def test_values_outside_the_deck_and_empty_plays() -> None:
    s = Series()
    assert said(s.why_not(0, 1)) == (
        "cards go from 1 to 13, there is no 0",
        "les cartes vont de 1 à 13, il n’y a pas de 0",
    )
    assert s.why_not(14, 1) is not None and s.min_count(14) is None
    assert said(s.why_not(5, 0)) == ("a play is at least one card", "on joue au moins une carte")
    with pytest.raises(RuleError, match="no card between 2 and 8"):
        series((2, 1), (8, 1)).play(5, 1)


def test_taking_a_card_from_an_end_lowers_it_or_uncovers_the_next() -> None:
    s = series((7, 2), (9, 3), (4, 2))  # 2x4 2x7 3x9
    assert s.take(9).high == Stack(9, 2)  # the end asks for fewer: it helps the others
    t = s.take(4).take(4)  # the last 4 taken: the 7 is now the low end
    assert t.low == Stack(7, 2) and t.min_count(5) == 2 and t.min_count(8) is None
    u = s.take(7).take(7)  # the middle emptied: the gap between the ends stays forbidden
    assert u.values == (4, 9) and u.min_count(7) is None
    assert Series().play(3, 1).take(3).empty


def test_taking_a_card_that_is_not_there() -> None:
    s = series((5, 2), (9, 2), (4, 2))
    assert said(s.why_not_take(6)) == (
        "there is no 6 on the table (it holds 4, 5 and 9)",
        "il n’y a pas de 6 sur la table (elle porte 4, 5 et 9)",
    )
    assert said(Series().why_not_take(3)) == (
        "there is no card on the table to take",
        "il n’y a aucune carte à prendre sur la table",
    )
    with pytest.raises(RuleError, match="no 6 on the table"):
        s.take(6)


def test_series_json_and_text() -> None:
    s = series((3, 2), (8, 2))
    assert str(s) == "2×3 2×8" and str(Series()) == "-"
    assert s.to_json() == {
        "stacks": [{"value": 3, "count": 2}, {"value": 8, "count": 2}],
        "low": {"value": 3, "count": 2},
        "high": {"value": 8, "count": 2},
    }


moves = st.lists(
    st.tuples(st.booleans(), st.integers(MIN_VALUE - 1, MAX_VALUE + 1), st.integers(0, 7)), max_size=40
)


@settings(max_examples=200, deadline=None)
@given(moves)
def test_any_sequence_keeps_the_series_sorted_and_the_rule_consistent(
    steps: list[tuple[bool, int, int]],
) -> None:
    s = Series()
    for is_take, value, count in steps:
        legal = s.legal()
        # The screen's list of values, the predicate and the reason always agree.
        least = legal.min_count(value)
        assert legal.allows(value, count) == (s.why_not(value, count) is None)
        assert legal.allows(value, count) == (least is not None and count >= max(least, 1))
        assert set(legal.values) == {v for v in VALUES if legal.allows(v, 99)}
        if is_take:
            if s.why_not_take(value) is None:
                before = s.cards
                s = s.take(value)
                assert s.cards == before - 1
            else:
                with pytest.raises(RuleError):
                    s.take(value)
        elif legal.allows(value, count):
            low, high = s.low, s.high
            s = s.play(value, count)
            assert s.count_of(value) >= count
            if low is not None and high is not None and not low.value <= value <= high.value:
                assert value in (s.low.value, s.high.value)  # type: ignore[union-attr]
        else:
            with pytest.raises(RuleError):
                s.play(value, count)
        values = s.values
        assert list(values) == sorted(set(values))
        assert all(stack.count >= 1 for stack in s.stacks)
