"""Decoding a document's bytes: which encoding, and the text.

Offsets everywhere count characters of the decoded text, whatever the
encoding; a byte-order mark is removed and line ends are left untouched.

Without ``--encoding``, the encoding is found in this order (the cheap and
certain tests first, since most files are UTF-8):

1. a byte-order mark: UTF-8, UTF-16 or UTF-32 (little or big endian);
2. valid UTF-8 without NUL bytes;
3. NUL bytes in the pattern of UTF-32 or UTF-16 text without a byte-order
   mark (ASCII characters have a zero high byte), decoding to text without
   control characters; other data with NUL bytes is binary;
4. the East Asian double-byte encodings, each a candidate when it decodes
   without error: GB18030 (which includes GBK and GB2312) and Big5 (Big5, or
   Microsoft's cp950 when only that decodes) for Chinese, Shift JIS and
   EUC-JP for Japanese. charset-normalizer tells Japanese from Chinese (its
   choice is taken when the text then holds kana, which Chinese text read
   as Japanese does not). EUC-KR is not guessed: Chinese text read as EUC-KR
   is full of Hangul, and charset-normalizer took a short GB18030 text for
   Korean; give ``--encoding euc-kr``. Between GB18030 and Big5 the reading with the fewest
   characters that are rare in Chinese or English text wins (see
   :data:`_ODD`), GB18030 on a tie: a Big5 file read as GB18030 gives
   Japanese kana, Greek, Cyrillic and private-use characters for its common
   ideographs, and GB18030 punctuation read as Big5 gives Bopomofo and
   symbols, so the two are told apart even in English text with a few
   full-width commas, where charset-normalizer alone chose wrong in a third
   of the cases (a test encodes the repository's zh_CN and zh_TW documents
   both ways and decodes them back);
5. charset-normalizer among the single-byte encodings of :data:`_SINGLE_BYTE`
   (the Windows code pages 1250-1258, KOI8-R and KOI8-U, Thai, Latin-1); it
   guesses poorly on a few words of text, as any detector must.

A Western-encoded file (Windows-1252) whose bytes happen to be valid GB18030
is read as GB18030: ``--verbose`` shows the encoding of every file, and
``--encoding`` overrides the detection.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from partialdup.core.errors import InputError

__all__ = ["Decoded", "decode_bytes", "check_encoding"]

#: Byte-order marks, longest first (the UTF-32 LE mark starts with UTF-16 LE's),
#: with the codec that reads the rest and the name reported for the file.
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)

#: Characters that are rare in Chinese and English text: anything but ASCII,
#: Han ideographs, CJK and full-width punctuation and forms, and general
#: punctuation (quotes, dashes, ellipsis). A wrong multi-byte decoding makes
#: many of them.
_ODD = re.compile(
    "[^\x00-\x7f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff01-\uff65\u2010-\u2027\u2030-\u203a]"
)

#: Japanese encodings, and the script their text must hold (kana) for
#: charset-normalizer's choice of them to be taken.
_SCRIPTS = {
    "shift_jis": re.compile("[\u3040-\u30ff]"),
    "euc_jp": re.compile("[\u3040-\u30ff]"),
}

#: The encodings charset-normalizer chooses from when no other step found one
#: (unrestricted, it proposed UTF-16 and Urdu code pages for "café" in Latin-1).
_SINGLE_BYTE = [
    "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
    "koi8_r", "koi8_u", "cp874", "latin_1",
]

#: Control characters that never occur in text (tab, line ends, form feed
#: and escape do): a UTF-16 or UTF-32 reading that makes one is not text.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")


@dataclass(frozen=True)
class Decoded:
    """A file's text and the encoding it was read in.

    Attributes:
        text: The decoded text (byte-order mark removed, line ends kept).
        encoding: A codec name that reads the file (``utf-8``, ``utf-8-sig``
            for UTF-8 with a byte-order mark, ``utf-16``/``utf-32`` with one,
            ``utf-16-le`` without, ``gb18030``, ``big5``, ...): what
            ``--verbose`` reports and ``--encoding`` accepts.
    """

    text: str
    encoding: str


def check_encoding(name: str) -> str:
    """The codec name for ``--encoding``, checked before any work.

    Raises:
        InputError: Python knows no such text encoding.
    """
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise InputError(f"--encoding: unknown encoding {name!r}") from None
    if not getattr(info, "_is_text_encoding", True):  # base64, rot13, zlib: not text encodings
        raise InputError(f"--encoding: {name!r} is not a text encoding")
    return info.name


def decode_bytes(data: bytes, name: str, encoding: str | None = None) -> Decoded:
    """Decode a file's bytes (see the module notes for the detection order).

    Args:
        data: The file's bytes.
        name: The file, for messages.
        encoding: Read in this encoding instead of detecting one.

    Raises:
        InputError: Binary data, bytes that are not valid in ``encoding``, or
            no encoding found (one line naming the file and the first bad byte).
    """
    if encoding is not None:
        return _decode_as(data, name, encoding)
    for mark, codec, label in _BOMS:
        if data.startswith(mark):
            return Decoded(_strict(data[len(mark):], codec, f"{name}: not {label} despite its byte-order mark", len(mark)), label)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        first_error: UnicodeDecodeError | None = error
    else:
        if "\x00" not in text:
            return Decoded(text, "utf-8")
        first_error = None
    nul = data.find(b"\x00")
    if nul >= 0:
        wide = _wide(data)
        if wide is None:
            raise InputError(f"{name}: binary file (NUL byte at offset {nul})")
        return wide
    found = _east_asian(data) or _detected(data)
    if found is None:
        assert first_error is not None
        raise InputError(f"{name}: unknown encoding (not UTF-8: {_where(data, first_error.start)}); give it with --encoding")
    return found


def _decode_as(data: bytes, name: str, encoding: str) -> Decoded:
    text = _strict(data, encoding, f"{name}: not {encoding}", 0)
    return Decoded(text[1:] if text.startswith("\ufeff") else text, encoding)  # the byte-order mark is not text


def _strict(data: bytes, codec: str, message: str, skipped: int) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        raise InputError(f"{message} ({_where(data, error.start, skipped)})") from None


def _where(data: bytes, offset: int, skipped: int = 0) -> str:
    """``byte 0xe9 at line 3, column 7``: a bad byte's place, counted in bytes."""
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1 + (skipped if line == 1 else 0)
    return f"byte 0x{data[offset]:02x} at line {line}, column {column}"


