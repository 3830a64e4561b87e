"""``companion history``, ``companion stats [PLAYER]`` and ``companion export --csv``: the
journal's games, the players' numbers and the score sheets, from the journal as it is."""

from __future__ import annotations

import argparse
import csv
import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, exit_code, shown
from companion.i18n import count, french_typography, number
from companion.table import FORMULA_STARTS


def _data_dir(args: argparse.Namespace) -> Path:
    from companion.table.journal import default_data_dir

    return Path(args.data_dir) if args.data_dir else default_data_dir()


def _fr(lang: str, fr: str, en: str) -> str:
    return french_typography(fr) if lang == "fr" else en


def _listing(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The command with the collector's passes made rare (``stats.rare_collections``): its
    records stay alive until it has printed them."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        from companion.table.stats import rare_collections

        with rare_collections():
            return command(args)

    return run


def _records(args: argparse.Namespace, *, slaps: bool = True, sheets: bool = False) -> list[Any] | int:
    """Every game's record, or the exit code after saying why there are none to read."""
    from companion.table.journal import Journal
    from companion.table.stats import records

    try:
        folder = _data_dir(args)
        with Journal(folder, writer=False) as journal:
            infos = journal.games(counted=False)
            kept = (
                infos
                if getattr(args, "demos", False)
                else [g for g in infos if g.meta.get("demo") is not True]
            )
            found = records(
                journal,
                cache_dir=folder,
                infos=kept,
                slaps=slaps,
                sheets=sheets,
                whole=len(kept) == len(infos),
            )
            args.demos_left_out = len(infos) - len(kept)
    except CompanionError as err:
        if "there is no journal" in err.en:
            print(
                _fr(
                    args.lang,
                    "Aucune partie enregistrée pour l'instant : `companion demo` en joue une.",
                    "No game stored yet: `companion demo` plays one.",
                )
            )
            return []
        print(err.message(args.lang), file=sys.stderr)
        return exit_code(err)
    game = getattr(args, "game", None)
    return [r for r in found if game is None or r.game == game]


def _demos_note(args: argparse.Namespace) -> None:
    """Say that demos were left out, and how to count them: an empty list must not look like a
    journal with nothing in it."""
    left = getattr(args, "demos_left_out", 0)
    if left and not args.json:
        print(
            _fr(
                args.lang,
                f"{count(left, 'démo laissée', 'démos laissées', 'fr')} de côté : --demos les compte.",
                f"{count(left, 'demo', 'demos', 'en')} left out: --demos counts them.",
            )
        )


def _when(ns: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ns / 1e9))


@_listing
def cmd_history(args: argparse.Namespace) -> int:
    from companion.games import GAME_NAMES

    lang = args.lang
    games = _records(args, slaps=False)
    if isinstance(games, int):
        return games
    if args.json:
        print(json.dumps({"games": [g.to_json() for g in games]}, ensure_ascii=False))
        return 0
    for g in games:
        title = GAME_NAMES.get(g.game, g.game)
        if g.error is not None:
            outcome = _fr(lang, f"illisible ({g.error})", f"unreadable ({g.error})")
        elif not g.finished:
            outcome = _fr(lang, "en cours", "in progress")
        else:
            outcome = _winners(g, lang)
        print(f"{_when(g.created_ns)}  {g.id}  {title:<14} {', '.join(g.players)}  →  {outcome}")
    if games:
        finished = sum(1 for g in games if g.finished)
        print(
            _fr(
                lang,
                f"{count(len(games), 'partie', 'parties')}, {count(finished, 'terminée', 'terminées')}.",
                f"{count(len(games), 'game', 'games', 'en')}, {number(finished, ',.0f', 'en')} finished.",
            )
        )
    _demos_note(args)
    return 0


def _score(value: int, unit: str, lang: str) -> str:
    """A score as the screens write it: "12 kg" for kilos, "1 point", "3 points"."""
    if unit == "kilos":
        return number(value, ",.0f", lang) + " kg"
    return count(value, "point", "points", lang)


