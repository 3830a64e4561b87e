"""Every refusal of the phones' server as the phone reads it: each page and request, asked with
each code that is not its own (another role's, a stranger's, one with a letter's case changed),
answers its status and the one sentence that says what is wrong and what to do, in French (its
typography: a narrow no-break space before the colon) then English. The scorer's writes answer
JSON, ``{"fr": ..., "en": ...}``, which its page shows in the phone's language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.review.test_web_mutants import Local, Writes, _other_case

NNBSP = "\u202f"
JOIN = (
    f"Code inconnu{NNBSP}: scannez celui de l’écran de la table. "
    "Unknown code: scan the one on the table's screen."
)
SEAT = (
    f"Ce bouton n’est plus valable{NNBSP}: scannez le code de votre place sur l’écran de la "
    "table. This button is no longer valid: scan your seat's code on the table's screen."
)
SCORER_FR = f"Code de marqueur inconnu ou retiré{NNBSP}: scannez celui de l’écran de la table."
SCORER_EN = "Unknown or revoked scorer code: scan the one on the table's screen."
CARD_AS_NUMBER = {
    "fr": f'7 n’est pas une carte{NNBSP}: écrivez-la comme du texte, par exemple "7H" ou "10"',
    "en": '7 is not a card: write it as text, like "7H" or "10"',
}
OWN = {"origin": "http://127.0.0.1:8000"}  # the scorer's page, as served to the phone


def strangers(own: str, others: list[str]) -> list[str]:
    """The codes a page must refuse: every other role's, a made-up one, its own with a letter's
    case changed."""
    return [*others, "A" * 22, _other_case(own)]


def chunks(body: bytes, size: int = 1000) -> Iterator[bytes]:
    """``body`` as a phone sends a body of unknown length: in chunks, no Content-Length."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_the_standings_pages_open_with_the_join_code_only_and_say_so_otherwise(local: Local) -> None:
    g = local.web.pairing()
    for path in ("/t/{}", "/t/{}/now", "/t/{}/events", "/t/{}/evening"):
        for code in strangers(g.join, [g.seats[0], g.seats[-1], g.scorer]):
            got = local.client.get(path.format(code))
            assert (got.status_code, got.text) == (404, JOIN), (path, code)
            assert got.headers["content-type"] == "text/plain; charset=utf-8"
    page = local.client.get(f"/t/{g.join}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # The standings as the feed made them, players' names as they are written (not \u escapes).
    now = local.client.get(f"/t/{g.join}/now")
    assert now.status_code == 200 and now.json() == local.web.feed.page
    assert now.json()["players"] == ["Alice", "Bruno", "Chloé", "Dédé"]


def test_a_seats_button_opens_with_its_own_code_only(local: Local) -> None:
    g = local.web.pairing()
    for code in strangers(g.seats[1], [g.join, g.scorer]):
        got = local.client.get(f"/pad/{code}")
        assert (got.status_code, got.text) == (404, SEAT), code
    # Each seat's own code opens the button page.
    for code in g.seats:
        got = local.client.get(f"/pad/{code}")
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/html")


def test_the_scorers_pages_open_with_the_scorer_code_only(local: Local) -> None:
    g = local.web.pairing()
    for code in strangers(g.scorer, [g.join, g.seats[0]]):
        for path in ("/score/{}", "/score/{}/page"):
            got = local.client.get(path.format(code))
            assert (got.status_code, got.text) == (404, f"{SCORER_FR} {SCORER_EN}"), (path, code)
        clock = local.client.post(f"/score/{code}/clock", headers=OWN)
        assert (clock.status_code, clock.text) == (403, f"{SCORER_FR} {SCORER_EN}"), code
        entry = local.client.post(f"/score/{code}/submit", headers=OWN, json={"event": {}})
        assert (entry.status_code, entry.json()) == (403, {"fr": SCORER_FR, "en": SCORER_EN}), code
    page = local.client.get(f"/score/{g.scorer}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    state = local.client.get(f"/score/{g.scorer}/page")
    assert state.status_code == 200 and state.json() == local.web.feed.page
    assert state.json()["game_id"] == local.table.game_id


def test_a_scorers_entry_is_refused_with_what_is_wrong_before_the_table_sees_it(local: Local) -> None:
    """From another page, too long, not an event of this game, or before the table plays: each
    refused with its sentence, and nothing reaches the table."""
    g = local.web.pairing()
    submit = f"/score/{g.scorer}/submit"
    draw = {"event": {"type": "draw", "player": "Bruno", "card": "7S"}}
    for headers in ({}, {"origin": "http://evil.example"}, {"origin": "http://127.0.0.1:8001"}):
        got = local.client.post(submit, headers=headers, json=draw)
        assert (got.status_code, got.json()) == (
            403,
            {
                "fr": f"Envoi refusé{NNBSP}: il ne vient pas de la page du marqueur.",
                "en": "Refused: it does not come from the scorer's page.",
            },
        ), headers
    # The server's table loop is not running yet: a good entry is told so.
    got = local.client.post(submit, headers=OWN, json=draw)
    assert (got.status_code, got.json()) == (
        409,
        {
            "fr": f"La table ne joue pas encore{NNBSP}: commencez une partie sur son écran.",
            "en": "The table is not playing yet: start a game on its screen.",
        },
    )
    writes = Writes(local)
    try:
        limit = local.web.config.max_message * 8
        assert limit == 4096
        too_long = {
            "fr": f"Saisie trop longue{NNBSP}: au plus 4{NNBSP}096 octets.",
            "en": "Entry too long: 4,096 bytes at most.",
        }
        padded = json.dumps(draw).encode()
        at_limit = padded[:-1] + b" " * (limit - len(padded)) + b"}"
        assert len(at_limit) == limit and json.loads(at_limit) == draw
        over = padded[:-1] + b" " * (limit + 1 - len(padded)) + b"}"
        # Sent in chunks, with no length said first (the guard refuses a said length over it).
        got = local.client.post(submit, headers=OWN, content=chunks(over))
        assert (got.status_code, got.json()) == (413, too_long)
        got = local.client.post(submit, headers=OWN, content=chunks(at_limit))  # the limit itself is taken
        assert (got.status_code, got.json()["ok"]) == (200, True)
        assert len(writes.got) == 1
        # Not an event of Kilo's scorer: the catalogue's sentence, with the kinds it takes.
        got = local.client.post(submit, headers=OWN, json={"event": {"type": "verdict", "valid": True}})
        assert got.status_code == 400
        assert got.json() == {
            "fr": f"La saisie du marqueur doit être un événement de Kilo de merde{NNBSP}: draw.",
            "en": "The scorer's entry must be an event of Kilo de merde: draw.",
        }
        # A card written as a number: the card's own sentence, in both languages.
        bad_card = {"event": {"type": "draw", "player": "Bruno", "card": 7}}
        got = local.client.post(submit, headers=OWN, json=bad_card)
        assert (got.status_code, got.json()) == (400, CARD_AS_NUMBER)
        assert len(writes.got) == 1  # none of the refused reached the table
    finally:
        writes.close()


def test_a_scorers_clock_question_from_another_page_is_refused(local: Local) -> None:
    g = local.web.pairing()
    for headers in ({}, {"origin": "http://evil.example"}):
        got = local.client.post(f"/score/{g.scorer}/clock", headers=headers)
        assert (got.status_code, got.text) == (
            403,
            f"Refusé{NNBSP}: la question ne vient pas de la page du marqueur. "
            "Refused: the question does not come from the scorer's page.",
        )


def test_an_unknown_font_is_said_in_both_languages(local: Local) -> None:
    got = local.client.get("/font/nothing.ttf")
    assert (got.status_code, got.text) == (404, "Police inconnue. Unknown font.")


def test_the_table_remembers_so_many_refused_addresses_and_forgets_the_oldest_first(
    local: Local, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An address that spent its refusals is told to wait while the table remembers it; with
    MAX_ADDRESSES others refused since, it is forgotten (the oldest first) and served again."""
    import companion.web.server as server_module
    from tests.review.test_web_mutants import _asgi

    monkeypatch.setattr(server_module, "MAX_ADDRESSES", 8)
    g = local.web.pairing()
    host = [(b"host", b"127.0.0.1:8000")]

    def status(client: str, path: str) -> int:
        return _asgi(local.guard, {"path": path, "headers": host, "client": (client, 5000)})[0]

    for _ in range(server_module.REFUSALS_BURST):
        assert status("10.0.0.1", "/t/nothing") == 404
    assert status("10.0.0.1", f"/t/{g.join}/now") == 429  # spent
    for n in range(2, 9):  # seven others: eight remembered, the first still among them
        assert status(f"10.0.0.{n}", "/t/nothing") == 404
    assert status("10.0.0.1", f"/t/{g.join}/now") == 429
    assert status("10.0.0.9", "/t/nothing") == 404  # a ninth: the oldest, the first, forgotten
    assert status("10.0.0.1", f"/t/{g.join}/now") == 200


def test_an_entry_the_table_never_answers_is_said_so(local: Local, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's loop takes the entry but never journals it (hung): after WRITE_WAIT_S the
    phone is told the table did not answer, rather than waiting for ever."""
    import queue as queue_module

    import companion.web.server as server_module

    monkeypatch.setattr(server_module, "WRITE_WAIT_S", 0.2)
    taken: queue_module.Queue[Any] = queue_module.Queue()
    local.web.attach(taken)  # nobody reads it
    g = local.web.pairing()
    draw = {"event": {"type": "draw", "player": "Bruno", "card": "7S"}}
    got = local.client.post(f"/score/{g.scorer}/submit", headers=OWN, json=draw)
    assert (got.status_code, got.json()) == (
        409,
        {"ok": False, "fr": "La table n’a pas répondu.", "en": "The table did not answer."},
    )
    assert taken.qsize() == 1


def test_a_spent_address_earns_a_refusal_back_after_exactly_a_second(local: Local) -> None:
    import companion.web.server as server_module
    from tests.review.test_web_mutants import _asgi

    g = local.web.pairing()
    host = [(b"host", b"127.0.0.1:8000")]

    def status(path: str, client: tuple[str, int] | None = ("10.0.0.3", 5000)) -> int:
        return _asgi(local.guard, {"path": path, "headers": host, "client": client})[0]

    for _ in range(server_module.REFUSALS_BURST):
        assert status("/t/nothing") == 404
    spent = local.now_ns
    local.now_ns = spent + 999_999_999  # a nanosecond short of a second: still spent
    assert status(f"/t/{g.join}/now") == 429
    local.now_ns = spent + 1_000_000_000
    assert status(f"/t/{g.join}/now") == 200
    # A request with no address (a Unix socket) is refused as anyone's, and nothing breaks.
    assert status("/t/nothing", None) == 404
