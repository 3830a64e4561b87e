"""One bilingual text for everything the companion tells people: an error, a line on the table's
screen (``Ui.say``), a source's status.

A ``Text`` is a catalogue key and the values its templates name, rendered in one place
(``Text.render``): the plural forms, French numbers, elision and typography of ``i18n.t``, gender
agreement (``{rank&distribués|distribuées}``), and the quoting of values that came from outside,
cut so that a 50 MB name never makes a 50 MB message. A template quotes such a value with
``{name!r}`` (its ``repr``, cut) or ``{name!c}`` (the text itself, cut); a longer or shorter cut
is asked with ``Cut(value, limit)``.

A field may itself be a ``Text`` (or anything with ``render(lang)``: ``Cut``, ``OsReason``): it
is rendered in the same language, so a part of a sentence that depends on the language (why the
system refused, a noun that agrees) is said by the catalogue, not worked out where the error is
raised. ``Text.pair(en=..., fr=...)`` carries two finished sentences, by keyword (the order
cannot flip), for what the companion does not write itself (a board's own words) or a piece put
together elsewhere.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from companion.i18n import CATALOGUE, _FrNumber, _plurals, elide, french_typography, os_reason

SHOWN = 60  # characters of a hostile value an error repeats


def cut(text: str, limit: int = SHOWN, lang: str = "en") -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: a 50 MB name must not make a
    50 MB message."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} {'caractères' if lang == 'fr' else 'characters'})"


def shown(value: object, limit: int = SHOWN, lang: str = "en") -> str:
    """``repr(value)`` as an error quotes it, cut like ``cut``."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, str | bytes) else len(text)
    return f"{text[:limit]}… ({size} {'caractères' if lang == 'fr' else 'characters'})"


class Rendered(Protocol):
    """A field that is said differently in each language."""

    def render(self, lang: str) -> str: ...


class Cut:
    """A field cut to ``limit`` characters; ``quoted``: shown as its ``repr`` (``shown``)."""

    __slots__ = ("limit", "quoted", "value")

    def __init__(self, value: object, limit: int = SHOWN, *, quoted: bool = False) -> None:
        self.value, self.limit, self.quoted = value, limit, quoted

    def render(self, lang: str) -> str:
        if self.quoted:
            return shown(self.value, self.limit, lang)
        return cut(str(self.value), self.limit, lang)


class Joined:
    """Names as a sentence lists them: "Ana, Bo and Cy" / "Ana, Bo et Cy"; ``word`` "or" for
    "Ana or Bo" / "Ana ou Bo"."""

    __slots__ = ("names", "word")

    def __init__(self, names: Iterable[str], word: str = "and") -> None:
        self.names, self.word = tuple(names), word

    def render(self, lang: str) -> str:
        names = self.names
        if len(names) <= 1:
            return "".join(names)
        word = {"and": "et", "or": "ou"}[self.word] if lang == "fr" else self.word
        return ", ".join(names[:-1]) + f" {word} " + names[-1]


class OsReason:
    """Why the system refused (an ``OSError``), in the sentence's language."""

    __slots__ = ("err",)

    def __init__(self, err: OSError) -> None:
        self.err = err

    def render(self, lang: str) -> str:
        return os_reason(self.err, lang)


# Gender agreement in a template: "{rank&distribués|distribuées}" takes the feminine form when
# the field is feminine (its ``feminine_fr``: a Dame is, a Roi is not), as "{n|carte|cartes}"
# takes the plural when a number asks for it.
_AGREEMENT = re.compile(r"\{(\w+)&([^|{}]*)\|([^|{}]*)\}")


def _agreements(template: str, fields: Mapping[str, object]) -> str:
    if "&" not in template:
        return template

    def pick(match: re.Match[str]) -> str:
        return match[3] if getattr(fields[match[1]], "feminine_fr", False) else match[2]

    return _AGREEMENT.sub(pick, template)


# The two quotings of outside values: "{name!r}" (its repr, cut) and "{name!c}" (the text, cut).
# A template is rewritten once to name the quoted value as a field of its own ("{name__r}"), so
# that a sentence is made by str.format_map, at C speed: the views ask the rules about every
# card, and a refusal is made for each.
_QUOTED = re.compile(r"\{(\w+)!([rc])")


