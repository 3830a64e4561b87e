"""Every file made from hardware/pinout.toml, by path, and the command that writes or checks them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.errors import CompanionError
from companion.hardware import drawings
from companion.hardware import pinout as po
from companion.paths import ensure_dir


def outputs(root: Path, p: po.Pinout) -> dict[str, str]:
    """Relative path -> the text it must hold. Spliced files are read from ``root``."""
    files = {
        "firmware/pinmap.py": po.render_firmware_pinmap(p),
        "hardware/pinmap.md": po.render_pi_markdown(p),
        "hardware/pico-pinmap.md": po.render_pico_markdown(p),
    }
    example = (root / "hardware/companion.example.toml").read_text(encoding="utf-8")
    files["hardware/companion.example.toml"] = po.splice(example, po.render_example_block(p))
    files.update(drawings.outputs(p))
    return files


def drifted(root: Path, p: po.Pinout) -> list[str]:
    """The generated files whose content differs from what pinout.toml makes."""
    out = []
    for rel, text in outputs(root, p).items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            out.append(rel)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.hardware",
                                     description="Files made from hardware/pinout.toml.")
    sub = parser.add_subparsers(dest="action", required=True)
    r = sub.add_parser("render", help="rewrite every file made from pinout.toml")
    r.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 and list the files that differ")
    r.add_argument("--root", type=Path, default=po.repo_root(), help="the repository (default: "
                   "this checkout)")
    r.add_argument("--lang", choices=["fr", "en"], default="fr")
    args = parser.parse_args(argv)
    try:
        p = po.load_pinout(args.root / "hardware" / "pinout.toml")
    except CompanionError as err:
        print(err.message(args.lang), file=sys.stderr)
        return 2
    if args.check:
        bad = drifted(args.root, p)
        for rel in bad:
            print(f"{rel}: differs from hardware/pinout.toml; run `python -m companion.hardware "
                  "render`", file=sys.stderr)
        return 1 if bad else 0
    for rel, text in outputs(args.root, p).items():
        path = args.root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            try:
                ensure_dir(path.parent, error=CompanionError)
            except CompanionError as err:
                print(err.message(args.lang), file=sys.stderr)
                return 1
            path.write_text(text, encoding="utf-8")
            print(f"wrote {rel}")
    return 0


