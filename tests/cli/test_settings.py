"""``companion config``: one setting changed, every other line of the user's file kept; a refusal
changes nothing on disk. And the table's language chosen on the screen lands in ``[table] lang``
(issue 24: the install guide and the setup screen set it)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import tomllib
from pathlib import Path

import pygame
import pytest

from companion.cli import main
from companion.display.app import App
from companion.display.app_actions import Lang, Menu
from companion.display.state import Ui
from companion.hardware.config_edit import Key, edit, parse_value
from companion.table.journal import Journal
from tests.app_helpers import touch
from tests.conftest import ROOT, run_cli

os.environ["SDL_VIDEODRIVER"] = "dummy"

USER_FILE = """\
# Our table, by Dédé
[table]
lang = "fr"  # the table speaks French

[input]
source = "keyboard" # keys until the buttons come

# the keys we like
[keyboard]
confirm = "a#b"  # a hash inside a string is not a comment
cancel = "escape"

[gpio]
seats = [
  { button = 17 },
  { button = 27 },
]
"""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cli(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """The real command line, in this process (a subprocess each would cost seconds)."""
    where = ["--config", str(tmp_path / "companion.toml"), "--lang", "en"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["config", *args, *where])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(USER_FILE, encoding="utf-8")
    return path


def test_set_changes_one_line_and_keeps_every_other(tmp_path: Path, user_file: Path) -> None:
    code, out, err = cli(tmp_path, "set", "table.lang", "en")
    assert code == 0, err
    assert "table.lang" in out and str(user_file) in out
    after = user_file.read_text(encoding="utf-8").splitlines()
    before = USER_FILE.splitlines()
    changed = [(b, a) for b, a in zip(before, after, strict=True) if a != b]
    assert changed == [('lang = "fr"  # the table speaks French', 'lang = "en"  # the table speaks French')]


def test_a_missing_key_joins_its_section_and_a_missing_section_ends_the_file(
    tmp_path: Path, user_file: Path
) -> None:
    assert cli(tmp_path, "set", "keyboard.undo", "u")[0] == 0
    assert cli(tmp_path, "set", "display.rotate", "180")[0] == 0
    text = user_file.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[lines.index('cancel = "escape"') + 1] == 'undo = "u"'
    assert text.endswith("[display]\nrotate = 180\n")
    data = tomllib.loads(text)
    assert data["display"] == {"rotate": 180} and data["keyboard"]["undo"] == "u"
    assert data["gpio"]["seats"] == [{"button": 17}, {"button": 27}]  # the multi-line array kept


def test_values_are_read_as_toml_when_they_are_toml() -> None:
    assert parse_value("180") == 180 and parse_value("true") is True and parse_value("fr") == "fr"
    assert parse_value('"1"') == "1" and parse_value("/dev/ttyACM0") == "/dev/ttyACM0"


def test_get_unset_and_show(tmp_path: Path, user_file: Path) -> None:
    assert cli(tmp_path, "get", "input.source")[1] == '"keyboard"\n'
    assert cli(tmp_path, "get", "display.rotate")[1] == "0\n"  # not in the file: its default
    code, out, _ = cli(tmp_path, "unset", "input.source")
    assert code == 0 and "keyboard" in out
    assert "source" not in tomllib.loads(user_file.read_text(encoding="utf-8"))["input"]
    assert cli(tmp_path, "unset", "input.source")[0] == 0  # nothing to remove is not an error
    code, out, _ = cli(tmp_path, "show")
    assert code == 0
    shown = dict(line.split(" = ", 1) for line in out.splitlines() if not line.startswith("#"))
    assert shown["table.lang"] == '"fr"'
    assert shown["display.rotate"] == "0  # default" and shown["input.source"].endswith("# default")


def test_no_file_yet_is_made_with_the_one_setting(tmp_path: Path) -> None:
    assert cli(tmp_path, "set", "table.lang", "en")[0] == 0
    assert (tmp_path / "companion.toml").read_text(encoding="utf-8") == '[table]\nlang = "en"\n'


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("set", "table.lang", "de"), '"fr" (French) or "en" (English)'),
        (("set", "tabel.lang", "fr"), "did you mean [table]?"),
        (("set", "table.lnag", "fr"), "unknown setting table.lnag"),
        (("set", "display.rotate", "45"), "0, 90, 180 or 270"),
        (("set", "debounce.stuck_after_s", "inf"), "stuck_after_s"),
        (("set", "gpio.seats", "1"), "set seats in its [gpio] section by hand"),  # multi-line
        (("set", "lang", "fr"), "section and the key with a dot"),
        (("get", "tabel.lang"), "did you mean [table]?"),
        (("unset", "table.lnag"), "unknown setting table.lnag"),
    ],
)
def test_a_refusal_is_one_sentence_and_changes_nothing(
    tmp_path: Path, user_file: Path, args: tuple[str, ...], says: str
) -> None:
    before = digest(user_file)
    code, out, err = cli(tmp_path, *args)
    assert code == 2 and out == ""
    assert err.startswith("companion: ") and err.count("\n") == 1 and "Traceback" not in err
    assert says in err
    assert digest(user_file) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.toml"]  # no temporary left


def test_a_layout_the_line_scan_cannot_follow_is_refused_not_half_rewritten() -> None:
    inline = 'table = { lang = "fr" }\n'
    with pytest.raises(Exception, match="by hand"):
        edit(inline, Key("table", "lang"), "en")
    dotted = 'input.source = "sim"\n[table]\nlang = "fr"\n'
    assert tomllib.loads(edit(dotted, Key("table", "lang"), "en")) == {
        "input": {"source": "sim"},
        "table": {"lang": "en"},
    }


def test_every_setting_of_the_example_file_reads_back_unchanged(tmp_path: Path) -> None:
    """The example file the guide points at, comments and all: each setting set to the value it
    already has leaves the file byte for byte as it was."""
    path = tmp_path / "companion.toml"
    path.write_bytes((ROOT / "hardware" / "companion.example.toml").read_bytes())
    before = digest(path)
    code, out, _ = cli(tmp_path, "show")
    assert code == 0
    settings = [line.split(" = ", 1) for line in out.splitlines() if "# default" not in line]
    assert settings
    for name, value in settings:
        if value.startswith("[{"):
            continue  # the seats' pin map is written by `buttons --assign`
        code, out, err = cli(tmp_path, "set", name, value)
        assert code == 0 and "already" in out, (name, value, err)
    assert digest(path) == before


def test_the_language_set_here_is_the_language_every_command_speaks(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    env = {"LANG": "en_GB.UTF-8", "COMPANION_CONFIG": str(config)}  # a Pi's locale
    done = run_cli("config", "set", "table.lang", "fr", env=env)
    assert done.returncode == 0 and "écrit dans" in done.stdout  # answered in the new language
    demo = run_cli("demo", "--speed", "0", "--rounds", "1", "--seed", "3", data_dir=tmp_path / "d", env=env)
    assert demo.returncode == 0 and "Vainqueur" in demo.stdout


def switch_language(app: App) -> None:
    """The language button, in the menu of the screen's one bar."""
    touch(app, Menu())
    touch(app, Lang())


