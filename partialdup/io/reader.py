"""Reading documents: ``.txt`` files, folders of them, ``.jsonl`` files and standard input.

Bad input never aborts good input, and never raises a traceback. A file, a
folder or a JSONL line that cannot be read is reported in one line naming it
(and the line and column) and passed over; with ``strict``, the first such
problem raises :class:`InputError` carrying that line instead. Only a path
given that does not exist at all is an error in any case (a typo on the
command line should stop the run before any work). Two documents with one id
do not stop the run either: the second is renamed ``ID#2`` (``#3``, ...) and
the renaming is reported with both places.

Folders are searched recursively for ``.txt`` and ``.jsonl`` files, or, when
glob patterns are given, for the files they match (by the path relative to
the folder, where ``*`` also crosses ``/``, or by the file name): any other
file is *ignored*, counted and named (``ReadResult.ignored``). A file named on
the command line is always read.

Offsets everywhere refer to the decoded text: the file's text in its encoding
(detected, see :mod:`partialdup.io.encoding`, or given), with a leading
byte-order mark removed and line ends left untouched.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, NamedTuple, Sequence

from partialdup.core.errors import InputError
from partialdup.core.types import Document
from partialdup.io.encoding import Decoded, decode_bytes
from partialdup.io.jsonl import jsonl_records
from partialdup.io.read_ahead import OpenAhead
from partialdup.io.real_paths import RealPaths

__all__ = ["ReadResult", "read_documents", "read_text", "decode_text", "STDIN", "STDIN_ID"]

TEXT_SUFFIXES = (".txt",)
JSONL_SUFFIXES = (".jsonl",)

#: The path that stands for standard input on the command line.
STDIN = "-"
#: The id of the document read from standard input.
STDIN_ID = "<stdin>"


@dataclass(frozen=True)
class ReadResult:
    """Documents read and what was passed over.

    Attributes:
        documents: The documents, in the order given (folders sorted by path).
        skipped: One message per file, folder or JSONL line that was passed
            over (``"path:line:column: what is wrong"``).
        ignored_files: How many files inside folders were not read: neither
            ``.txt`` nor ``.jsonl`` (or, with glob patterns, matched by none).
        renamed: One message per document whose id was already taken, with
            both places and the id it was given.
        encodings: ``(file, encoding)`` of every file read, in order.
        ignored: The paths of those ignored files, in order.
    """

    documents: tuple[Document, ...]
    skipped: tuple[str, ...]
    ignored_files: int = 0
    renamed: tuple[str, ...] = ()
    encodings: tuple[tuple[str, str], ...] = ()
    ignored: tuple[str, ...] = ()


def decode_text(data: bytes, name: str, encoding: str | None = None) -> str:
    """Decode a file's bytes (encoding detected unless given; BOM removed).

    Raises:
        InputError: Binary data, or bytes not valid in any encoding tried.
    """
    return decode_bytes(data, name, encoding).text


def read_text(path: Path, encoding: str | None = None) -> str:
    """One file's decoded text; raises :class:`InputError` naming it when it cannot be read."""
    return _read_decoded(path, encoding).text


@dataclass
class _Reading:
    """What :func:`read_documents` gathers as it goes."""

    strict: bool
    documents: list[Document] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)
    encodings: list[tuple[str, str]] = field(default_factory=list)
    origin: dict[str, str] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    # read_documents' `first`: called once, when the documents hold this many characters.
    first: tuple[int, Callable[[Sequence[Document]], object]] | None = None
    chars: int = 0

    def problem(self, message: str) -> None:
        if self.strict:
            raise InputError(message)
        self.skipped.append(message)

    def add(self, where: str, document: Document) -> None:
        first = self.origin.get(document.id)
        if first is not None:
            message = f"{where}: duplicate document id {document.id!r} (first in {first})"
            if self.strict:
                raise InputError(message)
            new_id = _free_id(document.id, self.origin)
            self.renamed.append(f"{message}, read as {new_id!r}")
            document = Document(new_id, document.text, document.fields)
        self.origin[document.id] = where
        self.documents.append(document)
        if self.first is not None:
            self.chars += len(document.text)
            if self.chars >= self.first[0]:
                handed, self.first = self.first[1], None
                handed(tuple(self.documents))

    def result(self) -> ReadResult:
        return ReadResult(
            tuple(self.documents), tuple(self.skipped), len(self.ignored), tuple(self.renamed), tuple(self.encodings),
            tuple(self.ignored),
        )