@functools.cache
def _quotings(template: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    quoted = tuple(dict.fromkeys(_QUOTED.findall(template)))
    return _QUOTED.sub(r"{\1__\2", template), quoted


def _value(value: object, lang: str) -> object:
    """A field as the sentence says it: rendered in its language, a French number with its comma."""
    if hasattr(value, "render"):
        return value.render(lang)
    if lang == "fr" and isinstance(value, float):
        return _FrNumber(value)
    return value


# Sentences already said, by key, language and values: a view asks the rules about every card
# and the same refusals come back at each event (Kilo's view while a draw is awaited: 0.68 ms a
# build when they were rendered anew, 0.46 ms before errors were texts, 0.34-0.43 ms with this).
# Values that cannot be hashed (a list, a Text) are rendered each time; the memo is bounded.
_MEMO: dict[tuple[object, ...], str] = {}
_MEMO_MAX = 4096


def _rendered(text: Text, lang: str) -> str:
    try:
        key = (text.key, lang, *sorted(text.fields.items()))
        hash(key)
    except TypeError:
        return text._render(lang)
    said = _MEMO.get(key)
    if said is None:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        said = _MEMO[key] = text._render(lang)
    return said


class Text:
    """A sentence in both languages: a catalogue key and the values its templates name.

    Immutable; equal when the key is and it says the same in both languages. ``render(lang)``
    (or ``en``/``fr``) says it; a key the catalogue does not hold is refused when the text is
    built, not when it is first shown."""

    __slots__ = ("_said", "fields", "key")

    key: str
    fields: Mapping[str, object]
    _said: dict[str, str]

    def __init__(self, key: str, /, **fields: object) -> None:
        if key and key not in CATALOGUE:
            raise KeyError(f"no catalogue entry {key!r}")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "fields", fields)
        # What it said in each language, kept: a note on the status screen is drawn every frame.
        object.__setattr__(self, "_said", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Text does not change")

    @classmethod
    def fr_en(cls, pair: tuple[str, str]) -> Text:
        """A (French, English) tuple, as the games' views and the setup form still give their
        reasons, as a text."""
        return cls.pair(en=pair[1], fr=pair[0])

    @classmethod
    def pair(cls, *, en: str, fr: str) -> Text:
        """Two finished sentences (French typography is applied to ``fr`` when it is said)."""
        text = cls("", en=en, fr=fr)
        return text

    def render(self, lang: str = "fr") -> str:
        lang = "fr" if lang == "fr" else "en"
        said: str | None = self._said.get(lang)
        if said is None:
            said = self._said[lang] = _rendered(self, lang)
        return said

    def _render(self, lang: str) -> str:
        if not self.key:
            said = str(self.fields[lang])
            return french_typography(said) if lang == "fr" else said
        fr, en = CATALOGUE[self.key]
        template = _agreements(_plurals(fr if lang == "fr" else en, lang, self.fields), self.fields)
        template, quoted = _quotings(template)
        values = {name: _value(value, lang) for name, value in self.fields.items()}
        for name, how in quoted:
            value = values[name]
            values[f"{name}__{how}"] = (
                shown(value, SHOWN, lang) if how == "r" else cut(str(value), SHOWN, lang)
            )
        said = template.format_map(values)
        return french_typography(elide(said)) if lang == "fr" else said

    @property
    def en(self) -> str:
        return self.render("en")

    @property
    def fr(self) -> str:
        return self.render("fr")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return self.key == other.key and self.fr == other.fr and self.en == other.en

    # Immutable: a copy is itself, and a pickle builds it again from its key and values (the
    # retained frames and the journal's snapshots copy what holds a text).
    def __copy__(self) -> Text:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Text:
        return self

    def __reduce__(self) -> tuple[Callable[..., Text], tuple[str, dict[str, object]]]:
        return _rebuild, (self.key, dict(self.fields))

    def __hash__(self) -> int:
        return hash((self.key, self.en))

    def __repr__(self) -> str:
        values = "".join(f", {k}={v!r}" for k, v in self.fields.items())
        return f"Text({self.key!r}{values})"


def _rebuild(key: str, fields: dict[str, object]) -> Text:
    return Text(key, **fields)
