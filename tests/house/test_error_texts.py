"""Errors carry a catalogue key and its values, rendered in one place (``companion.text``).

The package is read as source (ast): every construction of an error of the family names a key the
catalogue holds and passes exactly the values its templates name, never a sentence built where
it is raised; every template says the same values in both languages.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import companion
from companion.errors import CardError, CompanionError, ConfigError, LogError
from companion.i18n import CATALOGUE
from companion.text import Cut, Text

PACKAGE = Path(companion.__file__).resolve().parent

# Templates whose languages name different values, each for its reason: Kilo's returned cards
# (the French names the rank again, with its article and agreement; the English says "the 1
# returned there"); the board protocol's two refusals whose French, pinned by
# tests/inputs/test_protocol.py, does not repeat the size.
SHAPED_BY_LANGUAGE = {
    "kilo.card.returned.one",
    "kilo.card.returned.many",
    "protocol.frame_too_long",
    "protocol.unknown_command",
}


def _load_every_module() -> None:
    """The templates: the general ones (imported with ``companion.errors``) and each game's."""
    for strings in sorted(PACKAGE.glob("games/*/strings.py")):
        importlib.import_module(f"companion.games.{strings.parent.name}.strings")


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not rel.startswith("firmware/"):
            yield rel, ast.parse(path.read_text(encoding="utf-8"))


def error_classes(trees: list[tuple[str, ast.Module]]) -> tuple[set[str], set[str]]:
    """The names of every class of the family, found by following the bases in the source, and
    those among them built from other values than a text (``GpioLineError(pin, exc)``): their
    own ``super().__init__`` is what is read."""
    bases: dict[str, set[str]] = {}
    own: set[str] = set()
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                bases.setdefault(node.name, set()).update(names)
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        params = [a.arg for a in item.args.posonlyargs + item.args.args][1:]
                        if params[:1] != ["text"] and node.name != "LogError":
                            own.add(node.name)
    family = {"CompanionError"}
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in family and parents & family:
                family.add(name)
                grew = True
    return family, own & family


def _fields(template: str) -> set[str]:
    found = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            found.add(re.split(r"[|&.\[]", name)[0])
    return found


def _problems(
    call: ast.Call, family: set[str], own: set[str], where: str, in_family_class: bool
) -> Iterator[str]:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    is_super = (
        name == "__init__"
        and isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and getattr(func.value.func, "id", "") == "super"
    )
    if (name not in family or name in own) and not (is_super and in_family_class):
        return
    args = call.args[1:] if name == "LogError" else call.args
    if any(isinstance(a, ast.Starred) for a in args) or len(args) > 1:
        yield f"{where}: {name} is given its sentences inline, not a catalogue key"
        return
    if not args:
        return
    first = args[0]
    if isinstance(first, ast.JoinedStr | ast.BinOp):
        yield f"{where}: {name} is given a sentence built inline, not a catalogue key"
    elif isinstance(first, ast.Constant) and isinstance(first.value, str):
        key = first.value
        if key not in CATALOGUE:
            yield f"{where}: {name}({key!r}): no such key in the catalogue"
            return
        if any(k.arg is None for k in call.keywords):
            return
        given = {k.arg for k in call.keywords if k.arg is not None}
        named = _fields(CATALOGUE[key][1]) | _fields(CATALOGUE[key][0])
        if given != named:
            yield f"{where}: {name}({key!r}) is given {sorted(given)}, its templates name {sorted(named)}"


def inline_errors(trees: list[tuple[str, ast.Module]]) -> list[str]:
    family, own = error_classes(trees)
    found: list[str] = []
    for rel, tree in trees:
        inside = {
            id(node)
            for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef) and cls.name in family
            for node in ast.walk(cls)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                found.extend(_problems(node, family, own, f"{rel}:{node.lineno}", id(node) in inside))
    return sorted(set(found))


@pytest.fixture(scope="module")
def trees() -> list[tuple[str, ast.Module]]:
    _load_every_module()
    return list(_sources())


def test_every_error_is_built_from_a_catalogue_key(trees: list[tuple[str, ast.Module]]) -> None:
    problems = inline_errors(trees)
    assert not problems, "errors not built from the catalogue:\n" + "\n".join(problems)


