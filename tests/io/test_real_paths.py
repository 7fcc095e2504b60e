"""RealPaths against os.path.realpath, its reference."""

import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.io.real_paths import RealPaths

# A small tree: folders, files in them, and links of every kind among them.
FOLDERS = ("a", "a/b", "c")
FILES = ("a/x.txt", "a/b/y.txt", "c/z.txt")
#: Where a link may point, from anywhere: files, folders, links (chains),
#: names that do not exist, and paths through "..", "." and linked folders.
TARGETS = (
    "x.txt", "b/y.txt", "../c/z.txt", "./x.txt", "../a/b/../x.txt", "nothing.txt", "b", "..", ".", "b/",
    "l0", "l1", "../a/l2", "dl/y.txt", "dl/../x.txt", "dl/l3",
)
LINKS = ("a/l0", "a/l1", "a/l2", "a/b/l3", "c/l4", "a/dl")


@st.composite
def trees(draw):
    """Each link's target: relative, or absolute (the folder's path joined)."""
    return [(link, draw(st.sampled_from(TARGETS)), draw(st.booleans())) for link in LINKS]


def _made(root: str, links) -> None:
    for folder in FOLDERS:
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    for name in FILES:
        with open(os.path.join(root, name), "w", encoding="utf-8") as handle:
            handle.write(name)
    for link, target, absolute in links:
        where = os.path.join(root, link)
        os.symlink(os.path.join(os.path.dirname(where), target) if absolute else target, where)


@settings(max_examples=150, deadline=None)
@given(trees())
def test_each_path_has_the_real_path_realpath_gives(links):
    with tempfile.TemporaryDirectory() as scratch:
        # The scratch folder's own path may hold links (/tmp on some systems).
        root = os.path.join(scratch, "root")
        os.symlink(scratch, os.path.join(scratch, "via"))
        _made(root, links)
        real_paths = RealPaths()  # one for all: the folders it remembers are shared
        for given_root in (root, os.path.join(scratch, "via", "root")):
            for name in (*FILES, *FOLDERS, "a/b/..", "a/.", "a/b/", *(link for link, _, _ in links)):
                path = os.path.join(given_root, name)
                if not os.path.exists(path):
                    continue  # broken, or a loop: the reader reports it, and asks for no real path
                expected = os.path.realpath(path)
                # A path as given: absolute, relative to the working folder
                # (through ".."), or holding "." and ".." of its own.
                for given in (path, os.path.relpath(path), os.path.join(os.path.dirname(path), ".", "..", *name.split("/")[-2:])):
                    if os.path.exists(given):
                        assert real_paths.of_path(given) == os.path.realpath(given), given
                if os.path.islink(path):
                    assert real_paths.of_link(path, os.path.realpath(os.path.dirname(path))) == expected, name


def test_a_folder_of_links_to_one_folder_and_its_files_resolve_it_once(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "links").mkdir()
    for i in range(5):
        (tmp_path / "docs" / f"{i}.txt").write_text("x", encoding="utf-8")
        (tmp_path / "links" / f"{i}.txt").symlink_to(tmp_path / "docs" / f"{i}.txt")
    calls = []
    realpath = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda path: calls.append(path) or realpath(path))
    real_paths = RealPaths()
    real_folder = realpath(tmp_path / "links")
    found = [real_paths.of_link(str(tmp_path / "links" / f"{i}.txt"), real_folder) for i in range(5)]
    given = [real_paths.of_path(tmp_path / "docs" / f"{i}.txt") for i in range(5)]
    assert found == given == [realpath(tmp_path / "docs" / f"{i}.txt") for i in range(5)]
    assert calls == [str(tmp_path / "docs")]
