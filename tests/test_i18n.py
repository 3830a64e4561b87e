"""Numbers and gaps as each language writes them, to the character a player reads (issue 38): a
decimal comma and a narrow no-break space (U+202F) between thousands and before % in French, a
point and a comma in English; the singular for 0 in French only."""

from __future__ import annotations

import pytest

from companion.i18n import count, elide, french_typography, margin_text, ms, number, t

NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("t_us", "fr", "en"),
    [
        (99, "99 µs", "99 µs"),  # below a tenth of a millisecond: microseconds
        (-99, "-99 µs", "-99 µs"),
        (100, "0,1 ms", "0.1 ms"),
        (3200, "3,2 ms", "3.2 ms"),  # a tenth under 10 ms
        (-3200, "-3,2 ms", "-3.2 ms"),
        (9949, "9,9 ms", "9.9 ms"),
        (9950, "10 ms", "10 ms"),  # whole milliseconds from 9.95 ms up
        (140_400, "140 ms", "140 ms"),
        (12_345_678, f"12{NNBSP}346 ms", "12,346 ms"),
    ],
)
def test_a_gap_in_milliseconds(t_us: int, fr: str, en: str) -> None:
    assert ms(t_us) == fr and ms(t_us, "fr") == fr
    assert ms(t_us, "en") == en


@pytest.mark.parametrize(
    ("margin_us", "res_us", "fr", "en"),
    [
        (3200, 1, "3,2 ms", "3.2 ms"),  # a 1 µs clock: exact, no ≈
        (3200, 0, "3,2 ms", "3.2 ms"),
        (31_000, 20_000, "≈ 30 ms", "≈ 30 ms"),  # to the 10 ms of a 20 ms resolution
        (34_999, 20_000, "≈ 30 ms", "≈ 30 ms"),
        (35_000, 20_000, "≈ 40 ms", "≈ 40 ms"),  # halves round up
        (1234, 15, "≈ 1,23 ms", "≈ 1.23 ms"),  # to the 10 µs, shown in ms from 1 ms
        (994, 15, "≈ 990 µs", "≈ 990 µs"),
        (995, 15, "≈ 1,00 ms", "≈ 1.00 ms"),
        (45, 15, "≈ 50 µs", "≈ 50 µs"),
        (1_234_567, 2000, "≈ 1235 ms", "≈ 1235 ms"),  # a 2 ms clock: to the ms
        (12_345, 200, "≈ 12,3 ms", "≈ 12.3 ms"),  # a 0.2 ms clock: to the tenth
    ],
)
def test_a_slap_margin_shows_only_the_precision_it_has(margin_us: int, res_us: int, fr: str, en: str) -> None:
    assert margin_text(margin_us, res_us) == fr
    assert margin_text(margin_us, res_us, "fr") == fr
    assert margin_text(margin_us, res_us, "en") == en


def test_numbers_as_each_language_writes_them() -> None:
    assert number(1111.3, ",.1f") == f"1{NNBSP}111,3"
    assert number(1111.3, ",.1f", "en") == "1,111.3"
    assert number(1_234_567, ",.0f") == f"1{NNBSP}234{NNBSP}567"
    assert number(0.137, ".1%") == f"13,7{NNBSP}%"
    assert number(0.137, ".1%", "en") == "13.7%"
    assert number(2.5) == "2,5" and number(2.5, lang="en") == "2.5"
    # A float given to a catalogue sentence is written the French way there too.
    assert t("scr.web.seat_res", "fr", seat=2, ms=1.5) == "Place 2 ± 1,5 ms"
    assert t("scr.web.seat_res", "en", seat=2, ms=1.5).endswith("1.5 ms")


@pytest.mark.parametrize(
    ("n", "fr", "en"),
    [
        (0, "0 partie", "0 games"),  # French: the singular for 0 and 1
        (1, "1 partie", "1 game"),
        (-1, "-1 partie", "-1 game"),
        (2, "2 parties", "2 games"),
        (-2, "-2 parties", "-2 games"),
        (1234, f"1{NNBSP}234 parties", "1,234 games"),
    ],
)
def test_a_count_and_its_noun(n: int, fr: str, en: str) -> None:
    assert count(n, "partie", "parties") == fr
    assert count(n, "game", "games", "en") == en


def test_french_spacing_and_elision() -> None:
    text = "Note : a ; b ! c ? « d » l'eau, 13'5"
    assert (
        french_typography(text) == f"Note{NNBSP}: a{NNBSP}; b{NNBSP}! c{NNBSP}? «{NNBSP}d{NNBSP}» l’eau, 13'5"
    )
    assert french_typography("a:b, «x»") == "a:b, «x»"  # no space, nothing to narrow
    assert elide("la pioche de Alice, que Émile, de Hugo") == "la pioche d’Alice, qu’Émile, de Hugo"
    assert elide("De Anne à Que Yves") == "D’Anne à Qu’Yves"
    assert elide("monde entier") == "monde entier"  # "de" inside a word is no "de"


def test_the_small_helpers_a_player_reads_through() -> None:
    import errno

    from companion.i18n import CATALOGUE, en_fr, os_reason, referee_name, register

    assert t("scr.web.seat_res", seat=2, ms=1.5) == "Place 2 ± 1,5 ms"  # French by default
    assert margin_text(3200) == "3,2 ms"  # a 1 µs clock by default: exact
    assert margin_text(3200, 2) == "≈ 3,200 ms"  # a 2 µs clock: to the µs, marked approximate
    assert margin_text(400, 1000) == "≈ 0 ms" and margin_text(400, 1000, "en") == "≈ 0 ms"
    assert en_fr("scr.web.seat_res", seat=3, ms=2.5) == (
        t("scr.web.seat_res", "en", seat=3, ms=2.5),
        "Place 3 ± 2,5 ms",
    )
    full = OSError(errno.ENOSPC, "No space left on device")
    assert os_reason(full) == "disque plein" and os_reason(full, "fr") == "disque plein"
    assert os_reason(full, "en") == "No space left on device"
    odd = OSError(errno.EXDEV, "Invalid cross-device link")  # not in the French list: as said
    assert os_reason(odd) == "Invalid cross-device link"
    assert os_reason(OSError("no reason given")) == "no reason given"
    assert [referee_name(r) for r in ("confirm", "cancel", "undo")] == ["valider", "annuler", "revenir"]
    assert referee_name("confirm", "fr") == "valider" and referee_name("undo", "en") == "undo"
    register({"test.i18n.note": ("Note : l'eau ; « bien »", "Note: water; “well”")})
    try:
        assert t("test.i18n.note") == f"Note{NNBSP}: l’eau{NNBSP}; «{NNBSP}bien{NNBSP}»"
        assert t("test.i18n.note", "en") == "Note: water; “well”"
    finally:
        del CATALOGUE["test.i18n.note"]