def read_documents(
    paths: Sequence[str | Path],
    *,
    strict: bool = False,
    encoding: str | None = None,
    stdin: BinaryIO | None = None,
    globs: Sequence[str] = (),
    first: tuple[int, Callable[[Sequence[Document]], object]] | None = None,
) -> ReadResult:
    """Read every document under the given paths.

    Args:
        paths: Files (``.txt`` or any text; ``.jsonl`` of ``{"id", "text"}``),
            folders (searched recursively for ``.txt`` and ``.jsonl``), and
            ``-`` for standard input (one text document, id ``<stdin>``).
        strict: Raise :class:`InputError` at the first unreadable file, folder
            or line, or duplicate id, instead of passing over it.
        encoding: Read every file in this encoding instead of detecting it.
        stdin: What ``-`` reads (``sys.stdin.buffer`` when None).
        globs: Inside folders, read the files matching any of these
            patterns (``fnmatch``: on the path relative to the folder, where
            ``*`` also crosses ``/``, or on the file name) instead of the
            ``.txt`` and ``.jsonl`` files. A matched ``.jsonl`` file is read
            as JSONL, any other as one text document.
        first: ``(chars, hand)``: ``hand`` is called once with the documents
            read so far, in order, as soon as they hold ``chars``
            characters (an engine starts on them while the rest are read:
            :meth:`~partialdup.pipeline.engine_protocol.Engine.first_read`).

    Returns:
        The documents and the messages about what was passed over or renamed.

    Raises:
        InputError: A path does not exist, or (with ``strict``) anything had
            to be passed over.
    """
    reading = _Reading(strict, first=first)
    _check_exist(paths)
    # Every entry is known first (folders are listed whole anyway), so that
    # the files are opened a few ahead and the kernel reads them meanwhile
    # (io/read_ahead.py); they are read, and reported, in order as before.
    planned = _planned(_entries(paths, tuple(globs), RealPaths()))  # one RealPaths: folders resolved once
    with OpenAhead([path for plan in planned if (path := plan.read) is not None and path != STDIN]) as ahead:
        for plan in planned:
            if (path := plan.read) is not None:
                _read_one(path, plan.doc_id, reading, encoding, stdin, ahead)
            elif plan.problem is not None:
                reading.problem(plan.problem)
            elif plan.path is None:
                reading.ignored.append(plan.doc_id)  # the ignored file's path
            else:
                reading.skipped.append(f"{plan.path}: given more than once, read once")  # harmless, even with strict
    return reading.result()


class _Plan(NamedTuple):
    """What :func:`read_documents` does with an entry, in order.

    Attributes:
        path: The file, or None for a file ignored (or a problem).
        doc_id: Its id (an ignored file's path).
        problem: Why it cannot be read, or None.
        first: False for a file met before under another path (the same
            real file), read once.
    """

    path: Path | str | None
    doc_id: str
    problem: str | None
    first: bool

    @property
    def read(self) -> Path | str | None:
        """The path to read (opened ahead, unless standard input), or None:
        the entry is not read."""
        return self.path if self.problem is None and self.first else None


def _planned(entries: Iterator[_Entry]) -> list[_Plan]:
    """Each entry's :class:`_Plan`."""
    seen: set[str] = set()
    planned: list[_Plan] = []
    for path, doc_id, problem, real in entries:
        first = True
        if problem is None and path is not None:
            key = STDIN if path == STDIN else real
            assert key is not None  # every file to read comes with its real path
            first = key not in seen
            seen.add(key)
        planned.append(_Plan(path, doc_id, problem, first))
    return planned


