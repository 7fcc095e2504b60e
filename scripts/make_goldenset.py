#!/usr/bin/env python3
"""Build the partialdup gold set (PAN text-alignment layout) and the demo samples.

Every text comes from an installed Debian package; nothing is written or
generated here except the planted copies (real sentences of one real document
inserted, possibly lightly edited, into another real document) and the labels.

    python scripts/make_goldenset.py --out goldenset [--samples samples] [--seed N]

The code is the package scripts/goldenset_builder/; see goldenset/README.md
(written by it) for the method.
"""
from __future__ import annotations

import os
import sys

_SCRIPTS = os.path.dirname(os.path.abspath(__file__))
if _SCRIPTS not in sys.path:  # run from elsewhere, or imported as a module
    sys.path.insert(0, _SCRIPTS)

from goldenset_builder.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
