"""Players' names shortened the way a table does it: "Anne-Sophie Castelnaudry" becomes
"Anne-Sophie C.", then "Anne-Sophie", then "A.-S. C.", never "Anne-Sophie Caste…".

Every shorter form stays unique at the table: with an Anne-Sophie Castelnaudry and an
Anne-Sophie Chénier the forms are "Anne-Sophie Ca." and "Anne-Sophie Ch.", and "Anne-Sophie"
alone is never used, since it could be either. A form is allowed only if it could be read as
one player's name and no other's (``reads_as``).

A player has two forms all evening (``name_forms``): the full name where there is room, and
one short form. A screen asks for the longer of the two that fits its box (``Painter.name``).

The short form is proposed here (unique at the table) and may be chosen at setup:
``choose`` fixes a table's chosen forms for the evening, and every screen, in both languages,
reads them through ``name_forms``. The one thing kept outside the pure functions is that
choice, set by whoever starts or resumes a game (``display.app``), and read by every screen
without being passed down through each of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.text import Text


def _initials(word: str) -> str:
    """ "Anne-Sophie" -> "A.-S.", "Émile" -> "É."."""
    return "-".join(part[:1] + "." for part in word.split("-") if part)


def _abbreviations(word: str) -> list[str]:
    """ "Castelnaudry" -> "C.", "Ca.", "Cas." ... (a prefix and a full stop), shortest first;
    for a compound word the first part is kept whole: "Lefèbvre-D" -> "L.", "Le.", ...,
    "Lefèbvre-D." is never made (a one-letter part is not abbreviated)."""
    out: list[str] = []
    for n in range(1, len(word)):
        prefix = word[:n]
        if prefix[-1] in "-' " or not prefix[-1].isalpha():
            continue
        out.append(prefix + ".")
    return out


def reads_as(form: str, name: str) -> bool:
    """Whether ``form`` can be read as ``name``: each word of the form is the name's word or
    an abbreviation of it ("Ca." of "Castelnaudry", "A.-S." of "Anne-Sophie"), in order, the
    first word of each standing for the first word of the other; middle words may be left out."""
    f_words, n_words = form.split(), name.split()
    if not f_words or not n_words or len(f_words) > len(n_words):
        return False
    if not _word_reads_as(f_words[0], n_words[0]):
        return False
    rest = n_words[1:]
    for word in f_words[1:]:
        while rest and not _word_reads_as(word, rest[0]):
            rest = rest[1:]
        if not rest:
            return False
        rest = rest[1:]
    return True


def _word_reads_as(short: str, word: str) -> bool:
    if short == word:
        return True
    s_parts, w_parts = short.split("-"), word.split("-")
    if len(s_parts) == len(w_parts) and len(s_parts) > 1:
        return all(_word_reads_as(s, w) for s, w in zip(s_parts, w_parts, strict=True))
    if len(w_parts) > 1 and short == w_parts[0]:  # "Jean" for "Jean-Baptiste"
        return True
    if short.endswith("."):
        stem = short[:-1]
        return bool(stem) and word.startswith(stem) and "." not in stem.replace("-", "")
    return False


def _candidates(name: str) -> list[str]:
    """Every way to write ``name`` shorter, longest (the name itself) first."""
    words = name.split()
    out = [name]
    if not words:
        return out
    first, last = words[0], words[-1]
    if len(words) >= 2:
        if len(words) > 2:
            out.append(f"{first} {last}")
        out += [f"{first} {abbr}" for abbr in _abbreviations(last)]
        out.append(first)
    parts = first.split("-")
    if len(parts) > 1:
        # "Jean-Baptiste" -> "Jean" when no other Jean sits at the table (a "Jean-B." would
        # tell him from a Jean nobody is), else "Jean-B."; the same for "Maximilien-A.".
        out += [parts[0], f"{parts[0]}-{_initials('-'.join(parts[1:]))}"]
    initials = _initials(first)
    if len(words) >= 2:
        out += [f"{initials} {abbr}" for abbr in _abbreviations(last)]
    if len(parts) > 1 or len(words) >= 2:
        out.append(initials)
    # "Bartholomé" -> "Barth.", "Bart.", "Bar.": a stem of three letters at least, and only for
    # a long name (an "Alic." saves nothing worth reading).
    if len(words) == 1 and len(parts) == 1 and len(first) >= 8:
        out += [a for a in reversed(_abbreviations(first)) if 4 <= len(a) <= 6]
    seen: set[str] = set()
    unique: list[str] = []
    for form in out:
        if form not in seen:
            seen.add(form)
            unique.append(form)
    return unique


@lru_cache(maxsize=64)
def _all_forms(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each player, every form that names them and no one else at this table, longest
    first (the full name first: names are unique at a table).

    Of the forms that abbreviate the last word, only the shortest unique one is kept:
    "Anne-Sophie Ca." but not "Anne-Sophie Cas.", as a table would write it.
    """
    out: dict[str, tuple[str, ...]] = {}
    for name in players:
        others = [p for p in players if p != name]
        kept: list[str] = []
        abbreviated: set[str] = set()  # the first words already given an abbreviated last
        for form in _candidates(name):
            if form != name and (not reads_as(form, name) or any(reads_as(form, other) for other in others)):
                continue
            words = form.split()
            if form != name and len(words) == 2 and words[1].endswith("."):
                if words[0] in abbreviated:
                    continue
                abbreviated.add(words[0])
            kept.append(form)
        out[name] = tuple(kept)
    return out


