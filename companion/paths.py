"""Where the companion keeps the files it makes at run time, and the one way it creates a folder.

Under its systemd unit the companion lives in a sandbox (``ProtectHome=tmpfs``): its home is
read-only, so a folder it assumed it could create may not be creatable. Every folder is made
through ``ensure_dir``, which turns the OS's refusal into one sentence naming the folder and the
fix, never a traceback (and so never a crash loop of ``Restart=on-failure``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from companion.errors import CompanionError, HardwareError
from companion.i18n import os_reason
from companion.text import Text

APP = "table-companion"
UNIT_FIX_EN = (
    "give the service a runtime directory (RuntimeDirectory=companion in "
    "hardware/companion.service, docs/kiosk.md), or set RUNTIME_DIRECTORY to a "
    "folder this user can write"
)
UNIT_FIX_FR = (
    "donnez au service un dossier d'exécution (RuntimeDirectory=companion dans "
    "hardware/companion.service, docs/kiosk.md), ou réglez RUNTIME_DIRECTORY sur un "
    "dossier où cet utilisateur peut écrire"
)


_PLAIN_LINUX = sys.platform == "linux" and "ANDROID_DATA" not in os.environ


def xdg_data_dir(app: str) -> Path:
    """``platformdirs.user_data_dir(app)``, without its import on Linux."""
    if _PLAIN_LINUX:
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
        return Path(base) / app
    import platformdirs

    return Path(platformdirs.user_data_dir(app, appauthor=False))


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$COMPANION_CONFIG``, else ``companion.toml`` in the user's config folder (read by
    ``companion.hardware.config`` and, for the table's language, by the command line)."""
    env = os.environ if environ is None else environ
    given = env.get("COMPANION_CONFIG")
    if given:
        return Path(given)
    if _PLAIN_LINUX:
        # platformdirs' own rule on Linux, without importing it (and tempfile, and...) at
        # every command: the listings' budget is 0.3 s with the interpreter's start.
        base = env.get("XDG_CONFIG_HOME", "").strip() or os.path.expanduser("~/.config")
        return Path(base) / APP / "companion.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir(APP)) / "companion.toml"


def runtime_dir() -> Path:
    """The folder for files that live as long as the process (Mesa's shader cache...).

    systemd's ``RuntimeDirectory=`` (``$RUNTIME_DIRECTORY``, made for the unit's user, writable
    inside its sandbox) comes first, then the login session's ``$XDG_RUNTIME_DIR``, then the
    user's cache folder (a laptop without a session)."""
    given = os.environ.get("RUNTIME_DIRECTORY")
    if given:
        return Path(given.split(":")[0])  # systemd joins several directories with ':'
    session = os.environ.get("XDG_RUNTIME_DIR")
    if session and os.access(session, os.W_OK):
        return Path(session) / APP
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP))


_FOLDER = Text.pair(en="a folder", fr="un dossier")
_WRITABLE = Text.pair(
    en="choose a folder this user can write, or make this one writable",
    fr="choisissez un dossier où cet utilisateur peut écrire, ou rendez celui-ci inscriptible",
)


def ensure_dir(
    path: Path,
    *,
    what: Text = _FOLDER,
    fix: Text = _WRITABLE,
    error: type[CompanionError] = HardwareError,
) -> Path:
    """``path`` created with its parents if missing; ``error`` (which folder, why, and ``fix``)
    if the system refuses."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        # Two finished sentences, not a template: a template's French is elided after its values
        # are put in, and a folder's name ("/srv/de avance") must come out as it was given.
        raise error(
            Text.pair(
                en=f"Cannot create {what.en} {path} ({os_reason(err, 'en')}): {fix.en}.",
                fr=f"Impossible de créer {what.fr} {path} ({os_reason(err, 'fr')}) : {fix.fr}.",
            )
        ) from None
    return path


def ensure_runtime_dir() -> Path:
    """The runtime folder, created; a HardwareError naming the unit's fix if it cannot be."""
    return ensure_dir(
        runtime_dir(),
        what=Text.pair(en="the runtime folder", fr="le dossier d'exécution"),
        fix=Text.pair(en=UNIT_FIX_EN, fr=UNIT_FIX_FR),
    )
