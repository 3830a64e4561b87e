"""Plain-text accounts of a game for terminals: the replay summary and the demo's running story."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.cards import cards_short
from companion.games.kilo.odds import pile_odds
from companion.i18n import margin_text, t

if TYPE_CHECKING:
    from companion.games.kilo.rules import JudgedSlap, KiloGame


def standings_line(game: KiloGame) -> str:
    return " · ".join(f"{p} {k} kg" for p, k in game.standings())


def pile_line(game: KiloGame, lang: str) -> str:
    if not game.pile_count:
        return "  " + t("pile.empty", lang)
    odds = pile_odds(game)
    return t(
        "demo.pile",
        lang,
        count=game.pile_count,
        bottom=game.known_bottom,
        ace=odds.ace,
        seven=odds.seven,
        exp=odds.expected_kilos,
    )


def slap_lines(game: KiloGame, slap: JudgedSlap, lang: str) -> list[str]:
    width = max(len(p) for p in game.players)
    lines = [t("demo.slap", lang, claimant=slap.claimant)]
    # Each press's gap to the press before, as the slap screen writes it (docs/screen.md): the
    # gap is what decides who is last, and the last row's is the loser's margin, so it is shown
    # to the precision the margin has (keys 12 µs apart are "≈ 0 ms", never "12 µs").
    before = slap.order[0][1] if slap.order else 0
    for pos, (name, t_us) in enumerate(slap.order, start=1):
        offset = "0 ms" if pos == 1 else "+" + margin_text(t_us - before, slap.margin_res_us, lang)
        before = t_us
        lines.append(t("demo.press", lang, pos=pos, name=name, width=width, offset=offset))
    for name in slap.non_pressers:
        key = "demo.no_press" if slap.valid else "demo.held_back"
        lines.append(t(key, lang, name=name, width=width))
    names = ", ".join(slap.losers)
    if not slap.valid:
        key = "demo.false_many" if len(slap.losers) > 1 else "demo.false"
        lines.append(t(key, lang, names=names or "—"))
    elif slap.reslap:
        lines.append(t("demo.reslap", lang))
    elif slap.non_pressers:
        lines.append(t("demo.valid_timeout", lang, names=names))
    elif slap.tied:
        lines.append(t("demo.tie", lang, names=names))
    else:
        margin = margin_text(slap.margin_us or 0, slap.margin_res_us, lang)
        lines.append(t("demo.valid", lang, names=names, margin=margin))
    return lines


def draw_line(game: KiloGame, lang: str) -> str:
    d = game.last_draw
    assert d is not None
    card = d.card.name_in(lang)
    if d.flushed:
        return t("demo.flush", lang, name=d.player, card=card, count=len(d.flushed))
    if d.card.rank is not None and d.card.rank.value == "7":
        return t("demo.seven_kept", lang, name=d.player, card=card)
    return t("demo.draw", lang, name=d.player, card=card, kilos=d.kilos, total=game.kilos(d.player))


def kilo_summary(game: KiloGame, lang: str = "fr") -> str:
    lines = [f"{t('game.kilo', lang)} — {t('round_of', lang, round=game.round, rounds=game.rounds)}"]
    awaiting = game.awaiting
    lines.append(t(f"awaiting.{awaiting}", lang, names=", ".join(game.owed_draws)))
    if game.end_reason == "pile_empty":
        lines.append(t("ended.pile_empty", lang))
    lines.append(t("standings.header", lang))
    for pos, (player, kilos) in enumerate(game.standings(), start=1):
        cards = cards_short(game.cards_of(player), lang) or t("no_cards", lang)
        lines.append(f"  {pos:>2}. {player:<24} {kilos:>4} kg   {cards}")
    if game.pile_count:
        odds = pile_odds(game)
        lines.append(t("pile", lang, count=game.pile_count, bottom=game.known_bottom))
        lines.append(t("odds", lang, ace=odds.ace, seven=odds.seven, exp=odds.expected_kilos))
    else:
        lines.append(t("pile.empty", lang))
    if game.last_slap is not None:
        lines.append(t("last_slap.header", lang))
        lines.extend(slap_lines(game, game.last_slap, lang)[1:])
    winners = game.winners()
    if winners:
        key = "winners" if len(winners) == 1 else "co_winners"
        lines.append(t(key, lang, names=", ".join(winners), kilos=game.kilos(winners[0])))
    return "\n".join(lines)
