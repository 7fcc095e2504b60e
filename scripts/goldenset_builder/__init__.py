"""Builder of the partialdup gold set (PAN text-alignment layout) and the demo samples.

Every text comes from an installed Debian package; nothing is written or
generated here except the planted copies (real sentences of one real document
inserted, possibly lightly edited, into another real document) and the labels.
The build is deterministic: one ``random.Random(seed)`` drives every choice.

Run it as ``python scripts/make_goldenset.py --out goldenset [--samples samples]``
(or ``python -m goldenset_builder`` from ``scripts/``).  Modules, in the order
the build uses them:

* ``packages``: the Debian packages, their versions and copyright files.
* ``text``, ``normalise``: character classes, the label-side sentence rule,
  opencc conversion and normalised sentence keys.
* ``html_text``, ``unwrap``, ``books``, ``sources``, ``docs``: reading and
  rendering the source texts into document records.
* ``corpus``: sentences of the whole collection, boilerplate and overlap checks.
* ``align``, ``natural``: natural copies and their independent alignment.
* ``roles``, ``edits``, ``plant``: planted copies.
* ``negatives``, ``labels``, ``verify``: negatives, labels and their checks.
* ``write``, ``ci_slice``, ``readme``, ``samples``: the files written, filled
  from ``templates/``.
* ``build``, ``cli``: the order of the steps and the command line.
"""
from __future__ import annotations

from .build import SEED, build
from .cli import main

__all__ = ["SEED", "build", "main"]
