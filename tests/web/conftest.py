"""Fixtures the phones' server tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.table.journal import Journal
from tests.app_helpers import until
from tests.review.test_web_mutants import Local


@pytest.fixture
def local(journal: Journal) -> Iterator[Local]:
    """The phones' app behind its guard in this process (``Local``), its lifespan running and
    the game's codes made."""
    s = Local(journal)
    with s.client:
        until(lambda: s.web.pairing())
        yield s
