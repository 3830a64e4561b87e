"""What the journal says when it cannot do what was asked: one function per situation, each
naming the file or folder and the fix, in English and French (the error family: ``errors.py``)."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from companion.errors import CompanionError, DataDirError, JournalError, UnknownGameError, cut, shown
from companion.i18n import os_reason
from companion.table.journal_files import is_disk_full


def broken(path: Path, why: str, fr_why: str | None = None) -> JournalError:
    return JournalError(
        f"the journal {path} cannot be read ({why}); it was left untouched: move it "
        "aside to start a new journal, or pass --data-dir to use another folder",
        f"le journal {path} est illisible ({fr_why or why}) ; il n'a pas été modifié : "
        "déplacez-le pour en commencer un nouveau, ou indiquez un autre dossier avec "
        "--data-dir",
    )


def disk_full(data_dir: Path) -> JournalError:
    return JournalError(
        f"the disk holding {data_dir} is full: free some space on it (or pass "
        "--data-dir with a folder on another disk), then run the command again; the journal "
        "was left as it was",
        f"le disque de {data_dir} est plein : libérez de la place (ou indiquez avec "
        "--data-dir un dossier sur un autre disque), puis relancez la commande ; le journal "
        "n'a pas été modifié",
    )


def is_full(err: sqlite3.Error, data_dir: Path) -> bool:
    return getattr(err, "sqlite_errorcode", 0) == sqlite3.SQLITE_FULL or is_disk_full(data_dir)


def read_only(what: Path) -> JournalError:
    return JournalError(
        f"{what} is read-only, so no game can be written there; `companion games` and "
        "`companion export` can still read it: to play, pass --data-dir with a folder you "
        "can write to (copy the journal there to keep its games)",
        f"{what} est en lecture seule, aucune partie ne peut y être écrite ; `companion "
        "games` et `companion export` peuvent encore le lire : pour jouer, indiquez avec "
        "--data-dir un dossier modifiable (copiez-y le journal pour garder ses parties)",
    )


def os_error(data_dir: Path, err: OSError) -> JournalError:
    if err.errno == errno.ENAMETOOLONG:
        return unreachable(data_dir, err)
    if err.errno in (errno.ENOSPC, errno.EDQUOT) or is_disk_full(data_dir):
        return disk_full(data_dir)
    if err.errno == errno.EROFS or (err.errno in (errno.EACCES, errno.EPERM) and data_dir.is_dir()):
        return read_only(data_dir)
    return JournalError(
        f"cannot write the journal folder {data_dir} ({err.strerror}); pass "
        "--data-dir with a folder you can write to",
        f"impossible d'écrire dans le dossier du journal {data_dir} "
        f"({os_reason(err)}) ; indiquez un dossier accessible avec --data-dir",
    )


def unreachable(data_dir: Path, err: OSError) -> JournalError:
    """The folder itself cannot be looked at: a path too long for the file system, a
    component that is a file, no permission to pass through."""
    shown_dir = cut(str(data_dir), 120)
    if err.errno == errno.ENAMETOOLONG:
        return JournalError(
            f"the data folder path is too long for the file system ({len(str(data_dir))}"
            f" characters: {shown_dir}); pass --data-dir with a shorter path",
            f"le chemin du dossier de données est trop long pour le système de fichiers "
            f"({len(str(data_dir))} caractères : {cut(str(data_dir), 120, 'fr')}) "
            "; indiquez un chemin plus court avec --data-dir",
        )
    return JournalError(
        f"the data folder {shown_dir} cannot be reached ({err.strerror}); pass --data-dir "
        "with a folder you can use",
        f"le dossier de données {cut(str(data_dir), 120, 'fr')} est inaccessible "
        f"({os_reason(err)}) ; indiquez un dossier utilisable avec --data-dir",
    )


def not_a_folder(data_dir: Path, filename: str) -> DataDirError:
    return DataDirError(
        f"{data_dir} is not a folder: --data-dir names the folder that holds the "
        f"journal ({filename}), e.g. --data-dir {data_dir.parent}",
        f"{data_dir} n'est pas un dossier : --data-dir nomme le dossier qui contient "
        f"le journal ({filename}), par ex. --data-dir {data_dir.parent}",
    )


def no_journal_yet(path: Path) -> JournalError:
    return JournalError(
        f"there is no journal at {path} yet: no game has been played with this data directory",
        f"il n'y a pas encore de journal dans {path} : aucune partie n'a été jouée avec ce "
        "dossier de données",
    )


def locked(data_dir: Path, pid: str) -> JournalError:
    return JournalError(
        f"another companion (pid {pid}) is already using the journal in "
        f"{data_dir}: close it first, or pass --data-dir to keep a separate journal",
        f"un autre companion (pid {pid}) utilise déjà le journal de {data_dir} : "
        "fermez-le d'abord, ou indiquez un autre dossier avec --data-dir",
    )


def foreign_sql(path: Path, foreign: str) -> JournalError:
    return JournalError(
        f"the journal {path} holds SQL not created by the companion "
        f"({foreign}), which would run on our next write; it was left untouched: "
        "`companion games`, `history` and `export` still read its games; to play, "
        "pass --data-dir with another folder",
        f"le journal {path} contient du SQL que le companion n'a pas créé "
        f"({foreign}), qui s'exécuterait à notre prochaine écriture ; il n'a pas été "
        "modifié : `companion games`, `history` et `export` lisent encore ses "
        "parties ; pour jouer, indiquez un autre dossier avec --data-dir",
    )


def read_only_media(path: Path, wal: Path) -> JournalError:
    return JournalError(
        f"the journal {path} is on read-only media with unfinished writes in "
        f"{wal.name}: copy the whole folder to a writable place and pass "
        "--data-dir with the copy; nothing was changed",
        f"le journal {path} est sur un support en lecture seule avec des "
        f"écritures inachevées dans {wal.name} : copiez tout le dossier dans un "
        "endroit modifiable et indiquez la copie avec --data-dir ; rien n'a été "
        "modifié",
    )


def cannot_create(path: Path, err: sqlite3.Error) -> JournalError:
    return JournalError(
        f"could not create the journal {path}: {err}",
        f"impossible de créer le journal {path} : {err}",
    )


def cannot_write(path: Path, err: sqlite3.Error) -> JournalError:
    return JournalError(
        f"could not write to the journal {path}: {err}",
        f"impossible d'écrire dans le journal {path} : {err}",
    )


def write_error(path: Path, data_dir: Path, err: sqlite3.Error, lost: int = 1) -> JournalError:
    if not is_full(err, data_dir):
        return cannot_write(path, err)
    en, fr = (
        ("the last event was not recorded", "le dernier événement n'a pas été enregistré")
        if lost == 1
        else (
            f"the last {lost} events were not recorded",
            f"les {lost} derniers événements n'ont pas été enregistrés",
        )
    )
    return JournalError(
        f"the disk holding {data_dir} is full: {en}, every earlier one is safe; "
        "free some space, then `companion resume` continues the game",
        f"le disque de {data_dir} est plein : {fr}, tous les précédents sont sûrs ; "
        "libérez de la place, puis `companion resume` reprend la partie",
    )


def no_game_yet(path: Path) -> JournalError:
    return JournalError(
        f"the journal {path} holds no game yet",
        f"le journal {path} ne contient encore aucune partie",
    )


def unknown_game(game_id: str, known: str) -> UnknownGameError:
    return UnknownGameError(
        f"no game {shown(game_id)} in the journal (latest: {known}); `companion games` lists them all",
        f"aucune partie {shown(game_id, lang='fr')} dans le journal (dernières : {known}) ; "
        "`companion games` les liste toutes",
    )


def event_missing(path: Path, game_id: str, expected: int) -> JournalError:
    return JournalError(
        f"event {expected} of game {game_id} is missing from the journal {path}",
        f"l'événement {expected} de la partie {game_id} manque dans le journal {path}",
    )


def event_damaged(path: Path, game_id: str, seq: int, err: ValueError | CompanionError) -> JournalError:
    en = err.en if isinstance(err, CompanionError) else str(err)
    fr = err.fr if isinstance(err, CompanionError) else str(err)
    return JournalError(
        f"event {seq} of game {game_id} in the journal {path} is damaged: {en}",
        f"l'événement {seq} de la partie {game_id} du journal {path} est abîmé : {fr}",
    )