def _winners(g: Any, lang: str) -> str:
    """The winner and their score, or the joint winners once with the score they share."""
    score = dict(g.scores)
    if len(g.winners) == 1:
        (w,) = g.winners
        points = _score(score.get(w, 0), g.unit, lang)
        return _fr(lang, f"gagnant : {w} ({points})", f"winner: {w} ({points})")
    names = ", ".join(g.winners)
    points = _score(score.get(g.winners[0], 0), g.unit, lang) if g.winners else ""
    return _fr(lang, f"gagnants ex aequo : {names} ({points})", f"joint winners: {names} ({points})")


def _player_lines(s: Any, lang: str) -> list[str]:
    from companion.games import GAME_NAMES

    def games_wins(played: int, won: int) -> str:
        if lang == "fr":
            return f"{count(played, 'partie', 'parties')}, {count(won, 'victoire', 'victoires')}"
        return f"{count(played, 'game', 'games', 'en')}, {count(won, 'win', 'wins', 'en')}"

    lines = [
        _fr(lang, f"{s.player} : {games_wins(s.games, s.wins)}", f"{s.player}: {games_wins(s.games, s.wins)}")
    ]
    for game, (played, won) in s.by_game.items():
        title = GAME_NAMES.get(game, game)
        lines.append(
            _fr(lang, f"  {title} : {games_wins(played, won)}", f"  {title}: {games_wins(played, won)}")
        )
    for part in s.parts.values():  # each game's own numbers (Kilo de merde's slaps)
        lines += part.lines(lang)
    return lines


@_listing
def cmd_stats(args: argparse.Namespace) -> int:
    from companion.table.stats import player_stats

    lang = args.lang
    if getattr(args, "html", None):
        from companion.cli.evening import write_evening

        return write_evening(args, _records(args, sheets=True))
    games = _records(args)
    if isinstance(games, int):
        return games
    stats = player_stats(games)
    if args.player is not None:
        one = _one_player(args.player, stats, lang)
        if one is None:
            return 2
        stats = one
    if args.json:
        print(json.dumps({"players": [s.to_json() for s in stats.values()]}, ensure_ascii=False))
        return 0
    if not stats:
        if games:
            print(_fr(lang, "Aucune partie terminée pour l'instant.", "No finished game yet."))
        _demos_note(args)
        return 0
    ranked = sorted(stats.values(), key=lambda s: (-s.wins, s.games, s.player))
    if args.player is None:
        _stats_table(ranked, lang)
        _demos_note(args)
        return 0
    for s in ranked:
        print("\n".join(_player_lines(s, lang)))
    _demos_note(args)
    return 0


def _one_player(player: str, stats: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """``stats`` of the one player ``player`` names, or None when it names none or several
    (said on stderr)."""
    found = find_player(player, list(stats))
    if len(found) != 1:
        asked = shown(player, lang=lang)
        if found:  # "ALICE" at a table of Alice and alice: which one is meant?
            both = ", ".join(found)
            print(
                _fr(
                    lang,
                    f"{asked} peut être {both} : écrivez le nom comme il a été saisi.",
                    f"{asked} may be {both}: write the name as it was entered.",
                ),
                file=sys.stderr,
            )
            return None
        names = list(stats)
        known = ", ".join(names[:20]) + (" …" if len(names) > 20 else "") or _fr(lang, "aucun", "none")
        print(
            _fr(
                lang,
                f"Aucune partie terminée pour {asked} (joueurs : {known}) ; vérifiez l'orthographe.",
                f"No finished game for {asked} (players: {known}); check the spelling.",
            ),
            file=sys.stderr,
        )
        return None
    return {found[0]: stats[found[0]]}


def _stats_table(ranked: list[Any], lang: str) -> None:
    """Every player on a line: games, wins, and each game's own columns (``GameStats.columns``)."""
    from companion.table.registry import stats

    heads = [
        (_fr(lang, "joueur", "player"), 14),
        (_fr(lang, "parties", "games"), 8),
        (_fr(lang, "victoires", "wins"), 10),
    ]
    # Every player has the same games' parts (table/stats.py's ``new_player``).
    for game in ranked[0].parts:
        heads += stats(game).columns(lang)
    widths = [w for _, w in heads]

    def line(cells: list[str]) -> str:
        first = f"{cells[0][: widths[0] - 1]:<{widths[0]}}"
        return first + "".join(f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True))

    print(line([h for h, _ in heads]))
    for s in ranked:
        own = [c for part in s.parts.values() for c in part.cells(lang)]
        print(line([s.player, str(s.games), str(s.wins), *own]))


