"""The HTML: document text and ids escaped, nothing loaded from elsewhere, same bytes each time, atomic writes."""

import base64
import hashlib
import re
from html.parser import HTMLParser

import pytest

from partialdup.core.errors import PartialdupError
from partialdup.core.types import SentencePair, Span
from partialdup.report.model import build_report
from partialdup.report.render import render_report, write_report

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(2)>'
COPIED = "This sentence is copied word for word from the source."
TEXT_A = f"Own words first. {COPIED} {SCRIPT} Then more.\nAn {IMG} line.\n"
TEXT_B = f"{COPIED} {IMG} Another line.\n"
HOSTILE_ID = 'x"><img src=x onerror=alert(3)>.txt'


def hostile_report(title="partialdup report"):
    """Hostile text in the passages, in the context and in the document ids."""
    a_start = TEXT_A.index("This")
    span = Span(
        a=HOSTILE_ID, b="<b>bold</b>.txt", a_start=a_start, a_end=TEXT_A.index("Then") - 1,
        b_start=0, b_end=TEXT_B.index("Another") - 1,
        a_sentences=(1, 1), b_sentences=(0, 0), score=0.8, pairs=(SentencePair(1, 0, 0.8),),
    )
    return build_report([span], {HOSTILE_ID: TEXT_A, "<b>bold</b>.txt": TEXT_B}, title=title)


class Elements(HTMLParser):
    """The tags and attributes of a page, as a browser's parser sees them."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.attributes = [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend((tag, name, value) for name, value in attrs)


def test_document_text_and_ids_are_escaped():
    html = render_report(hostile_report(title="<script>alert(4)</script>"))
    page = Elements(html)
    assert page.tags.count("script") == 1 and "img" not in page.tags and "b" not in page.tags
    assert not any(name.startswith("on") for _, name, _ in page.attributes)
    assert "alert(" not in html.split("<script>")[-1]  # our own script holds no document text
    for raw in (SCRIPT, IMG, "<script>alert(4)</script>", "<b>bold</b>"):
        assert raw not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    # an id inside an attribute stays inside it
    assert ("details", "data-a", HOSTILE_ID) in page.attributes


def test_nothing_is_loaded_from_elsewhere():
    html = render_report(hostile_report())
    attributes = Elements(html).attributes
    assert not [a for a in attributes if a[1] in ("src", "srcset", "action", "poster", "data")]
    assert all(value.startswith("#") for _, name, value in attributes if name == "href")
    assert "@import" not in html and "url(" not in html and "http://" not in html and "https://" not in html


def test_the_policy_allows_exactly_the_page_s_own_script():
    html = render_report(hostile_report())
    [script] = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    [policy] = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert "default-src 'none'" in policy and f"script-src 'sha256-{digest}'" in policy


def test_same_input_same_bytes_whatever_the_span_order():
    text = "First one here. Second one here. Third one here."
    texts = {"a": text, "b": text, "c": text}
    spans = [
        Span("a", "b", 0, 15, 0, 15, (0, 0), (0, 0), 1.0, (SentencePair(0, 0, 1.0),)),
        Span("a", "b", 16, 32, 16, 32, (1, 1), (1, 1), 1.0, (SentencePair(1, 1, 1.0),)),
        Span("a", "c", 33, 48, 33, 48, (2, 2), (2, 2), 1.0, (SentencePair(2, 2, 1.0),)),
    ]
    first = render_report(build_report(spans, texts))
    assert render_report(build_report(spans[::-1], dict(reversed(texts.items())))) == first
    assert first.index('id="pair-1"') < first.index('id="pair-2"')


def test_an_id_that_is_no_utf8_is_shown_escaped(tmp_path):
    # a file name with the byte 0xE9 (Latin-1 é), as Python reads it from the disk
    name = "caf\udce9.txt"
    text = "A sentence that was copied.\n"
    span = Span(name, "b.txt", 0, 27, 0, 27, (0, 0), (0, 0), 1.0, (SentencePair(0, 0, 1.0),))
    report = build_report([span], {name: text, "b.txt": text})
    assert "caf\\udce9.txt" in render_report(report)
    write_report(report, tmp_path / "r.html")  # no UnicodeEncodeError
    assert "caf\\udce9.txt" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_many_pairs_start_collapsed():
    report = hostile_report()
    assert "open>" in render_report(report)
    assert "open>" not in render_report(report, open_pairs=0)


def test_write_report_replaces_the_file_in_one_step(tmp_path):
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    write_report(hostile_report(), target)
    assert target.read_text(encoding="utf-8") == render_report(hostile_report())
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_an_unwritable_place_is_a_one_line_error(tmp_path):
    with pytest.raises(PartialdupError, match="cannot write"):
        write_report(hostile_report(), tmp_path / "no" / "such" / "report.html")
    folder = tmp_path / "taken"
    folder.mkdir()
    with pytest.raises(PartialdupError, match="taken: cannot write"):
        write_report(hostile_report(), folder)
    assert [p.name for p in folder.iterdir()] == []
