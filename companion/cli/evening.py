"""``companion stats --html FILE``: the evening as one self-contained page, for a player who
wants to keep it (``web/evening.py`` draws it; the phones' evening tab shows the same)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.i18n import french_typography, os_reason


def write_evening(args: argparse.Namespace, games: list[Any] | int) -> int:
    """Write the page of ``games`` (every record, or the exit code of failing to read them)."""
    if isinstance(games, int):
        return games
    from companion.table.evening import evening
    from companion.web.evening import page

    lang = args.lang
    path = Path(args.html)
    try:
        path.write_text(page(evening(games), lang), encoding="utf-8")
    except OSError as err:
        print(
            french_typography(
                f"Impossible d'écrire {path} ({os_reason(err, 'fr')}) : choisissez un fichier dans "
                "un dossier où vous pouvez écrire."
            )
            if lang == "fr"
            else f"Cannot write {path} ({os_reason(err, 'en')}): choose a file in a folder you can write to.",
            file=sys.stderr,
        )
        return 1
    print(french_typography(f"Soirée écrite dans {path}.") if lang == "fr" else f"Evening written to {path}.")
    return 0