def test_the_reader_finds_an_inline_sentence_and_a_wrong_field() -> None:
    """The reader itself, on a made-up module: each way of building a sentence inline is named."""
    source = """
class MyError(ConfigError):
    def __init__(self, pin):
        super().__init__(f"pin {pin}", f"broche {pin}")

def f(v, reason):
    raise ConfigError(f"bad {v}", f"mauvais {v}")
    raise RuleError(*reason)
    raise ConfigError("no.such.key.anywhere")
    raise ConfigError("log.at_line", line=1)
    raise ConfigError("log.at_line", line=1, what=v)
"""
    family = ast.parse("class ConfigError(CompanionError): ...\nclass RuleError(CompanionError): ...")
    problems = inline_errors([("errors.py", family), ("m.py", ast.parse(source))])
    assert {int(p.split(":")[1]) for p in problems} == {4, 7, 8, 9, 10}, problems
    assert any("no such key" in p for p in problems)
    assert any("['line']" in p and "['line', 'what']" in p for p in problems)


def test_both_templates_of_every_error_name_the_same_values() -> None:
    _load_every_module()
    from companion import error_strings

    keys = set(error_strings.ERRORS)
    for game in ("kilo", "treize", "cinq_rois"):
        keys |= set(importlib.import_module(f"companion.games.{game}.strings").ERRORS)
    differ = {k: (sorted(_fields(CATALOGUE[k][0])), sorted(_fields(CATALOGUE[k][1]))) for k in keys}
    differ = {k: v for k, v in differ.items() if v[0] != v[1] and k not in SHAPED_BY_LANGUAGE}
    assert not differ, f"templates whose French and English name different values: {differ}"


def test_one_renderer_cuts_hostile_values_and_sets_french_typography() -> None:
    name = "x" * 500
    err = CardError("cards.parse_card", text=name)
    assert len(str(err)) < 200 and "(500 characters)" in str(err)
    assert "(500 caractères)" in err.message("fr") and "\u202f:" in err.message("fr")
    assert (
        Text("log.at_line", line=2, what=Cut("y" * 90, 10)).fr == "ligne 2\u202f: yyyyyyyyyy… (90 caractères)"
    )


def test_str_is_english_message_is_the_players_language_and_exit_codes_hold() -> None:
    err = ConfigError("log.at_line", line=3, what=Text.pair(en="bad", fr="mauvais : oui"))
    assert str(err) == "line 3: bad" and err.message("en") == "line 3: bad"
    assert err.message("fr") == "ligne 3\u202f: mauvais\u202f: oui"
    assert isinstance(err, ValueError) and isinstance(err, CompanionError)
    line = LogError(4, err.text)
    assert str(line) == "line 4: line 3: bad" and line.line == 4


def test_a_key_the_catalogue_lacks_is_refused_when_the_text_is_built() -> None:
    with pytest.raises(KeyError, match="no catalogue entry"):
        Text("no.such.key")


def test_a_text_is_read_one_way() -> None:
    """A text is said by ``fr``, ``en`` or ``render(lang)``: not a (French, English) tuple to
    index or unpack, and an error or the screen is given a text or a key, never two sentences."""
    from companion.display.state import Ui

    text = Text.pair(en="No", fr="Non")
    assert (text.fr, text.en, text.render("en")) == ("Non", "No", "No")
    assert text != ("Non", "No")
    with pytest.raises(TypeError):
        _fr, _en = text  # type: ignore[misc]
    with pytest.raises(TypeError):
        text[0]  # type: ignore[index]
    with pytest.raises(KeyError, match="no catalogue entry"):
        CompanionError("the pile is empty")
    with pytest.raises(TypeError):
        CompanionError("the pile is empty", "le tas est vide")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Ui().say("Non", "No")  # type: ignore[arg-type, misc]


def _french_slips(text: str) -> list[str]:
    return re.findall(r"\S{0,12} [:;!?](?=[\s\"')…]|$)", text)