def _wide(data: bytes) -> Decoded | None:
    """UTF-32 or UTF-16 without a byte-order mark, told by where the NUL bytes are."""
    # In UTF-16 text the NUL bytes are the high bytes of ASCII characters:
    # nearly all on odd offsets (little endian) or on even ones (big endian).
    odd, even = data[1::2].count(0), data[0::2].count(0)
    sixteen = ("utf-16-le",) if odd >= 9 * even else ("utf-16-be",) if even >= 9 * odd else ()
    for codec in ("utf-32-le", "utf-32-be", *sixteen):
        if len(data) % (4 if "32" in codec else 2):
            continue
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if not _CONTROL.search(text):
            return Decoded(text, codec)
    return None


def _east_asian(data: bytes) -> Decoded | None:
    """A Chinese or Japanese double-byte encoding (step 4 of the module notes)."""
    readings: dict[str, str] = {}
    for codec in ("gb18030", "big5", "cp950", *_SCRIPTS):
        if codec == "cp950" and "big5" in readings:
            continue  # cp950 is Big5 with Microsoft's additions: only when Big5 fails
        try:
            readings[codec] = data.decode(codec)
        except UnicodeDecodeError:
            continue
    if any(codec in _SCRIPTS for codec in readings):
        from charset_normalizer import from_bytes  # imported here: only for files that need it

        match = from_bytes(data, cp_isolation=list(readings), threshold=1.0).best() if len(readings) > 1 else None
        codec = match.encoding if match is not None else next(iter(readings))
        if codec in _SCRIPTS and _SCRIPTS[codec].search(readings[codec]):
            return Decoded(readings[codec], codec)
    chinese = [codec for codec in readings if codec not in _SCRIPTS]
    if not chinese:
        return None
    best = min(chinese, key=lambda codec: (len(_ODD.findall(readings[codec])), chinese.index(codec)))
    return Decoded(readings[best], best)


def _detected(data: bytes) -> Decoded | None:
    """A single-byte encoding charset-normalizer recognises (step 5)."""
    from charset_normalizer import from_bytes

    match = from_bytes(data, cp_isolation=_SINGLE_BYTE).best()
    if match is None:
        return None
    try:
        return Decoded(data.decode(match.encoding), codecs.lookup(match.encoding).name)
    except (UnicodeDecodeError, LookupError):
        return None
