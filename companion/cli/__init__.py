"""The ``companion`` command: one subcommand per job; every hardware choice is a flag or config."""

from __future__ import annotations

import argparse
import sys


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    from companion.cli.parser import build_parser as build

    return build(lang=lang)


def main(argv: list[str] | None = None) -> int:
    # Whatever text reaches the terminal (a name from a hostile log, say), print it, never die.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    from companion.cli.parser import help_lang, use_french_argparse

    lang = help_lang(argv)
    if lang == "fr":
        use_french_argparse()
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        # Ctrl-C: the commands that write stop at an event boundary (the journal is append-first).
        from companion.i18n import t

        print(t("cli.stopped", getattr(args, "lang", "fr")), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours, and nothing to say.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