def test_the_phones_french_has_the_narrow_no_break_space() -> None:
    """The web pages' French words (static/i18n.js) and the server's French answers: a narrow
    no-break space before : ; ! ?, as everywhere else."""
    js = (PACKAGE / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
    french = js[js.index("  fr: {") : js.index("  en: {")]
    # Each French word as the phone shows it (its escapes read, "\\u202f" and "\\n" alike): a
    # mark after a plain space, a no-break space or a letter is a slip.
    words = [json.loads(f'"{word}"') for word in re.findall(r'"((?:[^"\\]|\\.)*)"', french)]
    assert len(words) > 40, "the French words of i18n.js were not found"
    assert not [word for word in words if re.search("(?<!\u202f)[:;!?]", word)]
    server = ast.parse((PACKAGE / "web" / "server.py").read_text(encoding="utf-8"))
    said = [n.value for n in ast.walk(server) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert not [s for s in said if _french_slips(s)]


@pytest.mark.parametrize(
    ("toml", "french"),
    [
        ("[debounce]\nglitch_ms = 40", "(le minimum anti-parasite dépasse le verrouillage)"),
        ("[debounce]\nstuck_after_s = 0.01", "(la limite de bouton coincé doit dépasser le verrouillage)"),
        ('[debounce]\nlockout_ms = "long"', "debounce.lockout_ms = 'long' est refusé (il faut un nombre)."),
        ("[debounce]\nlockout_ms = 5000", "debounce.lockout_ms = 5000 est refusé (il faut au plus 1000)."),
        ("[debounce]\nstuck_after_s = -1", "est refusé (il faut plus de 0)."),
        ("[web]\nport = true", "web.port = True est refusé (il faut un nombre entier)."),
    ],
)
def test_config_refusals_say_their_reason_in_french(toml: str, french: str) -> None:
    """The French refusal of a config value said pydantic's or the debounce settings' English
    reason ("Input should be..."); it says it in French now, the English is unchanged."""
    from companion.hardware.config import HardwareConfig

    with pytest.raises(ConfigError) as caught:
        HardwareConfig.from_toml(toml)
    assert french in caught.value.message("fr")
    assert "Input should" not in caught.value.message("fr") and "must" not in caught.value.message("fr")


def test_a_text_is_one_value_the_screen_the_statuses_and_the_errors_share() -> None:
    """``Ui.say`` takes the error's own text, a source's status gives one, and a text survives
    the copies and pickles the retained frames and snapshots make of what holds it."""
    import copy
    import pickle

    from companion.display.state import Ui
    from companion.inputs.base import SourceStatus

    err = ConfigError("log.at_line", line=2, what=Cut("z" * 80, 5))
    ui = Ui(lang="en")
    ui.say(err.text)
    assert ui.text(ui.message) == "line 2: zzzzz… (80 characters)"  # type: ignore[arg-type]
    ui.lang = "fr"
    assert ui.text(ui.message) == "ligne 2\u202f: zzzzz… (80 caractères)"  # type: ignore[arg-type]
    status = SourceStatus("gpio", "stuck", 0, en="Stuck: seat 1", fr="Coincé : place 1")
    assert status.text.fr == "Coincé\u202f: place 1" and status.text.en == "Stuck: seat 1"
    for again in (copy.deepcopy(err.text), pickle.loads(pickle.dumps(err.text))):
        assert again == err.text and again.fr == err.fr


def test_a_sentence_said_again_with_other_values_says_them() -> None:
    # Sentences are kept by key, language and values (text.py's memo): the same key with other
    # values, or the same values in the other language, must never read the kept sentence.
    from companion.cards import Card, CardName, RankName, parse_rank

    assert Text("registry.info", name="x", known="kilo").en == "unknown game 'x': the companion knows kilo"
    assert Text("registry.info", name="y", known="kilo").en == "unknown game 'y': the companion knows kilo"
    assert (
        Text("registry.info", name="y", known="kilo").fr == "jeu inconnu 'y'\u202f: le companion connaît kilo"
    )
    queen, king = parse_rank("Q"), parse_rank("K")
    assert RankName(queen) == RankName(queen) and hash(RankName(queen)) == hash(RankName(queen))
    assert RankName(queen) != RankName(king) and RankName(queen) != RankName(queen, plural=True)
    assert CardName(Card.parse("QH")) != CardName(Card.parse("QS"))
    said = [Text("scr.msg.undone", what=RankName(r, the=True)).fr for r in (queen, king, queen)]
    assert said[0] == said[2] != said[1]
