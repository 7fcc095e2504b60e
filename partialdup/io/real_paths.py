"""The real paths of many files, each folder resolved once.

A file reached twice (two links, two paths, or a link and the file itself)
is read once: the reader keys each file by its real path.
``os.path.realpath`` finds it by walking every component of the path, one
``lstat`` each. Reading a folder of 9,161 links to the files of another
folder (as ``scripts/bench.py`` read its corpus until session 42) took
1.13-1.19 s of CPU with it, 0.69-0.77 s with :meth:`RealPaths.of_link`, and
the files themselves 0.34 s (docs/benchmark.md, session 41). From a cold
cache, each link's target is one more disk read (session 42). The same
files named one by one (``detect corpus/*.txt``) were read in 0.66-0.71 s
with it, 0.45 s with :meth:`RealPaths.of_path`.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["RealPaths"]


class RealPaths:
    """Real paths of files, their folders' resolved once and remembered.

    Most files are no link themselves, or a link to a file that is none, in
    a folder that many others share: the real path is that folder's real
    path (``os.path.realpath``, remembered) and the file's name. Every other
    path (a chain of links, a name ``..``, a link that cannot be read) goes
    to ``os.path.realpath``, the reference; a property test holds the two to
    the same paths.

    Both methods answer as ``os.path.realpath`` for a path to a file or
    folder that exists. The reader asks for no other: it reports a broken
    link or a loop instead (``realpath`` then makes a path up, its own way).
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def folder(self, folder: str) -> str:
        """``os.path.realpath(folder)``, remembered."""
        real = self._folders.get(folder)
        if real is None:
            real = self._folders[folder] = os.path.realpath(folder)
        return real

    def of_path(self, path: str | Path) -> str:
        """``os.path.realpath(path)``: any path (relative, a link or not)."""
        folder, name = os.path.split(os.fspath(path))
        if name in ("", ".", ".."):
            return os.path.realpath(path)
        real_folder = self.folder(folder)  # "" is the working folder, as for realpath
        if os.path.islink(path):
            return self.of_link(os.fspath(path), real_folder)
        return os.path.join(real_folder, name)

    def of_link(self, link: str, real_folder: str) -> str:
        """``os.path.realpath(link)`` of a symbolic link.

        Args:
            link: A symbolic link.
            real_folder: The real path of the folder holding ``link``.
        """
        try:
            target = os.readlink(link)
        except OSError:
            return os.path.realpath(link)
        # A relative target is read from the link's own folder.
        folder, name = os.path.split(os.path.join(real_folder, target))
        if name in ("", ".", ".."):
            return os.path.realpath(link)
        path = os.path.join(self.folder(folder), name)
        return os.path.realpath(link) if os.path.islink(path) else path
