"""Completion scripts for bash, zsh and fish, generated from the parser itself (so they name
every subcommand and option there is); the shell runs them alone, Python is never started on
TAB."""

from __future__ import annotations

import argparse
import sys
from typing import Any

SHELLS = ("bash", "zsh", "fish")


def completion(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell``, generated from the parser itself (so it names every
    subcommand and option there is); the shell runs it alone, Python is never started on TAB."""
    if shell == "fish":
        return fish(parser)
    import shtab

    return str(shtab.complete(parser, shell=shell))


def fish(parser: argparse.ArgumentParser) -> str:
    """fish's completions (shtab writes bash, zsh and tcsh only): one ``complete`` line per
    subcommand, option and choice."""
    lines = [
        "# companion: fish completion, made by `companion --completion fish`",
        "complete -c companion -f",
    ]
    commands = subcommands(parser)
    none_yet = "not __fish_seen_subcommand_from " + " ".join(commands)
    for action in parser._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                lines.append(
                    f"complete -c companion -n {_quoted(none_yet)} -l {flag[2:]} -d {_quoted(action.help)}"
                )
    for name, sub in commands.items():
        lines.append(
            f"complete -c companion -n {_quoted(none_yet)} -a {name} -d {_quoted(command_help(parser, name))}"
        )
        seen = f"__fish_seen_subcommand_from {name}"
        for action in sub._actions:
            lines += _fish_action(seen, action)
    return "\n".join(lines) + "\n"


def _quoted(text: str | None) -> str:
    return "'" + (text or "").replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_action(seen: str, action: argparse.Action) -> list[str]:
    """The lines of one of a subcommand's arguments: its own subcommands, or its flags with
    their choices (or a file), or its choices as a positional argument."""
    if isinstance(action, argparse._SubParsersAction):
        return [f"complete -c companion -n {_quoted(seen)} -a {child}" for child in action.choices]
    out = []
    choices = " ".join(str(c) for c in action.choices or ())
    for flag in action.option_strings:
        if not flag.startswith("--"):
            continue
        takes = action.nargs != 0
        arg = (f" -x -a {_quoted(choices)}" if choices else " -r") if takes else ""
        out.append(f"complete -c companion -n {_quoted(seen)} -l {flag[2:]}{arg} -d {_quoted(action.help)}")
    if not action.option_strings and choices:
        out.append(f"complete -c companion -n {_quoted(seen)} -a {_quoted(choices)}")
    elif not action.option_strings and action.dest == "file":  # replay FILE: files
        out.append(f"complete -c companion -n {_quoted(seen)} -F")
    return out


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_help(parser: argparse.ArgumentParser, name: str) -> str:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.dest == name:
                    return choice.help or ""
    return ""


class Completion(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(completion(parser, str(values)))
        parser.exit(0)
