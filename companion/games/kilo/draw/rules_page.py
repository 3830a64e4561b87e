"""Kilo de merde's lines on the rules screen."""

from __future__ import annotations

import pygame

from companion.display.state import Ui
from companion.games.kilo.events import (
    RULE_CHOICES,
)
from companion.games.kilo.view import View
from companion.i18n import t

Rect = pygame.Rect


def rule_lines(v: View | None, ui: Ui) -> list[str]:
    lang = ui.lang
    rules = v.rules if v is not None else None
    lines = [t("scr.rules.body", lang)]
    lines.append(t("scr.rules.house", lang))
    for name, choices in RULE_CHOICES.items():
        value = getattr(rules, name) if rules is not None else ui.setup.rules[name]
        other = choices[1] if value == choices[0] else choices[0]
        lines.append(
            "• "
            + t(f"scr.rule.{name}.{value}", lang)
            + "  ("
            + t("scr.rules.other", lang, other=t(f"scr.rule.{name}.{other}.short", lang))
            + ")"
        )
    timeout = rules.slap_timeout_ms if rules is not None else ui.setup.timeout_ms
    lines.append("• " + t("scr.rule.timeout", lang, s=timeout / 1000))
    return lines
