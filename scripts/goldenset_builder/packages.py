"""The Debian packages the gold set is built from, their versions and copyright files."""
from __future__ import annotations

import subprocess
import sys

__all__ = ["APT_LINE", "REQUIRED_PACKAGES", "TOOL_PACKAGES", "package_versions", "read_copyright"]

REQUIRED_PACKAGES = [
    "manpages-zh", "debian-reference-zh-cn", "debian-reference-zh-tw",
    "debian-reference-en", "debian-handbook", "maint-guide-zh-cn",
    "maint-guide-zh-tw", "installation-guide-amd64", "fortunes-zh",
    "bible-kjv", "bible-kjv-text", "base-files", "groff-base", "bsdextrautils",
]
# Conversion tools only: no text of theirs ends up in the set, so their
# copyright files are not copied to LICENSES/.
TOOL_PACKAGES = ("groff-base", "bsdextrautils")
# base-files is essential (always installed), so the install line leaves it out.
APT_LINE = ("apt-get install -y " + " ".join(
    p for p in REQUIRED_PACKAGES if p not in ("base-files",)))

_PY_MODULES = ("opencc", "rapidfuzz")


def _installed_version(pkg: str) -> str | None:
    r = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status} ${Version}", pkg],
                       capture_output=True, text=True)
    out = r.stdout.strip().split()
    if r.returncode != 0 or len(out) != 2 or out[0] != "installed":
        return None
    return out[1]


def package_versions() -> dict:
    """Versions of the required Debian packages; exit if any is missing.

    The Python modules opencc and rapidfuzz are checked too, so a missing
    dependency stops the build with a one-line message naming it.

    Returns:
        ``{package: version}`` for every package of :data:`REQUIRED_PACKAGES`.
    """
    vers = {}
    for p in REQUIRED_PACKAGES:
        v = _installed_version(p)
        if v is None:
            sys.exit(f"make_goldenset: Debian package '{p}' is not installed "
                     f"(run: {APT_LINE})")
        vers[p] = v
    for mod in _PY_MODULES:
        try:
            __import__(mod)
        except ImportError:
            sys.exit(f"make_goldenset: Python module '{mod}' is not installed")
    return vers


def read_copyright(pkg: str) -> str:
    """The text of a package's Debian copyright file.

    Args:
        pkg: A Debian package name.

    Returns:
        ``/usr/share/doc/PKG/copyright`` as text (undecodable bytes replaced).
    """
    with open(f"/usr/share/doc/{pkg}/copyright", encoding="utf-8", errors="replace") as f:
        return f.read()