def _app(screen: pygame.Surface, journal: Journal, settings: Path | None) -> App:
    app = App(screen, journal, None, Ui(lang="fr"), settings_path=settings)
    app.step()
    return app


def test_the_language_chosen_on_the_screen_is_kept_in_the_config(
    tmp_path: Path, user_file: Path, screen: pygame.Surface, journal: Journal
) -> None:
    app = _app(screen, journal, user_file)
    assert app.last_screen == "setup"
    switch_language(app)
    assert app.ui.lang == "en"
    text = user_file.read_text(encoding="utf-8")
    assert tomllib.loads(text)["table"]["lang"] == "en"
    assert "# Our table, by Dédé" in text and "# the keys we like" in text  # the user's file kept
    switch_language(app)
    assert tomllib.loads(user_file.read_text(encoding="utf-8"))["table"]["lang"] == "fr"


def test_a_config_that_cannot_take_the_language_says_so_and_the_table_goes_on(
    tmp_path: Path, screen: pygame.Surface, journal: Journal
) -> None:
    folder = tmp_path / "a folder"
    folder.mkdir()
    app = _app(screen, journal, folder)  # not a file: cannot be written
    switch_language(app)
    assert app.ui.lang == "en"
    assert app.ui.message is not None and "not kept" in app.ui.message.en
    assert list(folder.iterdir()) == []