@lru_cache(maxsize=64)
def _forms(players: tuple[str, ...], chosen: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    picked = dict(chosen)
    for name, forms in _all_forms(players).items():
        short = picked.get(name)
        if short is None:
            if len(name) <= EVENING_CHARS:
                out[name] = (name,)
                continue
            short = next((f for f in forms if len(f) <= EVENING_CHARS), forms[-1])
        out[name] = (name,) if short == name else (name, short)
    return out


# The short forms chosen at setup, by table (the set of its players' names), only those that
# differ from the proposed ones (``choose``); and each players tuple's forms once looked up
# (a screen asks for them many times a frame: one dict lookup, as lru_cache was).
_CHOSEN: dict[frozenset[str], dict[str, str]] = {}
_SEEN: dict[tuple[str, ...], tuple[dict[str, tuple[str, ...]], tuple[tuple[str, str], ...]]] = {}


def _seen(players: tuple[str, ...]) -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, str], ...]]:
    got = _SEEN.get(players)
    if got is None:
        chosen = _CHOSEN.get(frozenset(players)) if _CHOSEN else None
        items = tuple(sorted(chosen.items())) if chosen else ()
        got = (_forms(players, items), items)
        if len(_SEEN) > 256:
            _SEEN.clear()
        _SEEN[players] = got
    return got