def _check_exist(paths: Sequence[str | Path]) -> None:
    # A path given that does not exist is a typo: stop before any work.
    for given in paths:
        if str(given) != STDIN and not os.path.lexists(given):
            raise InputError(f"{given}: no such file or folder")


def _free_id(doc_id: str, taken: dict[str, str]) -> str:
    number = 2
    while f"{doc_id}#{number}" in taken:
        number += 1
    return f"{doc_id}#{number}"


def _read_one(
    path: Path | str, doc_id: str, reading: _Reading, encoding: str | None, stdin: BinaryIO | None, ahead: OpenAhead,
) -> None:
    try:
        if path == STDIN:
            decoded = decode_bytes(_stdin_bytes(stdin), STDIN_ID, encoding)
        else:
            decoded = _read_decoded(path, encoding, ahead)
    except InputError as error:
        reading.problem(str(error))
        return
    name = STDIN_ID if path == STDIN else str(path)
    reading.encodings.append((name, decoded.encoding))
    if path != STDIN and _suffix(name) in JSONL_SUFFIXES:
        for where, document, problem in _jsonl_documents(name, decoded.text):
            if problem is not None:
                reading.problem(problem)
            else:
                assert document is not None
                reading.add(where, document)
    else:
        reading.add(name, Document(doc_id, decoded.text))


def _stdin_bytes(stdin: BinaryIO | None) -> bytes:
    stream = stdin if stdin is not None else sys.stdin.buffer
    try:
        return stream.read()
    except OSError as error:
        raise InputError(f"{STDIN_ID}: cannot read ({error.strerror})") from None


def _read_decoded(path: Path | str, encoding: str | None, ahead: OpenAhead | None = None) -> Decoded:
    # One read, unbuffered: no buffer to make (a fifth of the time).
    try:
        with open(path, "rb", buffering=0) if ahead is None else ahead.opened(path) as file:
            data = file.readall()
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    return decode_bytes(data, str(path), encoding)


# --- which files: paths given, folders walked -------------------------------

#: (path to read, or None for a file ignored; document id, or the ignored
#: file's path; problem; the real path of the file to read, None for
#: standard input, a file ignored or a problem)
_Entry = tuple["Path | str | None", str, "str | None", "str | None"]


def _entries(paths: Sequence[str | Path], globs: tuple[str, ...], real_paths: RealPaths) -> Iterator[_Entry]:
    for given in paths:
        if str(given) == STDIN:
            yield STDIN, STDIN_ID, None, None
            continue
        path = Path(given)
        try:
            info = os.stat(path)
        except OSError as error:
            yield None, "", _missing(path, error), None
            continue
        if stat.S_ISDIR(info.st_mode):
            yield from _folder(path, globs, real_paths)
        else:
            problem = _not_regular(path, info.st_mode)
            yield path, str(given), problem, None if problem is not None else real_paths.of_path(path)


def _missing(path: Path, error: OSError) -> str:
    """Why a path given cannot be followed (a link loop, a broken link, no permission)."""
    if error.errno == errno.ELOOP:
        return f"{path}: symbolic link loop"
    if error.errno == errno.ENOENT and os.path.islink(path):
        return f"{path}: broken symbolic link (to {os.readlink(path)})"
    return f"{path}: cannot read ({error.strerror})"


