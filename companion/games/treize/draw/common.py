"""What several of 13 feuilles' screens share: the play half entered, the top bar's question."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pygame

from companion.display.layout import Painter
from companion.display.names import short_name
from companion.display.state import Ui
from companion.errors import RuleError
from companion.games.treize.view import View
from companion.i18n import t

Rect = pygame.Rect

LOTS_SECONDS = 1.4
MAX_COUNT_BUTTONS = 12


@dataclass
class Entry:
    """What the table is half-way through entering (kept in ``Ui.entry``)."""

    kind: Literal["play", "take", "end"]
    player: str | None = None
    value: int | None = None
    count: int | None = None
    left: dict[str, int] = field(default_factory=dict)


def entry_of(ui: Ui) -> Entry | None:
    return ui.entry if isinstance(ui.entry, Entry) else None


def tracking(v: View, ui: Ui) -> bool:
    """Whether plays are entered in the game in play: fixed by its first pass or play, chosen
    (the series helper, on by default) until then."""
    return v.mode == "plays" or (v.mode is None and bool(ui.setup.options.get("helper", True)))


def say(ui: Ui, err: RuleError) -> None:
    ui.say(err.text)


def spoken(v: View, who: str | None) -> str:
    """A player's name inside a sentence: whole when short, else a unique short form."""
    return short_name(who, v.players) if who else "?"


def last_size(p: Painter, default: int) -> int:
    """The size of the text just drawn (a name drawn by ``Painter.name``)."""
    return p.texts[-1].size if p.texts else default


# --- headline ----------------------------------------------------------------------------------


def todo_text(v: View, ui: Ui) -> str:
    lang = ui.lang
    e = entry_of(ui)
    if v.finished:
        return t("treize.todo.over" if v.advanced else "treize.todo.over_basic", lang)
    if ui.show_result and v.history:
        return t("treize.todo.next", lang, n=v.history[-1].number)
    if v.awaiting == "starter":
        return t("treize.todo.lots", lang)
    if e is not None and e.kind == "take" and e.player:
        return t("treize.todo.take", lang, name=spoken(v, e.player))
    if not tracking(v, ui):
        return t("treize.todo.passes", lang)
    if v.turn is None:
        return t("treize.todo.passes", lang)
    if not v.stacks:
        key = "treize.todo.first" if v.mode is None else "treize.todo.lead"
        return t(key, lang, name=spoken(v, v.turn))
    return t("treize.todo.turn", lang, name=spoken(v, v.turn))
