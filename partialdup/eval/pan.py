"""The PAN text-alignment task run (PAN 2012-2015): pairs in, one XML file per pair out.

Every source is indexed once and every suspicious document queried once;
only the listed pairs are reported. Seeing the whole collection is also
what lets boilerplate (sentences in many sources) be recognised.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from partialdup.core.types import Document
from partialdup.io.pan import Detection as PanDetection
from partialdup.io.pan import detection_filename, read_pairs, span_detection, write_detections
from partialdup.io.reader import read_text
from partialdup.pipeline.detector import Detector

__all__ = ["PanRun", "run_pan"]


@dataclass(frozen=True)
class PanRun:
    """What a PAN run wrote.

    Attributes:
        pairs: Document pairs listed (one XML file each).
        detections: Detections written, over all pairs.
    """

    pairs: int
    detections: int


def run_pan(detector: Detector, pairs_file: Path, src_dir: Path, susp_dir: Path, out_dir: Path) -> PanRun:
    """Align every listed (suspicious, source) pair and write PAN detection XML.

    Args:
        detector: The detector to run.
        pairs_file: Lines ``SUSP SRC``.
        src_dir: Folder of the source documents.
        susp_dir: Folder of the suspicious documents.
        out_dir: Folder for the XML files (made when missing).

    Raises:
        PanFormatError: The pairs file is malformed.
        InputError: A listed document cannot be read.
    """
    pairs = read_pairs(pairs_file)
    sources = [detector.features(Document(name, read_text(src_dir / name))) for name in sorted({src for _, src in pairs})]
    suspicious = [detector.features(Document(name, read_text(susp_dir / name))) for name in sorted({susp for susp, _ in pairs})]
    found = detector.check_against(suspicious, sources, detector.build_index(sources), only_pairs=set(pairs))
    by_pair: dict[tuple[str, str], list[PanDetection]] = {pair: [] for pair in pairs}
    for span in found.spans:
        by_pair[(span.a, span.b)].append(span_detection(span))
    out_dir.mkdir(parents=True, exist_ok=True)
    for (susp, src), detections in by_pair.items():
        write_detections(out_dir / detection_filename(susp, src), susp, src, detections)
    return PanRun(len(pairs), len(found.spans))