def test_a_table_with_no_config_file_keeps_nothing(
    tmp_path: Path, screen: pygame.Surface, journal: Journal
) -> None:
    app = _app(screen, journal, None)
    switch_language(app)
    assert app.ui.lang == "en" and app.ui.message is None


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604], ids=["0600", "0640", "0604"])
def test_a_changed_file_keeps_its_owners_permissions(tmp_path: Path, user_file: Path, mode: int) -> None:
    """Issue 38: a user who made the file private (0600: it may name the table's network) finds
    it private after ``config set`` and ``unset``: the edit is a new file renamed over the old,
    which must not take the umask's 0644."""
    user_file.chmod(mode)
    old_umask = os.umask(0o022)
    try:
        assert cli(tmp_path, "set", "table.lang", "en")[0] == 0
        assert user_file.stat().st_mode & 0o7777 == mode
        assert cli(tmp_path, "unset", "input.source")[0] == 0
        assert user_file.stat().st_mode & 0o7777 == mode
    finally:
        os.umask(old_umask)
    assert 'lang = "en"' in user_file.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["companion.toml"]  # no temporary file left


def _said(lang: str, *args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["config", *args, "--lang", lang])
    return code, err.getvalue()


def test_a_file_that_cannot_be_written_is_named_with_the_fix_in_both_languages(
    tmp_path: Path, user_file: Path
) -> None:
    """Issue 38: what the user reads when the new file cannot be written (here its temporary
    name is taken by a folder): which file, why, what to do, and that nothing changed."""
    before = digest(user_file)
    (tmp_path / f".companion.toml.{os.getpid()}.new").mkdir()
    args = ("set", "display.rotate", "180", "--config", str(user_file))
    assert _said("en", *args) == (
        2,
        f"companion: cannot write the config file {user_file} (Is a directory): pass --config with a "
        "file this user can use; nothing was changed\n",
    )
    assert _said("fr", *args) == (
        2,
        f"companion: impossible d’écrire le fichier de configuration {user_file} (c’est un dossier)\u202f: "
        "indiquez avec --config un fichier que cet utilisateur peut utiliser\u202f; rien n’a été modifié\n",
    )
    assert digest(user_file) == before
    # A file that cannot be read is said the same way.
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    code, fr = _said("fr", "get", "table.lang", "--config", str(folder))
    assert code == 2 and fr.startswith(f"companion: impossible de lire le fichier de configuration {folder} ")


def test_a_config_folder_that_cannot_be_made_is_named_with_the_fix(tmp_path: Path) -> None:
    # /proc takes no new folder, not even from root (the suite runs as root on CI).
    path = Path("/proc") / f"companion-test-{os.getpid()}" / "companion.toml"
    args = ("set", "display.rotate", "180", "--config", str(path))
    assert _said("en", *args) == (
        2,
        f"companion: Cannot create the config folder {path.parent} (No such file or directory): pass "
        "--config with a file this user can write.\n",
    )
    assert _said("fr", *args) == (
        2,
        f"companion: Impossible de créer le dossier de configuration {path.parent} (fichier ou dossier "
        "introuvable)\u202f: indiquez avec --config un fichier où cet utilisateur peut écrire.\n",
    )


