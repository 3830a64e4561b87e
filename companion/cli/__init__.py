"""The ``companion`` command: one subcommand per job; every hardware choice is a flag or config."""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that each add subcommands with ``register(subparsers)``. Kept as names so that a
# subcommand's heavy imports (pygame, serial) happen only when it runs.
COMMAND_MODULES: list[str] = [
    "companion.cli.commands",
    "companion.cli.play",
    "companion.cli.buttons",
    "companion.cli.firmware",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours, and nothing to say.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
