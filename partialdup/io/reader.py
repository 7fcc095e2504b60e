"""Reading documents: ``.txt`` files, folders of them, and ``.jsonl`` files.

User errors never raise a traceback: a file that cannot be read is reported in
one line naming it and skipped (or, with ``strict``, raises :class:`InputError`
carrying that line). Offsets everywhere refer to the decoded text, which is the
file's UTF-8 text with a leading BOM removed and line ends left untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from partialdup.core.errors import InputError
from partialdup.core.types import Document

__all__ = ["ReadResult", "read_documents", "read_text", "decode_text"]

TEXT_SUFFIXES = (".txt",)
JSONL_SUFFIXES = (".jsonl",)


@dataclass(frozen=True)
class ReadResult:
    """Documents read and what was passed over.

    Attributes:
        documents: The documents, in the order given (folders sorted by path).
        skipped: One message per file or JSONL line that was skipped.
        ignored_files: Files inside folders whose suffix is neither ``.txt``
            nor ``.jsonl``.
    """

    documents: tuple[Document, ...]
    skipped: tuple[str, ...]
    ignored_files: int = 0


def decode_text(data: bytes, name: str) -> str:
    """Decode UTF-8 (BOM removed); raise :class:`InputError` for binary or non-UTF-8 data."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{name}: binary file (NUL byte at offset {nul})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def read_text(path: Path) -> str:
    """One file's decoded text; raises :class:`InputError` naming it when it cannot be read."""
    try:
        return decode_text(path.read_bytes(), str(path))
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None


def read_documents(paths: Sequence[str | Path], *, strict: bool = False) -> ReadResult:
    """Read every document under the given paths.

    Args:
        paths: Files (``.txt`` or any text; ``.jsonl`` of ``{"id", "text"}``)
            and folders (searched recursively for ``.txt`` and ``.jsonl``).
        strict: Raise :class:`InputError` at the first unreadable file or line
            instead of skipping it.

    Returns:
        The documents and the skip messages.

    Raises:
        InputError: A path does not exist, two documents share an id, or
            (with ``strict``) anything had to be skipped.
    """
    documents: list[Document] = []
    skipped: list[str] = []
    origin: dict[str, str] = {}
    ignored = 0
    seen_files: set[Path] = set()
    for path, doc_id in _files(paths):
        if path is None:
            ignored += 1
            continue
        resolved = path.resolve()
        if resolved in seen_files:
            skipped.append(f"{path}: given more than once, read once")
            continue
        seen_files.add(resolved)
        for where, document, problem in _read_file(path, doc_id):
            if problem is not None:
                if strict:
                    raise InputError(problem)
                skipped.append(problem)
                continue
            assert document is not None
            if document.id in origin:
                raise InputError(f"{where}: duplicate document id {document.id!r} (first in {origin[document.id]})")
            origin[document.id] = where
            documents.append(document)
    return ReadResult(tuple(documents), tuple(skipped), ignored)


def _files(paths: Sequence[str | Path]) -> Iterator[tuple[Path | None, str]]:
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                if child.suffix.lower() in TEXT_SUFFIXES + JSONL_SUFFIXES:
                    yield child, child.relative_to(path).as_posix()
                else:
                    yield None, ""
        elif path.is_file():
            yield path, str(given)
        else:
            raise InputError(f"{given}: no such file or folder")


def _read_file(path: Path, doc_id: str) -> Iterator[tuple[str, Document | None, str | None]]:
    try:
        text = read_text(path)
    except InputError as error:
        yield str(path), None, f"{error}, skipped"
        return
    if path.suffix.lower() in JSONL_SUFFIXES:
        yield from _jsonl_documents(path, text)
    else:
        yield str(path), Document(doc_id, text), None


def _jsonl_documents(path: Path, text: str) -> Iterator[tuple[str, Document | None, str | None]]:
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            yield where, None, f"{where}: not valid JSON ({error.msg}), skipped"
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            yield where, None, f"{where}: expected an object with a string 'text', skipped"
            continue
        doc_id = record.get("id")
        if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
            yield where, None, f"{where}: expected a string or integer 'id', skipped"
            continue
        yield where, Document(str(doc_id), record["text"]), None