def name_forms(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each player, the two forms a table sees all evening: the full name, and its one
    short form: the one chosen at setup (``choose``), else, where the name is longer than
    ``EVENING_CHARS``, the longest unique form that short ("A.-S. Ca.", "Éloïse M.", "Jean").
    The same on every screen, in both languages: a name that changes form from screen to
    screen reads as another player."""
    return _seen(players)[0]


def chosen(players: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The short forms chosen at this table, as a key: a size measured on the players' forms
    and kept (``kit``) is measured again once they change."""
    return _seen(players)[1]


def proposed(players: tuple[str, ...]) -> dict[str, str]:
    """Each player's short form as this module proposes it (the name itself when it is short
    enough), whatever was chosen."""
    return {name: forms[-1] for name, forms in _forms(players, ()).items()}


def short_forms(players: tuple[str, ...]) -> dict[str, str]:
    """Each player's short form for the evening: the chosen one, else the proposed one."""
    return {name: forms[-1] for name, forms in name_forms(players).items()}


def choose(players: tuple[str, ...] | list[str], shorts: Mapping[str, str]) -> dict[str, str]:
    """Fix the table's short forms for the evening (a game started or resumed): every screen
    then reads them. A form this table refuses (``short_problem``: a name changed since, a
    journal edited by hand) is left out for the proposed one. Returns the forms in force."""
    table = tuple(players)
    key = frozenset(table)
    auto = proposed(table)
    keep: dict[str, str] = {}
    for name, short in shorts.items():
        if name not in key or short == auto[name]:
            continue
        if short_problem(name, short, {**auto, **keep}, table) is None:
            keep[name] = short
    if keep != _CHOSEN.get(key, {}):
        if keep:
            _CHOSEN[key] = keep
        else:
            _CHOSEN.pop(key, None)
        _changed()
    return {**auto, **keep}


def kept(meta: Mapping[str, object], players: tuple[str, ...] | None = None) -> dict[str, str]:
    """The short forms a game's journal meta keeps under "short" ({} for a game begun before
    they were kept, or a meta edited by hand: the proposed forms are shown then); with
    ``players``, only those that differ from the proposed ones at that table (what a setup
    form proposes again for a game with the same players)."""
    found = meta.get("short")
    if not isinstance(found, dict):
        return {}
    out = {str(k): v for k, v in found.items() if isinstance(v, str)}
    if players is None:
        return out
    auto = proposed(tuple(players))
    return {n: s for n, s in out.items() if n in auto and s != auto[n]}


def forget() -> None:
    """No short form chosen at any table (a new process, a test)."""
    if _CHOSEN:
        _CHOSEN.clear()
        _changed()


_EPOCH = [0]


def _changed() -> None:
    _SEEN.clear()
    _EPOCH[0] += 1


def epoch() -> int:
    """How many times the chosen forms changed: a drawing kept for reuse (``Painter.layer``)
    is kept under it, never shown with the forms of before."""
    return _EPOCH[0]


def short_problem(
    who: str, short: str, shorts: Mapping[str, str], players: tuple[str, ...] | list[str]
) -> Text | None:
    """Why ``short`` cannot be ``who``'s short form at this table, in French and English, with
    what would be right; None when it can. ``shorts`` are the others' short forms. Refused:
    empty, longer than ``SHORT_MOST`` characters or wider than ``SHORT_WIDTH`` (it must fit a
    player's tile at 4 mm with a full table on the 7" screen), or another player's name or
    short form (case aside: "jean" and "Jean" read alike across a table)."""
    from companion.text import Text

    table = tuple(players)
    others = [p for p in table if p != who]
    auto = proposed(table).get(who, who)
    taken = {shorts[p].casefold(): ("short", p) for p in others if p in shorts}
    taken.update({p.casefold(): ("name", p) for p in others})  # "Zoé" is Zoé's name first

    def said(key: str, **values: object) -> Text:
        # What would do, worked out only for a refusal (a form that is fine needs none).
        free = [
            f
            for f in (auto, *_all_forms(table).get(who, ())[::-1])
            if len(f) <= SHORT_MOST and width(f) <= SHORT_WIDTH
        ]
        example = next((f for f in free if f != short and f.casefold() not in taken), auto)
        return Text(key, name=who, short=short, example=example, **values)

    text = short.strip()
    if not text:
        return said("names.short.empty")
    if len(text) > SHORT_MOST:
        return said("names.short.long", n=len(text), most=SHORT_MOST)
    if width(text) > SHORT_WIDTH:
        return said("names.short.wide")
    hit = taken.get(text.casefold())
    if hit is not None:
        return said(f"names.short.taken_{hit[0]}", other=hit[1])
    return None


# The short form's length: what a Kilo tile holds at 4 mm beside far-type kilos, ten players
# on the 7" screen. A proposed form keeps to it when one that short names the player alone;
# a chosen one may take up to ``SHORT_MOST`` (a proposal may too: "A.-S. Ca."), which ten
# players' tiles still hold at 4 mm at 800x480 in every game (tests/display/test_names.py).
EVENING_CHARS = 8
SHORT_MOST = 10
# And no wider than this at 30 px type (``width``): about seven ordinary letters, fewer wide
# ones. Measured: ten forms as wide as "Guillau0" (89) keep every game's screens at 4 mm at
# 800x480, "Marie-T0" (94) does not (Les Cinq Rois' sheet, seven players); every proposed
# form of the tests' hardest tables is narrower ("A.-S. Ch." 87).
SHORT_WIDTH = 89


@lru_cache(maxsize=256)
def width(text: str) -> int:
    """``text``'s width in pixels in the screens' typeface at 30 px: SDL_ttf's own measure,
    the rendered line's width to the pixel, without drawing it (as ``typeface.measure``, but
    with no figure cells: a form's digits are letters of a name)."""
    import pygame

    from companion.display import typeface

    if not pygame.font.get_init():
        pygame.font.init()
    try:
        return int(_font(typeface.FACE, typeface.em(30)).size(text)[0])
    except pygame.error:
        # The kept Font was made before pygame's font module was quit and opened again (the
        # screen closed, as every test's screen is; seen in the whole suite): make it anew.
        _font.cache_clear()
        return int(_font(typeface.FACE, typeface.em(30)).size(text)[0])


@lru_cache(maxsize=1)
def _font(face: str, em: int) -> Any:
    import pygame

    return pygame.font.Font(face, em)


SPOKEN_CHARS = 16  # a name inside a sentence ("Pioche : Anne-Sophie Ca.") keeps to this


def short_name(who: str, players: tuple[str, ...] | list[str]) -> str:
    """The name as it reads inside a sentence: whole when short, else the longest form of at
    most ``SPOKEN_CHARS`` characters ("Anne-Sophie Ca."), unique at the table."""
    forms = name_forms(tuple(players)).get(who, (who,))
    for form in forms:
        if len(form) <= SPOKEN_CHARS:
            return form
    return forms[-1]
