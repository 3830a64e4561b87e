"""The ``companion`` command: one subcommand per job; every hardware choice is a flag or config.

Exit codes (the README's table, held by tests/cli/test_cli_exit_codes.py): 0 done; 1 the command was
right but could not be done; 2 bad usage or bad input; 130 Ctrl-C; a SIGTERM ends the process
by that signal (143 in a shell) once the command has stopped at an event boundary.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any, TextIO, cast

DONE, FAILED, USAGE, INTERRUPTED = 0, 1, 2, 130
PREFIX = "companion: "


def build_parser(
    lang: str = "en", default_lang: str = "fr", command: str | None = None
) -> argparse.ArgumentParser:
    from companion.cli.parser import build_parser as build

    return build(lang=lang, default_lang=default_lang, command=command)


class _Prefixed:
    """stderr while a command runs: each line starts with ``companion:``, as Unix tools tag
    what they say, so a message in a log or a pipeline says where it came from. Everything else
    (fileno, isatty, flush...) is the real stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._at_start = True

    def write(self, text: str) -> int:
        if not text:
            return 0
        lines = text.split("\n")
        out = []
        for i, line in enumerate(lines):
            # "#frame 3 ...", "#committed ...": trace lines that benches and tests read, as the
            # table log's comments start with "#" too; they stay as they are.
            starts = self._at_start if i == 0 else True
            out.append(PREFIX + line if starts and line and not line.startswith("#") else line)
        self._at_start = text.endswith("\n")
        self._stream.write("\n".join(out))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Terminated:
    """A SIGTERM (systemd stopping the kiosk, `kill`): stop the way Ctrl-C stops (the commands
    already stop at an event boundary on KeyboardInterrupt), then die by the same signal."""

    received = False

    @classmethod
    def handler(cls, signum: int, frame: object) -> None:
        cls.received = True
        raise KeyboardInterrupt


def interrupted(lang: str) -> int:
    """Ctrl-C (or a stop) during a game, on the screen or in a demo: the journal holds it up to
    its last event, so say how to go on; exit 130 (the README's exit table)."""
    from companion.i18n import t

    print("\n" + t("cli.interrupted", lang), file=sys.stderr, flush=True)
    return INTERRUPTED


def raise_if_terminated() -> None:
    """Raise again the KeyboardInterrupt of a SIGTERM that library code swallowed: pygame's
    set_mode loaded its window icon through Python code and cleared whatever that raised (until
    the table set its own icon), so a SIGTERM landing while the screen opened was lost, and the
    kiosk ran on until SIGKILL; any library may do the same."""
    if _Terminated.received:
        raise KeyboardInterrupt


_PLUGIN_LOADER = "pydantic.plugin._loader"


def _plugin_loader_on_demand() -> None:
    """With every plugin off, pydantic's plugin loader only answers "none", yet importing it
    imports importlib.metadata (and email, csv, zipfile with it: about 20 ms on the way to the
    first frame). In its place until then: a module whose ``get_plugins`` says "none" while the
    environment turns them all off, and that brings in the real loader for anything else."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") != "__all__" or _PLUGIN_LOADER in sys.modules:
        return
    import types

    def real() -> types.ModuleType:
        import importlib

        if sys.modules.get(_PLUGIN_LOADER) is stand_in:
            del sys.modules[_PLUGIN_LOADER]
        return importlib.import_module(_PLUGIN_LOADER)

    def get_plugins() -> Any:
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in ("__all__", "1", "true"):
            return ()
        return real().get_plugins()

    def __getattr__(name: str) -> Any:  # a module's own: what the stand-in lacks
        if name.startswith("__"):  # the import system asking about a module (__path__...)
            raise AttributeError(name)
        return getattr(real(), name)

    stand_in = types.ModuleType(_PLUGIN_LOADER)
    stand_in.get_plugins = get_plugins  # type: ignore[attr-defined]
    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules[_PLUGIN_LOADER] = stand_in


def main(argv: list[str] | None = None) -> int:
    # No pydantic plugin serves the companion, and looking for them reads the metadata of every
    # installed distribution before the first model is built (on the way to the table's first
    # frame); an environment that names plugins keeps its choice.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _plugin_loader_on_demand()
    # Whatever text reaches the terminal (a name from a hostile log, say), print it, never die.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    from companion.cli.parser import short_usage, use_french_argparse
    from companion.lang import resolve_lang

    lang, _ = resolve_lang(argv)
    if lang == "fr":
        use_french_argparse()
    # The subcommand named first (options before it are the top level's): only its group.
    named = next((a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")), None)
    parser = build_parser(lang, default_lang=lang, command=named)
    try:
        _refuse_unknown_options(parser, sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, a usage error: main() returns every code
        return done.code if isinstance(done.code, int) else USAGE
    if not getattr(args, "func", None):
        sys.stderr.write(short_usage(parser))
        return USAGE
    real_stderr = sys.stderr
    sys.stderr = cast(TextIO, _Prefixed(real_stderr))
    try:
        previous = signal.signal(signal.SIGTERM, _Terminated.handler)
    except ValueError:  # not the main thread (a test calling main() from a worker): no handler
        previous = None
    try:
        code = _run(args)
    finally:
        sys.stderr.flush()
        sys.stderr = real_stderr
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if _Terminated.received:
        _Terminated.received = False
        sys.stdout.flush()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
    return code


def _refuse_unknown_options(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """An option the command does not have, named as such. argparse sets it aside and takes the
    value after it for the command's next positional: `demo --config x` said "invalid choice
    'x'" for the game, about a value the user never meant as a game."""
    import re

    words = list(argv)
    here = parser
    while True:  # down to the (sub)command the words name: `config show`, `firmware install`
        subs = [a for a in here._actions if isinstance(a, argparse._SubParsersAction)]
        found = next(
            ((i, subs[0].choices[w]) for i, w in enumerate(words) if subs and w in subs[0].choices), None
        )
        if found is None:
            break
        words, here = words[found[0] + 1 :], found[1]
    if here is parser:
        return
    known = here._option_string_actions
    for word in words:
        if word == "--":
            return
        if not word.startswith("-") or word == "-" or re.fullmatch(r"-\d[\d.]*", word):
            continue
        name = word.split("=", 1)[0]
        if name in known or (name.startswith("--") and any(k.startswith(name) for k in known)):
            continue
        options = ", ".join(sorted(k for k in known if k.startswith("--") and k != "--help"))
        fr = getattr(here, "lang", "en") == "fr"
        here.error(
            f"{here.prog.removeprefix('companion ')} n'a pas d'option {name} (ses options : {options})"
            if fr
            else f"{here.prog.removeprefix('companion ')} has no option {name} (its options: {options})"
        )


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        # Ctrl-C: the commands that write stop at an event boundary (the journal is append-first).
        from companion.i18n import t

        print(t("cli.stopped", getattr(args, "lang", "fr")), file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours, and nothing to say.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return DONE


if __name__ == "__main__":
    sys.exit(main())
