"""13 feuilles' lines on the rules screen."""

from __future__ import annotations

import pygame

from companion.display.state import Ui
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

# --- rules -------------------------------------------------------------------------------------


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    variant = v.variant if v is not None else ui.setup.options.get("variant", "advanced")
    lines = [t("treize.rules.body", lang), t("treize.rules.legend", lang)]
    if variant == "advanced":
        lines += [t("treize.rules.advanced", lang), t("treize.rules.ties", lang)]
    else:
        lines.append(t("treize.rules.basic", lang))
    return lines
