"""``errors.cut``: what an error echoes of a hostile value (issue 22, point 11).

A value up to the limit is echoed whole; a longer one is cut to exactly ``limit`` characters
(characters, not bytes: a name of accented letters or emoji is cut where a reader counts) and
followed by its whole length, said in the message's language.
"""

from __future__ import annotations

import pytest

from companion.errors import SHOWN, cut


@pytest.mark.parametrize("size", [0, 1, SHOWN - 1, SHOWN])
def test_up_to_the_limit_the_text_is_echoed_whole(size: int) -> None:
    text = "x" * size
    assert cut(text) == text
    assert cut(text, lang="fr") == text


@pytest.mark.parametrize(("size", "limit"), [(SHOWN + 1, SHOWN), (10_000, SHOWN), (5, 4), (121, 120), (2, 1)])
def test_a_longer_text_is_cut_to_the_limit_and_its_length_said(size: int, limit: int) -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(size))
    assert cut(text, limit) == f"{text[:limit]}… ({size} characters)"
    assert cut(text, limit, "fr") == f"{text[:limit]}… ({size} caractères)"
    assert cut(text, limit, "en") == cut(text, limit)


def test_the_default_limit_is_shown() -> None:
    text = "y" * 10_000
    assert cut(text) == "y" * SHOWN + "… (10000 characters)"
    assert len(cut(text)) == SHOWN + len("… (10000 characters)")


@pytest.mark.parametrize(
    "char",
    [
        "é",  # two bytes in UTF-8
        "€",  # three
        "😀",  # four, one code point
        "\u3164",  # an invisible Hangul filler: counted like any character
    ],
)
def test_unicode_is_cut_and_counted_in_characters(char: str) -> None:
    text = char * 100
    assert cut(text, 10) == char * 10 + "… (100 characters)"
    assert cut(text, 10, "fr") == char * 10 + "… (100 caractères)"
    # Exactly at the limit in characters, though far over it in bytes: whole.
    assert cut(char * 10, 10) == char * 10


def test_a_50_mb_value_makes_a_short_message() -> None:
    huge = "n" * 50_000_000
    assert len(cut(huge)) < 100
    assert cut(huge).endswith("(50000000 characters)")
