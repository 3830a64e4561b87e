"""Les Cinq Rois' lines on the rules screen."""

from __future__ import annotations

import pygame

from companion.display.blocks import rank_label
from companion.display.state import Ui
from companion.games.cinq_rois.draw.common import tr
from companion.games.cinq_rois.view import (
    View,
)

Rect = pygame.Rect


# --- rules -------------------------------------------------------------------------------------


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    lines = [tr("rules.body", lang), tr("rules.values", lang), tr("rules.wilds", lang)]
    lines.append(tr("rules.bonus_table", lang))
    if v is not None and not v.finished and v.bonus is not None:
        lines.append(tr("rules.now", lang, cards=v.cards, bonus=rank_label(v.bonus, lang)))
    lines.append(tr("rules.out", lang))
    dealer = v.dealer if v is not None else None
    if v is not None and v.dealer_open:
        lines.append(tr("rules.dealer_lots", lang))
    elif dealer:
        lines.append(tr("rules.dealer", lang, name=dealer))
    return lines
