"""``python -m companion.hardware render [--check]``: rewrite (or check) every file made from
hardware/pinout.toml."""

from __future__ import annotations

import sys

from companion.hardware.render import main

sys.exit(main(sys.argv[1:]))
