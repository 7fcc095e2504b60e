"""Encoding detection on the repository's real Chinese text, re-encoded."""

import codecs
import re

import pytest

from partialdup.core.errors import InputError
from partialdup.io.encoding import check_encoding, decode_bytes
from tests.paths import REPO

SOURCES = sorted((REPO / "goldenset" / "src").glob("*.txt")) + sorted((REPO / "goldenset" / "susp").glob("*.txt"))


def documents(marker):
    return [p.read_text(encoding="utf-8") for p in SOURCES if marker in p.name]


def encoded(texts, encoding):
    """The texts that the encoding can hold and that are not plain ASCII."""
    out = []
    for text in texts:
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError:
            continue
        if not data.isascii():
            out.append((text, data))
    return out


@pytest.mark.parametrize(("marker", "encoding", "least"), [("zhcn", "gb18030", 80), ("zhtw", "big5", 20), ("zhtw", "gb18030", 20)])
def test_real_chinese_text_comes_back(marker, encoding, least):
    cases = encoded(documents(marker), encoding)
    assert len(cases) >= least
    wrong = [decode_bytes(data, "x").encoding for text, data in cases if decode_bytes(data, "x").text != text]
    assert wrong == []
    assert {decode_bytes(data, "x").encoding for _, data in cases} == {encoding}


def test_english_with_a_few_chinese_punctuation_marks():
    # The gold set's English documents with full-width commas and curly quotes
    # (a Chinese input method's): charset-normalizer alone took a third of
    # them for Big5 or Windows-1252.
    english = [p.read_text(encoding="utf-8") for p in SOURCES if p.name.startswith("kjv")]
    curly = [t.replace("'", "’").replace(' "', " “").replace('" ', "” ") for t in english]
    for encoding in ("gb18030", "big5"):
        cases = encoded(english + curly, encoding)
        assert len(cases) >= 20
        assert [decode_bytes(data, "x").encoding for text, data in cases if decode_bytes(data, "x").text != text] == []


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_unicode_with_and_without_byte_order_mark(encoding):
    text = "第一行 with English\r\n第二行。\r第三行\n"
    decoded = decode_bytes(text.encode(encoding), "x")
    assert decoded.text == text and decoded.encoding == encoding


def test_japanese_is_told_from_chinese():
    text = "日本語のテキストです。これはテストの文章で、東京は日本の首都です。"
    for encoding in ("shift_jis", "euc_jp"):
        assert decode_bytes(text.encode(encoding), "x").encoding == encoding
    chinese = "标准输入。"  # short GB18030 text: no kana, so not Japanese (nor Korean)
    assert decode_bytes(chinese.encode("gb18030"), "x").text == chinese


def test_binary_and_unknown_bytes_are_one_line_errors():
    for data in (b"\x00\x01binary", b"abc\x00def", bytes(range(256)) * 4):
        with pytest.raises(InputError, match=r"^f: binary file \(NUL byte at offset \d+\)$"):
            decode_bytes(data, "f")
    with pytest.raises(InputError) as error:
        decode_bytes(b"ok\n" + bytes(range(0x80, 0x100)), "f")
    assert str(error.value) == "f: unknown encoding (not UTF-8: byte 0x80 at line 2, column 1); give it with --encoding"


def test_a_byte_order_mark_with_bad_bytes_after_it():
    with pytest.raises(InputError) as error:
        decode_bytes(codecs.BOM_UTF8 + b"ab\xff", "f")
    assert str(error.value) == "f: not utf-8-sig despite its byte-order mark (byte 0xff at line 1, column 6)"


def test_a_given_encoding():
    assert decode_bytes("\ufeff中文".encode("utf-8"), "f", "utf-8") == decode_bytes("中文".encode("utf-8"), "f", "utf-8")
    assert decode_bytes("中文".encode("big5"), "f", "big5").text == "中文"
    with pytest.raises(InputError, match=re.escape("f: not big5 (byte 0x80 at line 1, column 1)")):
        decode_bytes(b"\x80\x80", "f", "big5")


def test_unknown_encoding_names_fail_before_any_work():
    assert check_encoding("GBK") == "gbk" and check_encoding("utf8") == "utf-8"
    with pytest.raises(InputError, match=r"^--encoding: unknown encoding 'klingon'$"):
        check_encoding("klingon")
    with pytest.raises(InputError, match="not a text encoding"):
        check_encoding("base64")
