"""What the phones' server answers when it refuses: one catalogue sentence (``web.refused.*`` in
``companion/error_strings.py``) said in both languages, French first, as every refusal a phone
shows. A page opened from a stale code reads the plain text; the scorer's page reads the JSON's
``fr`` and ``en`` and shows the one its phone speaks."""

from __future__ import annotations

from starlette.responses import JSONResponse, PlainTextResponse, Response

from companion import error_strings as _error_strings  # noqa: F401  (the templates, registered)
from companion.text import Text


def refused(status: int, key: str, **fields: object) -> Response:
    """``status`` with the sentence ``key`` as plain text: the French, a space, the English."""
    text = Text(key, **fields)
    return PlainTextResponse(f"{text.fr} {text.en}", status_code=status)


def refused_json(status: int, key: str, **fields: object) -> Response:
    """``status`` with the sentence ``key`` as ``{"fr": ..., "en": ...}`` (the scorer's page)."""
    text = Text(key, **fields)
    return JSONResponse({"fr": text.fr, "en": text.en}, status_code=status)