def _not_regular(path: Path | str, mode: int) -> str | None:
    """Why a path that is not a folder is not read (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        # Reading a named pipe waits for a writer, maybe for ever.
        return f"{path}: a named pipe (FIFO), not a file; pipe it into standard input as -"
    if stat.S_ISSOCK(mode):
        return f"{path}: a socket, not a file"
    return f"{path}: a device, not a file"


def _suffix(name: str) -> str:
    return os.path.splitext(name)[1].lower()


@dataclass(frozen=True)
class _Found:
    """A file (or an unreadable folder) met walking a folder.

    Attributes:
        parts: Its path's parts below the folder walked (the sort key:
            paths sort by their parts, as :class:`~pathlib.Path` sorts them).
        path: Its path, the walked folder's joined with the parts.
        problem: Why it cannot be read, or None.
        read: Whether it is read (False: ignored).
        real: Its real path (without symbolic links) when read.
    """

    parts: tuple[str, ...]
    path: str
    problem: str | None
    read: bool
    real: str | None = None


def _folder(root: Path, globs: tuple[str, ...], real_paths: RealPaths) -> Iterator[_Entry]:
    """Every entry under a folder, sorted by path; ids are relative paths."""
    found: list[_Found] = []

    def wanted(parts: tuple[str, ...]) -> bool:
        if not globs:
            return _suffix(parts[-1]) in TEXT_SUFFIXES + JSONL_SUFFIXES
        relative = "/".join(parts)
        return any(fnmatch.fnmatchcase(relative, g) or fnmatch.fnmatchcase(parts[-1], g) for g in globs)

    # Strings, not Path objects, and one real path per folder: a folder of
    # 9,000 files took 0.9 s to list, most of it in pathlib and realpath.
    _walk(str(root), (), real_paths.folder(str(root)), found, wanted, real_paths)
    for entry in sorted(found, key=lambda entry: entry.parts):
        if entry.problem is not None:
            yield None, "", entry.problem, None
        elif entry.read:
            yield entry.path, "/".join(entry.parts), None, entry.real
        else:
            yield None, entry.path, None, None  # ignored


def _walk(
    folder: str,
    parts: tuple[str, ...],
    real: str,
    found: list[_Found],
    wanted: Callable[[tuple[str, ...]], bool],
    real_paths: RealPaths,
) -> None:
    # Links to folders are not followed (a loop could never end); links to
    # files are. An unreadable folder is reported like an unreadable file.
    # ``real`` is the folder's real path: no folder below the one given is
    # a link, so a file that is no link itself is its real path + its name.
    try:
        with os.scandir(folder) as entries:
            children = list(entries)
    except OSError as error:
        found.append(_Found(parts, folder, f"{Path(folder)}: cannot read folder ({error.strerror})", False))
        return
    for entry in children:
        named = (*parts, entry.name)
        # The path as pathlib writes it (`folder` is: str of the Path given),
        # without a Path per file (a third of the time of reading a folder
        # of 10,000 files).
        path = entry.name if folder == "." else os.path.join(folder, entry.name)
        if _is(entry.is_dir, follow_symlinks=False):
            _walk(path, named, os.path.join(real, entry.name), found, wanted, real_paths)
        elif wanted(named):
            real_path = real_paths.of_link(path, real) if _is(entry.is_symlink) else os.path.join(real, entry.name)
            found.append(_Found(named, path, _child_problem(path, entry), True, real_path))
        elif _is(entry.is_file):
            found.append(_Found(named, path, None, False))  # a file not chosen: ignored, named with --verbose


def _is(test: Callable[..., bool], **options: bool) -> bool:
    try:
        return test(**options)
    except OSError:
        return False


def _child_problem(path: str, entry: os.DirEntry) -> str | None:
    if _is(entry.is_file, follow_symlinks=False):
        # A regular file that is no link: the folder's listing tells (no
        # stat a file; they were a third of the time of reading a folder of
        # 9,000 files).
        return None
    try:
        mode = entry.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return f"{path}: symbolic link loop"
        if error.errno == errno.ENOENT and entry.is_symlink():
            return f"{path}: broken symbolic link (to {os.readlink(path)})"
        return f"{path}: cannot read ({error.strerror})"
    if stat.S_ISDIR(mode):
        return f"{path}: a link to a folder, not followed"
    return _not_regular(path, mode)


# --- JSONL ------------------------------------------------------------------


def _jsonl_documents(name: str, text: str) -> Iterator[tuple[str, Document | None, str | None]]:
    for where, record, problem in jsonl_records(name, text):
        if problem is not None:
            yield where, None, problem
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            yield where, None, f"{where}: expected an object with a string 'text'"
            continue
        doc_id = record.get("id")
        if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
            yield where, None, f"{where}: expected a string or integer 'id'"
            continue
        fields = {key: value for key, value in record.items() if key not in ("id", "text")}  # a date, a URL, ...
        yield where, Document(str(doc_id), record["text"], fields), None
