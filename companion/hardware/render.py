"""Every file made from hardware/pinout.toml, by path, and the command that writes or checks them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.errors import CompanionError
from companion.hardware import drawings
from companion.hardware import pinout as po
from companion.paths import ensure_dir


def _source(root: Path, rel: str) -> Path:
    """``rel`` under ``root`` if it is there (a checkout, or a folder rendered before), else the
    copy shipped in the package."""
    path = root / rel
    return path if path.is_file() else po.shipped(Path(rel).name)


def outputs(root: Path, p: po.Pinout) -> dict[str, str]:
    """Relative path -> the text it must hold. Spliced files are read from ``root``."""
    files = {
        "firmware/pinmap.py": po.render_firmware_pinmap(p),
        "hardware/pinmap.md": po.render_pi_markdown(p),
        "hardware/pico-pinmap.md": po.render_pico_markdown(p),
    }
    example = _source(root, "hardware/companion.example.toml").read_text(encoding="utf-8")
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


def default_root() -> Path:
    """The checkout the package runs from, else (an installed package) the current folder."""
    checkout = po.repo_root()
    return checkout if (checkout / "hardware" / "pinout.toml").is_file() else Path.cwd()


def _say(lang: str, fr: str, en: str) -> str:
    from companion.i18n import french_typography

    return french_typography(fr) if lang == "fr" else en


def main(argv: list[str]) -> int:
    from companion.lang import resolve_lang

    lang, _ = resolve_lang(argv)
    parser = argparse.ArgumentParser(
        prog="python -m companion.hardware", description="Files made from hardware/pinout.toml."
    )
    sub = parser.add_subparsers(dest="action", required=True)
    r = sub.add_parser("render", help="rewrite every file made from pinout.toml")
    r.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 and list the files that differ"
    )
    r.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the folder to write in (default: this checkout; from an installed "
        "package, the current folder); its hardware/pinout.toml if it has one, "
        "else the one shipped with the package",
    )
    r.add_argument("--lang", choices=["fr", "en"], default=lang)
    args = parser.parse_args(argv)
    lang = args.lang
    root: Path = args.root or default_root()
    source = _source(root, "hardware/pinout.toml")
    try:
        p = po.load_pinout(source)
    except CompanionError as err:
        print(f"companion: {err.message(lang)}", file=sys.stderr)
        return 2
    if args.check:
        bad = drifted(root, p)
        for rel in bad:
            print(
                f"{rel}: differs from hardware/pinout.toml; run `python -m companion.hardware render`",
                file=sys.stderr,
            )
        return 1 if bad else 0
    made = outputs(root, p)
    written = 0
    for rel, text in made.items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            try:
                ensure_dir(path.parent, error=CompanionError)
                path.write_text(text, encoding="utf-8")
            except CompanionError as err:
                print(f"companion: {err.message(lang)}", file=sys.stderr)
                return 1
            except OSError as err:
                print(
                    _say(
                        lang,
                        f"companion: impossible d'écrire {path} ({err.strerror}) : "
                        "choisissez avec --root un dossier où vous pouvez écrire.",
                        f"companion: cannot write {path} ({err.strerror}): choose a folder "
                        "you can write with --root.",
                    ),
                    file=sys.stderr,
                )
                return 1
            written += 1
            print(_say(lang, f"écrit {rel}", f"wrote {rel}"))
    print(
        _say(
            lang,
            f"{written} fichiers écrits dans {root} depuis {source}, {len(made) - written} déjà à jour.",
            f"{written} files written in {root} from {source}, {len(made) - written} already up to date.",
        )
    )
    return 0
