"""The whole command line in one place: every subcommand, its options and their help.

Building the parser imports no command's module: each subcommand names its function, which is
imported when it runs (``Lazy``). That keeps ``companion --help`` as fast as a bare Python start.
Help and usage errors speak the language of ``--lang`` (else of the environment, French first);
numbers are checked here, so a bad one is refused before anything is created.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from companion.cli.completion import SHELLS, Completion, command_help, subcommands
from companion.cli.options import SEP, START, Words
from companion.cli.subcommands import GROUPS, REGISTERS
from companion.i18n import french_typography as _typography

# argparse's own words (Python's gettext catalogue has no French one).
_ARGPARSE_FR = {
    "usage: ": "utilisation : ",
    "positional arguments": "arguments",
    "options": "options",
    "show this help message and exit": "affiche cette aide et quitte",
    # The program's name tags the line as in English ("companion: "), the French sentence follows.
    "%(prog)s: error: %(message)s\n": "%(prog)s: erreur : %(message)s\n",
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "choix invalide : %(value)r (choisissez parmi %(choices)s)"
    ),
    "the following arguments are required: %s": "ces arguments sont obligatoires : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "expected one argument": "il faut une valeur",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "invalid %(type)s value: %(value)r": "valeur invalide (%(type)s) : %(value)r",
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "ambiguous option: %(option)s could match %(matches)s": (
        "option ambiguë : %(option)s peut désigner %(matches)s"
    ),
}
_ARGPARSE_FR = {en: _typography(fr) for en, fr in _ARGPARSE_FR.items()}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one sentence in the chosen language."""

    _width: int | None = None  # the terminal's, measured once a process

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang

    def add_subparsers(self, **kwargs: Any) -> Any:
        # Each subcommand's parser speaks its parent's language.
        kwargs.setdefault("parser_class", functools.partial(Parser, lang=self.lang))
        return super().add_subparsers(**kwargs)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter at every add_argument (to check the metavar), and each one
        # measured the terminal (shutil.get_terminal_size): 120 of them, about 0.02 s of CPU at
        # every start (`history --help` 0.09 -> 0.07 s under load). Once, with the width
        # HelpFormatter would find (COLUMNS too).
        if Parser._width is None:
            import shutil

            Parser._width = shutil.get_terminal_size().columns - 2
        return self.formatter_class(prog=self.prog, width=Parser._width)  # type: ignore[call-arg]

    def error(self, message: str) -> NoReturn:
        if SEP in message:  # one of our checks below: "argument --x: <START>en<SEP>fr"
            prefix, _, both = message.partition(START)
            en, _, fr = both.partition(SEP)
            message = prefix + (fr if self.lang == "fr" else en)
        self.print_usage(sys.stderr)
        # "companion: demo: error: ..." as Unix tools tag their messages; the words in the
        # parser's language.
        where = self.prog.removeprefix("companion").strip()
        template = (
            _ARGPARSE_FR["%(prog)s: error: %(message)s\n"]
            if self.lang == "fr"
            else "%(prog)s: error: %(message)s\n"
        )
        self.exit(2, template % {"prog": "companion" + (": " + where if where else ""), "message": message})


DESCRIPTION = (
    "The companion of the card table: one subcommand per job; every hardware choice is a flag or config.",
    "Le companion de la table de cartes : une sous-commande par tâche ; chaque choix "
    "matériel est une option ou une entrée de configuration.",
)


class _Version(argparse.Action):
    """``--version``: read from the metadata only when asked (an import costs every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from companion import version

        print(f"companion {version()}")
        parser.exit(0)


def build_parser(
    description: str | None = None, lang: str = "en", default_lang: str = "fr", command: str | None = None
) -> argparse.ArgumentParser:
    """The parser, its help in ``lang``; argparse's own words are French too when ``lang`` is
    fr (``companion`` sets that up once, for its process). ``--lang`` left out reads as
    ``default_lang``, the language ``resolve_lang`` found. ``command``: the subcommand the
    command line names, if it names one; only its group of subcommands is built (building
    them all was a tenth of `companion play`'s way to its first frame), the same parser for it."""
    h = Words(lang, default_lang)
    parser = Parser(prog="companion", description=h(*DESCRIPTION), lang=lang)
    parser.add_argument(
        "--version",
        action=_Version,
        help=h("print the version and exit", "affiche la version et quitte"),
    )
    parser.add_argument(
        "--completion",
        action=Completion,
        choices=SHELLS,
        metavar="SHELL",
        help=h(
            "print the completion script for bash, zsh or fish (see docs/completion.md) and exit",
            "affiche le script de complétion pour bash, zsh ou fish (voir docs/completion.md) et quitte",
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=h("one of:", "au choix :"))
    only = GROUPS.get(command) if command is not None else None
    for register in REGISTERS if only is None else (only,):
        register(sub, h)
    return parser


def short_usage(parser: argparse.ArgumentParser) -> str:
    """What a bare ``companion`` prints (to stderr): the usage line and one line per command."""
    fr = isinstance(parser, Parser) and parser.lang == "fr"
    lines = [parser.format_usage().rstrip(), "", "Commandes :" if fr else "Commands:"]
    lines += [f"  {name:<9} {command_help(parser, name)}" for name in subcommands(parser)]
    lines += [
        "",
        "companion COMMANDE --help : l'aide d'une commande"
        if fr
        else "companion COMMAND --help: the help of one command",
    ]
    text = "\n".join(lines) + "\n"
    return _typography(text) if fr else text


def use_french_argparse() -> None:
    """argparse's own words (usage:, error:...) in French, for this process."""
    argparse._ = lambda text: _ARGPARSE_FR.get(text, text)  # type: ignore[attr-defined]