def find_player(asked: str, names: list[str]) -> list[str]:
    """The stored names ``asked`` means: typed as stored (names are kept NFC, so "é" typed
    either way is one), else the ones equal but for case, all of them when several are."""
    import unicodedata

    nfc = unicodedata.normalize("NFC", asked.strip())
    if nfc in names:
        return [nfc]
    folded = nfc.casefold()
    return [n for n in names if n.casefold() == folded]


# --- export --csv ------------------------------------------------------------------------------

CSV_HEAD = ["game_id", "date", "game", "seat", "player", "score", "unit", "winner", "finished"]


def score_sheet(game_id: str, created_ns: int, state: dict[str, Any]) -> list[list[Any]]:
    """The rows of one game's score sheet: one per player, with a column per round (Kilo de
    merde: kilos after the round; Les Cinq Rois and 13 feuilles: the points of the round)."""
    players = state["players"]
    per_round: dict[str, list[Any]] = {p: [] for p in players}
    history = state.get("history") or []
    for row in history:
        if isinstance(row, list):  # Kilo de merde: kilos of each seat after the round
            for p, v in zip(players, row, strict=False):
                per_round[p].append(v)
        elif isinstance(row, dict) and isinstance(row.get("scores"), dict):
            for p in players:
                per_round[p].append(row["scores"].get(p, ""))
    score: dict[str, Any] = {}
    unit = "points"
    for row in state.get("standings", []):
        if "kilos" in row:
            unit = "kilos"
        score[row["player"]] = row.get("kilos", row.get("points"))
    winners = set(state.get("winners") or ())
    date = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(created_ns / 1e9))
    return [
        [
            game_id,
            date,
            state["game"],
            seat + 1,
            defused(p),
            score.get(p, ""),
            unit,
            int(p in winners),
            int(bool(state.get("finished"))),
            *per_round[p],
        ]
        for seat, p in enumerate(players)
    ]


def defused(cell: str) -> str:
    """A text cell a spreadsheet will show, not run: one starting like a formula ("=", "+",
    "-", "@", tab, CR) gets a leading apostrophe (OWASP). New games refuse such names; old
    journals and table logs may still hold them."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


@_listing
def export_csv(args: argparse.Namespace) -> int:
    from companion.errors import JournalError
    from companion.table.journal import Journal
    from companion.table.stats import records

    lang = args.lang
    rows: list[list[Any]] = []
    try:
        folder = _data_dir(args)
        with Journal(folder, writer=False) as journal:
            infos = None if args.all else [journal.game(args.game_id)]
            # The score sheets come with the records stats-cache.json keeps: each game is
            # folded once, not on every export.
            for record in records(journal, cache_dir=folder, infos=infos, slaps=False, sheets=True):
                if record.error is not None or record.sheet is None:
                    raise JournalError(record.error or "?", record.error_fr)
                rows += score_sheet(record.id, record.created_ns, record.sheet)
    except CompanionError as err:
        print(err.message(lang), file=sys.stderr)
        return exit_code(err)
    rounds = max((len(r) - len(CSV_HEAD) for r in rows), default=0)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CSV_HEAD + [f"round_{i + 1}" for i in range(rounds)])
    writer.writerows(rows)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.csv:
        return export_csv(args)
    if args.all:
        print(
            _fr(
                args.lang,
                "--all va avec --csv : un journal de table ne contient qu'une partie.",
                "--all goes with --csv: a table log holds one game.",
            ),
            file=sys.stderr,
        )
        return 2
    from companion.cli.commands import cmd_export as export_log

    return export_log(args)