# (the file before, the command, the file after): each as the user opens it in an editor.
EDITS = [
    pytest.param(
        '[table]\nlang = "fr"\n\n\n',
        ("set", "display.rotate", "180"),
        '[table]\nlang = "fr"\n\n[display]\nrotate = 180\n',
        id="a new section after one blank line, the file's trailing blank lines gone",
    ),
    pytest.param(
        "# just a comment\n",
        ("set", "display.rotate", "90"),
        "# just a comment\n\n[display]\nrotate = 90\n",
        id="a new section after a comment",
    ),
    pytest.param(
        '[ "table" ]  # where we play\nlang = "fr"\n',
        ("set", "table.lang", "en"),
        '[ "table" ]  # where we play\nlang = "en"\n',
        id="a quoted header with spaces is the section",
    ),
    pytest.param(
        "['table']\n\"lang\" = 'fr'   # ours   \n",
        ("set", "table.lang", "en"),
        "['table']\nlang = \"en\"  # ours\n",
        id="a literal-quoted header and a quoted key; the comment kept, its trailing spaces not",
    ),
    pytest.param(
        '[keyboard]\nconfirm = "a#b"  # a hash inside a string is not a comment\n',
        ("set", "keyboard.confirm", "c"),
        '[keyboard]\nconfirm = "c"  # a hash inside a string is not a comment\n',
        id="a hash inside the old value is not where its comment starts",
    ),
    pytest.param(
        '[keyboard]\nconfirm = "a"\n[gpio.referee]\nconfirm = 5\n',
        ("set", "gpio.referee.confirm", "7"),
        '[keyboard]\nconfirm = "a"\n[gpio.referee]\nconfirm = 7\n',
        id="the same key on the line right above the section's header is another section's",
    ),
    pytest.param(
        '[keyboard]\nconfirm = "a"\n\n[gpio . referee]\nconfirm = 5\n',
        ("set", "gpio.referee.confirm", "6"),
        '[keyboard]\nconfirm = "a"\n\n[gpio . referee]\nconfirm = 6\n',
        id="the same key in an earlier section is left alone; a dotted header with spaces",
    ),
    pytest.param(
        '[keyboard]\nconfirm = "a"\n  # more keys to come\n\n[table]\nlang = "fr"\n',
        ("set", "keyboard.undo", "u"),
        '[keyboard]\nconfirm = "a"\nundo = "u"\n  # more keys to come\n\n[table]\nlang = "fr"\n',
        id="a new key after the section's last key, before its comments",
    ),
    pytest.param(
        "[display]\n# nothing yet\n",
        ("set", "display.rotate", "270"),
        "[display]\nrotate = 270\n# nothing yet\n",
        id="a new key in a section of comments only: right under its header",
    ),
    pytest.param(
        "[gpio]\nchip = 0\n",
        ("set", "gpio.led_pwm", "false"),
        "[gpio]\nchip = 0\nled_pwm = false\n",
        id="false written as TOML writes it",
    ),
    pytest.param(
        "[gpio]\nchip = 0\n",
        ("set", "gpio.referee", "{ confirm = 5, cancel = 6 }"),
        "[gpio]\nchip = 0\nreferee = { confirm = 5, cancel = 6 }\n",
        id="an inline table written back inline",
    ),
    pytest.param(
        "[serial]\n",
        ("set", "serial.port", "/dev/serial/by-id/usb-Raspberry_Pi_Pico_É"),
        '[serial]\nport = "/dev/serial/by-id/usb-Raspberry_Pi_Pico_É"\n',
        id="a string kept as typed, accents unescaped",
    ),
]


