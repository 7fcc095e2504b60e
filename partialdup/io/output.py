"""Writing an output file safely: checked before the work, replaced in one step.

:func:`check_output` answers, before any work, whether a file can be written
(its folder exists, it is not a folder, the folder takes a new file), so a
typo costs no computation. :func:`atomic_output` writes the new content to a
temporary file in the same folder and renames it over the old file once it is
complete and on disk: an interrupt, a crash, a ``kill -9`` or a full disk
leaves the old file or the whole new one, never a part, and two runs writing
one file leave one whole result. The temporary file is a hidden
``.NAME.*.partialdup-tmp`` beside the target, removed on any error or
interrupt the process lives through; only a run killed outright (``kill -9``,
a power cut) can leave one behind, beside the intact old file. (An unnamed
``O_TMPFILE`` linked into place would leave none, but the link through
``/proc`` fails with EXDEV in containers, where it matters most.)

The new file gets the old one's permissions (and owner, when allowed), or
the usual ones for a new file (0666 less the umask). A symbolic link is
followed: its target is replaced, the link kept. A target that is not a
regular file (``/dev/null``, a named pipe) is written in place.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterator

from partialdup.core.errors import PartialdupError
from partialdup.core.signals import signals_deferred

__all__ = ["OutputError", "check_output", "check_folder", "atomic_output", "atomic_path"]

#: Suffix of the temporary files.
TEMP_SUFFIX = ".partialdup-tmp"


class OutputError(PartialdupError):
    """An output file that cannot be written (the message names it)."""


def check_output(path: str | Path) -> None:
    """Check that ``path`` can be written, before any work.

    Raises:
        OutputError: Its folder does not exist or is not a folder, it is a
            folder, it is a read-only file, or the folder takes no new file.
    """
    target = Path(os.path.realpath(path))
    folder = os.path.dirname(path) or "."
    try:
        info: os.stat_result | None = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror})") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{path}: is a folder")
    if info is not None and not stat.S_ISREG(info.st_mode):
        return  # a device or a pipe: written in place
    if not target.parent.is_dir():
        problem = "is not a folder" if target.parent.exists() else "does not exist"
        raise OutputError(f"{path}: folder {folder} {problem}")
    if info is not None and not os.access(target, os.W_OK):
        raise OutputError(f"{path}: cannot write (Permission denied)")
    try:  # the only sure test that the folder takes a new file
        _probe(target.parent, target.name)
    except OSError as error:
        raise OutputError(f"{path}: cannot write in folder {folder} ({error.strerror})") from None


def check_folder(path: str | Path) -> None:
    """Check that ``path`` is a folder that takes new files, or can be made, before any work.

    Raises:
        OutputError: It is a file, or the nearest existing folder above it
            takes no new file.
    """
    existing = Path(path)
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent  # made with its parents when the run writes
    if not existing.is_dir():
        raise OutputError(f"{path}: not a folder" if existing == Path(path) else f"{path}: {existing} is not a folder")
    try:
        _probe(existing, "probe")
    except OSError as error:
        raise OutputError(f"{path}: cannot write in folder {existing} ({error.strerror})") from None


@contextlib.contextmanager
def atomic_output(path: str | Path, *, sync: bool = True) -> Iterator[IO[str]]:
    """A UTF-8 text stream (``\\n`` line ends) that replaces ``path`` when the
    block ends without an error (see the module notes).

    Args:
        path: The file to replace.
        sync: Put the file and its folder on disk before returning (a power
            cut then keeps it too; a killed process needs no sync: the
            kernel has the data). False for many small files, where the
            syncs would cost more than the writing.

    Raises:
        OutputError: Writing failed (a full disk, an I/O error); the old file
            is intact and the temporary file removed.
    """
    with _replacing(path, sync) as temporary:
        if temporary is None:
            with open(os.path.realpath(path), "w", encoding="utf-8", newline="\n") as stream:
                yield stream
            return
        with os.fdopen(temporary.fd, "w", encoding="utf-8", newline="\n", closefd=False) as stream:
            yield stream
            stream.flush()
            if sync:
                os.fsync(temporary.fd)  # on disk before the rename makes it the file


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that needs a file name;
    it replaces ``path`` when the block ends without an error.

    Raises:
        OutputError: Writing failed; the old file is intact.
    """
    with _replacing(path) as temporary:
        yield temporary.path if temporary is not None else Path(os.path.realpath(path))


@contextlib.contextmanager
def _replacing(path: str | Path, sync: bool = True) -> Iterator[_Temporary | None]:
    """The temporary file that replaces ``path`` when the block ends without
    an error, or None for a device or a pipe (written in place)."""
    target = Path(os.path.realpath(path))
    if _special(target):
        with _reported(path):
            yield None
        return
    with contextlib.ExitStack() as removal:
        with signals_deferred(), _reported(path):  # made and its removal armed in one step
            temporary = _Temporary(target.parent, target.name)
            removal.callback(temporary.discard)
        with _reported(path):
            yield temporary
            temporary.commit(target, sync)


def _probe(folder: Path, name: str) -> None:
    """Make and remove a temporary file in ``folder`` (OSError if it takes none)."""
    with signals_deferred():
        _Temporary(folder, name).discard()


@contextlib.contextmanager
def _reported(path: str | Path) -> Iterator[None]:
    """An OSError inside becomes one line naming the output."""
    try:
        yield
    except OSError as error:
        raise OutputError(f"{path}: cannot write ({error.strerror or error})") from None


def _special(target: Path) -> bool:
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        return False


class _Temporary:
    """A hidden temporary file in the target's folder (a rename across file
    systems would be a copy, and not atomic).

    Args:
        folder: The target's folder.
        name: The target's file name, for the temporary's name.
    """

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = folder
        fd, path = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=TEMP_SUFFIX)
        self.fd = fd
        self.name: str | None = path
        try:
            os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes it 0600
        except OSError:
            self.discard()
            raise

    @property
    def path(self) -> Path:
        """The temporary file's path (until it is committed or discarded)."""
        assert self.name is not None
        return Path(self.name)

    def commit(self, target: Path, sync: bool = True) -> None:
        """Give the file the target's owner and permissions and rename it over the target."""
        assert self.name is not None
        _copy_owner_and_mode(self.fd, target)
        os.replace(self.name, target)
        self.name = None
        if sync:
            _sync_folder(self.folder)

    def discard(self) -> None:
        """Close and remove what is left (nothing after a commit)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.name is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.name)
            self.name = None


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it
    os.umask(mask)
    return mask


def _copy_owner_and_mode(fd: int, target: Path) -> None:
    try:
        old = os.stat(target)
    except FileNotFoundError:
        return
    with contextlib.suppress(OSError):  # only root may give a file away
        os.fchown(fd, old.st_uid, old.st_gid)
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def _sync_folder(folder: Path) -> None:
    # The rename is on disk only once the folder is: a power cut after it
    # could otherwise bring the old file back, or leave none.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
