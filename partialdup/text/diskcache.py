"""What start-up can keep on disk between runs, in the user's own cache folder.

jieba's prefix dictionary and the parsed IDF tables take most of a run's
start (about a second, and half a second) to build from their text files, and
a fraction of that to read back with :mod:`marshal`. They are kept under
``$XDG_CACHE_HOME/partialdup`` (``~/.cache/partialdup``), one file per source
file version (path, size and modification time in its name), written whole to
a temporary file and renamed, so that a reader sees the old file, none or the
new one. A folder that cannot be used means no cache, never an error.

Every new version of a source (a new install, a new clone, an upgrade) makes
a new file, so writing one also removes the oldest of its kind beyond the
:data:`KEPT` newest (each about 8 MB for the IDF tables): a folder shared by
a few installs keeps each one's file, and old versions do not pile up.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Sequence

from partialdup.core.signals import signals_deferred

__all__ = ["KEPT", "user_cache_dir", "cache_path", "read_cached", "write_cached"]

#: Changes when what a cache file holds changes shape (old files are ignored).
_FORMAT = "1"

#: Files of one kind kept when another is written (the newest, by modification time).
KEPT = 4


def user_cache_dir() -> str | None:
    """The folder for partialdup's caches: ``$XDG_CACHE_HOME/partialdup`` or
    ``~/.cache/partialdup``, made private (0700) when missing; None when
    there can be no cache.

    jieba's own default is ``/tmp/jieba.cache``, one file for every user of
    the machine: once another user made it, writing it fails with a
    traceback, and reading it trusts a file anyone could have written. So the
    cache lives in the user's own folder, and when that folder cannot be made,
    is not a folder of this user's, is writable by others or is not writable,
    there is no cache.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG specification: relative values are ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "partialdup")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    own = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    private = not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    usable = stat.S_ISDIR(info.st_mode) and own and private and os.access(folder, os.W_OK | os.X_OK)
    return folder if usable else None


def cache_path(kind: str, sources: Sequence[str | Path], suffix: str = ".cache") -> str | None:
    """The cache file for what is made from ``sources``: ``KIND-HASH.cache``
    in :func:`user_cache_dir`, the hash of each source's absolute path, size
    and modification time. None when there is no cache folder or a source
    cannot be read."""
    folder = user_cache_dir()
    if folder is None:
        return None
    key = [_FORMAT, str(marshal.version)]
    try:
        for source in sources:
            info = os.stat(source)
            key.append(f"{os.path.abspath(source)}\0{info.st_size}\0{info.st_mtime_ns}")
    except OSError:
        return None
    digest = hashlib.blake2b("\n".join(key).encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    return os.path.join(folder, f"{kind}-{digest}{suffix}")


def read_cached(path: str | None) -> Any:
    """What :func:`write_cached` wrote to ``path``; None when there is none or
    it cannot be read (a broken file is simply made again)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read()
        # From bytes: marshal.load on a file reads it object by object, three
        # times slower on a table of words.
        return marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def write_cached(path: str | None, value: Any) -> None:
    """Write ``value`` (plain data) to ``path`` whole, or not at all."""
    if path is None:
        return
    with contextlib.suppress(OSError), contextlib.ExitStack() as removal:
        with signals_deferred():  # made and its removal armed in one step
            handle, temporary = tempfile.mkstemp(prefix=".partial-", dir=os.path.dirname(path))
            removal.callback(_remove, temporary)
            file = removal.enter_context(os.fdopen(handle, "wb"))
        marshal.dump(value, file)
        file.close()  # whole before it is renamed into place
        os.replace(temporary, path)
        removal.pop_all()  # it is the file now
        _prune(path)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _prune(path: str) -> None:
    """Remove the files of ``path``'s kind (``KIND-HASH.SUFFIX`` beside it)
    beyond the :data:`KEPT` newest; ``path`` itself stays. A reader holding
    one open still reads it whole; one about to open it finds none and makes
    it again."""
    folder, name = os.path.split(path)
    kind, _, rest = name.rpartition("-")
    suffix = os.path.splitext(rest)[1]
    if not kind:
        return
    with contextlib.suppress(OSError):
        siblings = []
        for entry in os.scandir(folder):
            other_kind, _, other_rest = entry.name.rpartition("-")
            if other_kind == kind and other_rest.endswith(suffix) and entry.name != name and entry.is_file(follow_symlinks=False):
                siblings.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
        for _, stale in sorted(siblings, reverse=True)[KEPT - 1:]:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, stale))