@pytest.mark.parametrize(("before", "command", "after"), EDITS)
def test_the_file_after_an_edit_reads_as_the_user_wrote_it(
    tmp_path: Path, before: str, command: tuple[str, ...], after: str
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(before, encoding="utf-8")
    code, _, err = cli(tmp_path, *command)
    assert code == 0, err
    assert path.read_text(encoding="utf-8") == after


def test_a_key_missing_from_its_section_is_unset_already(tmp_path: Path, user_file: Path) -> None:
    before = digest(user_file)
    assert cli(tmp_path, "get", "keyboard.undo") == (0, '"backspace"\n', "")  # its default
    code, out, _ = cli(tmp_path, "unset", "keyboard.undo")
    assert code == 0 and "keyboard.undo" in out and digest(user_file) == before


def test_refusals_read_whole_in_french(tmp_path: Path, user_file: Path) -> None:
    where = ["--config", str(user_file)]
    assert _said("fr", "set", "lang", "en", *where) == (
        2,
        "companion: 'lang' n’est pas le nom d’un réglage\u202f: écrivez la section et la clé séparées "
        "par un point, comme table.lang ou input.source\n",
    )
    assert _said("en", "set", "lang", "en", *where) == (
        2,
        "companion: 'lang' is not a setting's name: write the section and the key with a dot, like "
        "table.lang or input.source\n",
    )
    user_file.write_text('[table]\nlang = "fr"\n[input]\nsource = """\nkeyboard"""\n', encoding="utf-8")
    assert _said("fr", "set", "input.source", "sim", *where) == (
        2,
        f"companion: {user_file} est écrit d’une façon que `companion config` ne sait pas modifier "
        "sans risque (la clé tient sur plusieurs lignes, ou sa section est écrite en ligne)\u202f; rien "
        "n’a été modifié\u202f: réglez source dans sa section [input] à la main\n",
    )


def test_the_screens_choice_makes_the_file_or_leaves_an_equal_one_unwritten(
    tmp_path: Path, screen: pygame.Surface, journal: Journal
) -> None:
    path = tmp_path / "new" / "companion.toml"
    app = _app(screen, journal, path)
    switch_language(app)
    assert app.ui.lang == "en" and app.ui.message is None
    assert path.read_text(encoding="utf-8") == '[table]\nlang = "en"\n'
    # A file that already says the language chosen is not written again (an SD card's wear;
    # a rename would also give it a new inode under the user's hard link).
    other = tmp_path / "english.toml"
    other.write_text('[table]\nlang = "en"  # ours\n', encoding="utf-8")
    inode = other.stat().st_ino
    app = _app(screen, journal, other)
    switch_language(app)
    assert app.ui.lang == "en" and other.stat().st_ino == inode
    assert other.read_text(encoding="utf-8") == '[table]\nlang = "en"  # ours\n'


def test_a_file_that_is_not_utf8_is_named_with_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(b'[table]\nlang = "fr"  # D\xe9d\xe9\n')  # Latin-1: the 25th byte is \xe9
    args = ("get", "table.lang", "--config", str(path))
    assert _said("en", *args) == (
        2,
        f"companion: The config file {path} is not UTF-8 text (byte 25); save it as UTF-8.\n",
    )
    assert _said("fr", *args) == (
        2,
        f"companion: Le fichier de configuration {path} n’est pas du texte UTF-8 (octet 25)\u202f; "
        "enregistrez-le en UTF-8.\n",
    )
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    assert _said("en", "get", "table.lang", "--config", str(folder)) == (
        2,
        f"companion: cannot read the config file {folder} (Is a directory): pass --config with a file "
        "this user can use; nothing was changed\n",
    )


@pytest.mark.parametrize(
    ("before", "command", "said"),
    [
        pytest.param(
            "[gpio]\nchip = 0\n[[gpio.seats]]\nbutton = 17\n",
            ("set", "gpio.seats.button", "5"),
            "{path} is laid out in a way `companion config` cannot change safely (the key spans "
            "several lines, or its section is written inline); nothing was changed: set button in "
            "its [gpio.seats] section by hand",
            id="a key of an array of tables",
        ),
        pytest.param(
            '[table]\nnote = """\nlang = "de"\n"""\nlang = "fr"\n',
            ("set", "table.lang", "en"),
            "{path} is laid out in a way `companion config` cannot change safely (the key spans "
            "several lines, or its section is written inline); nothing was changed: set lang in its "
            "[table] section by hand",
            id="a line that looks like the key inside a multi-line string",
        ),
        pytest.param(
            '[table]\nlang = "fr"\nsince = 2024-01-01\n',
            ("set", "table.lang", "en"),
            "{path}: unknown setting table.since; check its spelling against "
            "`companion config show --example` (every setting, commented).",
            id="a date the companion does not know",
        ),
        pytest.param(
            '[keyboard]\nundo = "u"\n',
            ("unset", "keyboard.confirm"),
            None,  # not an error: said on stdout
            id="a key its section does not hold",
        ),
        pytest.param(
            '[keyboard]\nundo = "u"\n',
            ("unset", "display.rotate"),
            None,
            id="a key of a section the file does not have",
        ),
    ],
)
def test_what_cannot_be_changed_is_said_in_one_sentence(
    tmp_path: Path, before: str, command: tuple[str, ...], said: str | None
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(before, encoding="utf-8")
    code, out, err = cli(tmp_path, *command)
    if said is None:
        assert (code, out, err) == (0, f"{command[1]} is not in {path}: nothing to remove.\n", "")
    else:
        assert (code, out, err) == (2, "", "companion: " + said.format(path=path) + "\n")
    assert path.read_text(encoding="utf-8") == before


def test_the_screen_says_which_file_could_not_take_the_language(
    tmp_path: Path, screen: pygame.Surface, journal: Journal
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[table]\nnote = """\nlang = "de"\n"""\nlang = "fr"\n', encoding="utf-8")
    app = _app(screen, journal, path)
    switch_language(app)
    assert app.ui.lang == "en" and app.ui.message is not None
    assert f"{path} is laid out in a way" in app.ui.message.en and str(path) in app.ui.message.fr
