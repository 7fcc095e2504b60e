"""The package-level API: ``from partialdup import ...`` works, lazily."""

from __future__ import annotations

import subprocess
import sys

import partialdup


def test_the_public_names_import():
    from partialdup import Config, Detector, Document, Span, load_idf, make_detector  # noqa: F401

    for name in partialdup.__all__:
        assert getattr(partialdup, name) is not None, name


def test_the_documented_example_runs(idf, tokenizer):
    from partialdup import Config, Document, make_detector

    # A real sentence of the GPL (samples/GPL-2.txt) in two documents.
    sentence = "The licenses for most software are designed to take away your freedom to share and change it."
    detector = make_detector("low-idf-sig", idf, Config(threshold=0.6, gap=3), tokenizer=tokenizer)
    text_a = "Preamble\n\n" + sentence
    detection = detector.detect([Document("a", text_a), Document("b", sentence)])
    [span] = detection.spans
    assert (span.a, span.b) == ("a", "b")
    assert text_a[span.a_start : span.a_end] == sentence[span.b_start : span.b_end] == sentence


def test_importing_the_package_loads_no_heavy_module():
    code = "import sys, partialdup; print(sorted(m for m in ('jieba', 'nltk', 'scipy', 'numpy', 'rapidfuzz') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_scipy_is_imported_only_to_build_an_index():
    code = ("import sys; import partialdup.cli.main; from partialdup import Document\n"
            "from partialdup.pipeline.factory import make_detector; from partialdup.text.resources import load_idf\n"
            "detector = make_detector(None, load_idf(None)); before = 'scipy' in sys.modules\n"
            "detector.detect([Document('a', 'One line of text here.'), Document('b', 'One line of text here.')])\n"
            "print(before, 'scipy.sparse' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert result.stdout.strip() == "False True"


def test_an_unknown_name_is_an_attribute_error():
    try:
        partialdup.Nothing  # noqa: B018
    except AttributeError as error:
        assert "Nothing" in str(error)
    else:
        raise AssertionError("expected AttributeError")
