"""NLTK's Punkt imported without the rest of NLTK; the rest still works for whoever asks."""

from __future__ import annotations

import subprocess
import sys

import regex
from nltk.tokenize.punkt import PunktLanguageVars

from partialdup.text.punkt import PlainLanguageVars, PlainToken, punkt_tokenizer
from partialdup.text.sentences import SentenceSplitter
from tests.methods.realtext import real_documents
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


WHOLE_LATER = """
import sys
from partialdup.text.sentences import SentenceSplitter
from partialdup.text import punkt
assert len(SentenceSplitter().split("One sentence. And a second one.")) == 2
assert "nltk.translate" not in sys.modules and len([m for m in sys.modules if m.startswith("nltk")]) < 60
package = sys.modules["nltk"]
version = punkt.nltk_version()  # read without running nltk/__init__
assert "nltk.translate" not in sys.modules
import nltk
assert nltk is package and nltk.tokenize.punkt.PunktSentenceTokenizer is punkt.PunktSentenceTokenizer
assert "nltk.translate" not in sys.modules  # a submodule asked for is imported alone
from nltk import wordpunct_tokenize, FreqDist  # names of nltk/__init__: it runs, in place
assert nltk is sys.modules["nltk"] and "nltk.translate" in sys.modules
assert nltk.PunktSentenceTokenizer is punkt.PunktSentenceTokenizer and nltk.__version__ == version
print(nltk.__version__, wordpunct_tokenize("Hello there, world."), FreqDist("aab")["a"])
"""


def test_nltk_is_whole_for_whoever_asks_for_more_than_punkt():
    run = subprocess.run([sys.executable, "-c", WHOLE_LATER], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0, run.stderr
    version, tokens, count = run.stdout.split(" ", 1)[0], run.stdout.split(" ", 1)[1].rsplit(" ", 1)[0], run.stdout.split()[-1]
    assert version.count(".") >= 1 and tokens == "['Hello', 'there', ',', 'world', '.']" and count == "2"


def test_nltk_tokenize_is_whole_for_whoever_asks_for_it_first():
    check = ("import sys; import partialdup.text.sentences; assert 'nltk.tokenize.treebank' not in sys.modules\n"
             "from nltk.tokenize import RegexpTokenizer, TreebankWordTokenizer\n"
             "import nltk; print(RegexpTokenizer(r'\\w+').tokenize('a b'), TreebankWordTokenizer().tokenize('c d'), nltk.__version__)")
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("['a', 'b'] ['c', 'd'] 3."), run.stderr


def test_threads_asking_at_once_each_find_the_whole_package():
    check = ("import threading; import partialdup.text.sentences\n"
             "got = []\n"
             "def ask():\n"
             "    import nltk; got.append(nltk.wordpunct_tokenize('a b') == ['a', 'b'] and nltk.FreqDist is not None)\n"
             "threads = [threading.Thread(target=ask) for _ in range(8)]\n"
             "[t.start() for t in threads]; [t.join() for t in threads]; print(got)")
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == str([True] * 8), run.stderr


def test_an_nltk_imported_before_is_left_alone():
    check = "import sys, nltk; import partialdup.text.punkt; print('scipy.stats' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "True", run.stderr


def test_punkt_with_unwrapped_patterns_cuts_where_nltks_own_classes_cut():
    # The fast path (NLTK's patterns without their time-out wrapper) against
    # the reference (NLTK's own language variables and token class), on the
    # real documents of the repository: the same sentences.
    plain, reference = SentenceSplitter(), SentenceSplitter()
    reference._punkt = punkt_tokenizer(reference._punkt._params, plain=False)
    assert type(plain._punkt._lang_vars) is PlainLanguageVars and plain._punkt._Token is PlainToken
    assert type(reference._punkt._lang_vars) is not PlainLanguageVars
    for name, text in real_documents()[::3]:
        assert plain.split(text) == reference.split(text), name


def test_the_unwrapped_patterns_are_nltks_patterns():
    vars_ = PlainLanguageVars()
    for pattern in (vars_.period_context_re(), vars_._word_tokenizer_re(), vars_.re_boundary_realignment, PlainToken._RE_NUMERIC):
        assert isinstance(pattern, regex.Pattern)
    assert vars_.period_context_re().pattern == PunktLanguageVars().period_context_re().pattern
    assert vars_.period_context_re() is vars_.period_context_re()  # unwrapped once
