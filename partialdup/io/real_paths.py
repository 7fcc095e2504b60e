"""The real paths of symbolic links to files, for a folder's many links.

A file reached twice (two links, or a link and the file itself) is read once:
the reader keys each file by its real path. ``os.path.realpath`` finds it
by walking every component of the path, one ``lstat`` each: reading a
folder of 9,161 links to the files of another folder (as ``scripts/bench.py``
reads its corpus) took 1.13-1.19 s of CPU with it, 0.69-0.77 s with
:class:`LinkedRealPaths`, and the files themselves 0.34 s (docs/benchmark.md,
session 41).
"""

from __future__ import annotations

import os

__all__ = ["LinkedRealPaths"]


class LinkedRealPaths:
    """The real path of a link to a file, its target's folder resolved once.

    Most links point at a file that is no link itself, in a folder that
    the other links' targets share: its real path is that folder's real
    path (``os.path.realpath``, remembered) and its name. Every other link
    (a chain of links, a target named ``..``, one that cannot be read) goes
    to ``os.path.realpath``, the reference; a property test holds the two
    to the same paths.
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def __call__(self, link: str, real_folder: str) -> str:
        """``os.path.realpath(link)``, for a link to a file or folder that
        exists (the reader asks for no other: it reports a broken link or a
        loop instead; ``realpath`` then makes a path up, its own way).

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
        real = self._folders.get(folder)
        if real is None:
            real = self._folders[folder] = os.path.realpath(folder)
        path = os.path.join(real, name)
        return os.path.realpath(link) if os.path.islink(path) else path
