"""NLTK's Punkt without scipy.stats at import; NLTK's Fisher test still works."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO

CHECK = """
import sys
from partialdup.text.sentences import SentenceSplitter
assert "scipy.stats" not in sys.modules, "scipy.stats imported"
assert len(SentenceSplitter().split("One sentence. And a second one.")) == 2
from nltk.metrics.association import BigramAssocMeasures
print(round(BigramAssocMeasures.fisher(1, (2, 3), 10), 6))
assert "scipy.stats" in sys.modules
"""


def test_punkt_comes_without_scipy_stats_and_fisher_still_works():
    run = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0, run.stderr
    float(run.stdout)  # NLTK's Fisher test imported scipy.stats when called


def test_an_nltk_imported_before_is_left_alone():
    check = "import sys, nltk; import partialdup.text.punkt; print('scipy.stats' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "True", run.stderr
