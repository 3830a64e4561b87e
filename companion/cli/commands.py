"""Subcommands of the core: demo, replay, export, games, resume."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.cli.options import lang_given
from companion.errors import CompanionError, JournalError, exit_code
from companion.i18n import CATALOGUE, elide, os_reason, t
from companion.text import Text


def _data_dir(args: argparse.Namespace) -> Path:
    from companion.table.journal import default_data_dir

    return Path(args.data_dir) if args.data_dir else default_data_dir()


def _fail(err: CompanionError, lang: str) -> int:
    print(err.message(lang), file=sys.stderr)
    return exit_code(err)


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False))


# --- demo / resume -----------------------------------------------------------------------------

# A demo's game is the computer playing itself: it is kept in the journal like any game (resume,
# export and replay work on it), and its meta says so, for history and stats leave it out unless
# asked (`--demos`): a new table's numbers do not start with a game nobody played.
DEMO_META: dict[str, Any] = {"input": "sim", "demo": True}


def _run_demo(table: Any, seed: int, speed: float, lang: str, as_json: bool) -> int:
    from companion.games import load

    game = table.engine
    out = sys.stderr if as_json else sys.stdout
    try:
        load(game.game).run_demo(table, seed, speed, lang, out)
    except KeyboardInterrupt:
        from companion.cli import interrupted

        return interrupted(lang)
    except BrokenPipeError:
        # `companion demo | head`: the reader is gone, so is the point of playing on; the game
        # stays in the journal as far as it went, and saying so beats a silent exit 0.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(
            f"L'affichage a été fermé (un « | head » ?) après l'événement {table.seq} : la "
            "démo s'est arrêtée là, sa partie est gardée ; `companion resume` joue la suite."
            if lang == "fr"
            else f"The output was closed (a `| head`?) after event {table.seq}: the demo stopped "
            "there, its game is kept; `companion resume` plays the rest.",
            file=sys.stderr,
        )
        return 1
    if as_json:
        _print_json({"game_id": table.game_id, **game.to_json()})
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.games import info, load
    from companion.table.journal import Journal
    from companion.table.live import Table

    lang = args.lang
    entry = info(args.game)
    if not entry.min_players <= args.players <= entry.max_players:
        print(
            t("cli.players_range", lang, game=entry.title, low=entry.min_players, high=entry.max_players),
            file=sys.stderr,
        )
        return 2
    if args.rounds is not None and not entry.demo_rounds:
        print(t("cli.rounds_fixed", lang, game=entry.title), file=sys.stderr)
        return 2
    if args.rounds is not None and not 1 <= args.rounds <= 99:
        print(t("cli.rounds_range", lang), file=sys.stderr)
        return 2
    if not args.speed >= 0:  # also refuses nan
        print(t("cli.speed_range", lang), file=sys.stderr)
        return 2
    import random  # here: the listings, which share this module, never draw

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    try:
        with Journal(_data_dir(args), writer=True) as journal:
            setup = load(args.game).demo_setup(args.players, args.rounds, seed)
            table = Table.start(journal, setup, DEMO_META | {"seed": seed, "lang": lang})
            out = sys.stderr if args.json else sys.stdout
            print(t("demo.title", lang, game=entry.title, players=args.players, seed=seed), file=out)
            print(t("demo.journal", lang, game_id=table.game_id, path=journal.path), file=out)
            return _run_demo(table, seed, args.speed, lang, args.json)
    except CompanionError as err:
        return _fail(err, lang)


def cmd_resume(args: argparse.Namespace) -> int:
    from companion.table.journal import Journal
    from companion.table.live import Table

    lang = args.lang
    try:
        with Journal(_data_dir(args), writer=True) as journal:
            table = Table.resume(journal, args.game_id)
            if not lang_given(args) and table.meta.get("lang") in ("fr", "en"):
                lang = str(table.meta["lang"])  # the game goes on in the language it began in
            out = sys.stderr if args.json else sys.stdout
            source = table.meta.get("input", "sim")
            if source == "sim" or table.engine.finished:
                # A game going back on screen says so there, once the screen is up: said here,
                # it would come before a failure to open it.
                print(t("demo.resumed", lang, game_id=table.game_id, seq=table.seq), file=out)
            if table.engine.finished:
                print(table.engine.summary(lang), file=out)
                if args.json:
                    _print_json({"game_id": table.game_id, **table.engine.to_json()})
                return 0
            if source == "sim":
                return _run_demo(table, int(table.meta.get("seed", 0)), args.speed, lang, args.json)
            # A game played on the table screen goes back on screen, on the journal already open
            # (reopening it would trip over our own lock).
            from companion.cli.play import play_table

            return int(play_table(journal, table, lang))
    except CompanionError as err:
        return _fail(err, lang)


# --- replay / export / games -------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.table.fold import replay

    lang = args.lang
    try:
        # The file itself goes to the reader: it reads each line with a cap (MAX_LINE_BYTES in
        # table/log.py), one at a time, so neither a huge log nor /dev/zero is held whole.
        if args.file == "-":
            engine = replay(sys.stdin.buffer, read_only=True)
        else:
            try:
                with open(args.file, "rb") as handle:
                    engine = replay(handle, read_only=True)
            except OSError as err:
                print(t("cli.cannot_read", lang, path=args.file, why=os_reason(err, lang)), file=sys.stderr)
                return 2
    except CompanionError as err:
        # The file first: "line 3" alone does not say which file a script's replay read.
        where = (
            "l\u2019entrée standard"
            if args.file == "-" and lang == "fr"
            else "stdin"
            if args.file == "-"
            else args.file
        )
        print(f"{where}{chr(0x202F) if lang == 'fr' else ''}: {err.message(lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(t("cli.stopped", lang), file=sys.stderr)
        return 130
    if args.json:
        _print_json(engine.to_json())
    else:
        print(engine.summary(lang))
    return 0


def _check_game(journal: Any, game_id: str) -> JournalError | None:
    """Fold a stored game (read-only): None if it replays, else the error naming its first bad
    row."""
    from companion.table.live import Table

    try:
        Table.load(journal, game_id)
    except JournalError as err:
        return err
    return None


def cmd_export(args: argparse.Namespace) -> int:
    from companion import version
    from companion.table.journal import Journal

    lang = args.lang
    try:
        with Journal(_data_dir(args), writer=False) as journal:
            info = journal.game(args.game_id)
            # What is written must replay: a damaged row would make a log no one can read.
            bad = _check_game(journal, info.id)
            if bad is not None:
                what = Text.pair(en=bad.en.rstrip("."), fr=bad.fr.rstrip("."))
                raise JournalError("cli.export_damaged", what=what)
            # Pure JSON Lines unless asked: jq and every JSON Lines reader choke on a comment.
            lines = [f"# companion {version()} export of game {info.id}\n"] if args.comment else []
            lines.extend(payload + "\n" for _, payload in journal.payloads(info.id))
    except CompanionError as err:
        return _fail(err, lang)
    sys.stdout.writelines(lines)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from companion.games import GAME_NAMES
    from companion.table.journal import Journal
    from companion.table.stats import records

    lang = args.lang
    try:
        folder = _data_dir(args)
        with Journal(folder, writer=False) as journal:
            # Each game is folded once and remembered in stats-cache.json (as history and stats
            # do): only games new since the last look are checked again. The records count each
            # game's events (the listing's own query does not: one scan of the journal, or none).
            infos = journal.games(counted=False)
            checked = records(journal, cache_dir=folder, infos=infos, slaps=False, full=False, whole=True)
            # The records keep the sentences as they were said (stats-cache.json).
            damaged = {
                r.id: JournalError(Text.pair(en=r.error, fr=r.error_fr or r.error))
                for r in checked
                if r.error is not None
            }
            # What the games table says (its finished hint, as before), with each game's count.
            games = [(g, r.events) for g, r in zip(infos, checked, strict=True)]
    except CompanionError as err:
        if "there is no journal" in err.en:
            if args.json:
                _print_json({"games": []})
            else:
                print(t("games.none", lang))
            return 0
        return _fail(err, lang)
    if args.json:
        _print_json(
            {
                "games": [
                    {
                        "id": g.id,
                        "game": g.game,
                        "players": list(g.players),
                        "events": events,
                        "finished": g.finished,
                        "created": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(g.created_ns / 1e9)),
                        "input": g.meta.get("input"),
                        "demo": g.meta.get("demo") is True,
                        "damaged": damaged[g.id].message(lang) if g.id in damaged else None,
                    }
                    for g, events in games
                ]
            }
        )
    else:
        if not games:
            print(t("games.none", lang))
        statuses = {key: t(key, lang) for key in ("games.damaged", "games.finished", "games.running")}
        demo = t("games.demo", lang)
        # The row's text once, elided once over all the rows (the row has no plural and no
        # decimal number, the two things t() does besides): two thousand rows, one write.
        fr, en = CATALOGUE["games.row"]
        row = fr if lang == "fr" else en
        lines = []
        for g, events in games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created_ns / 1e9))
            status = statuses[
                "games.damaged" if g.id in damaged else "games.finished" if g.finished else "games.running"
            ]
            lines.append(
                row.format(
                    id=g.id,
                    when=when,
                    game=GAME_NAMES.get(g.game, g.game),
                    status=status,
                    events=events,
                    players=", ".join(g.players),
                )
                + (demo if g.meta.get("demo") is True else "")
            )
        if lines:
            text = "\n".join(lines) + "\n"
            sys.stdout.write(elide(text) if lang == "fr" else text)
    for problem in damaged.values():
        print(problem.message(lang), file=sys.stderr)
    return 1 if damaged else 0
