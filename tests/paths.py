"""Paths of the repository's real-text data used by the tests."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SLICE = REPO / "goldenset" / "slice"
SAMPLES = REPO / "samples"
