"""PAN text-alignment file formats: pairs lists and detection/truth XML.

The PAN 2012-2015 text-alignment task gives a ``pairs`` file, one
``suspicious-documentXXXXX.txt source-documentYYYYY.txt`` line per document
pair, and expects one XML file per pair::

    <document reference="SUSP">
    <feature name="detected-plagiarism" this_offset="5" this_length="10"
             source_reference="SRC" source_offset="7" source_length="12"/>
    </document>

The gold (truth) files use the same layout with ``name="plagiarism"`` and
extra attributes such as ``obfuscation``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Iterable

from partialdup.core.errors import PanFormatError
from partialdup.core.types import Case, Span
from partialdup.io.output import atomic_output

__all__ = [
    "Detection",
    "read_pairs",
    "write_detections",
    "read_features",
    "detection_filename",
    "span_detection",
]

#: One detection inside a document pair:
#: ``(this_offset, this_length, source_offset, source_length)``, in characters.
Detection = tuple[int, int, int, int]

_OFFSET_ATTRIBUTES = ("this_offset", "this_length", "source_offset", "source_length")


def read_pairs(path: str | Path) -> list[tuple[str, str]]:
    """Read a PAN pairs file.

    Args:
        path: The file; each non-blank line holds a suspicious and a source
            document reference separated by white space.

    Returns:
        ``(susp, src)`` tuples in file order.

    Raises:
        PanFormatError: A line does not hold exactly two fields
            (message ``"path:line: ..."``).
    """
    pairs: list[tuple[str, str]] = []
    with Path(path).open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, 1):
            fields = line.split()
            if not fields:
                continue  # blank lines (e.g. a trailing one) carry nothing
            if len(fields) != 2:
                raise PanFormatError(f"{path}:{lineno}: expected 'SUSP SRC', got {line.strip()[:80]!r}")
            pairs.append((fields[0], fields[1]))
    return pairs


def detection_filename(susp: str, src: str) -> str:
    """Name of the detection file PAN expects for a document pair.

    Args:
        susp: Suspicious document reference, e.g. ``suspicious-document00001.txt``.
        src: Source document reference.

    Returns:
        ``"{stem(susp)}-{stem(src)}.xml"``, e.g.
        ``suspicious-document00001-source-document00002.xml``.
    """
    return f"{Path(susp).stem}-{Path(src).stem}.xml"


def span_detection(span: Span) -> Detection:
    """Turn a :class:`~partialdup.core.types.Span` into a detection tuple.

    Document A of the span is taken as the suspicious document and B as the
    source (``check`` puts the query in A).

    Args:
        span: A detected copied passage.

    Returns:
        ``(this_offset, this_length, source_offset, source_length)``.
    """
    return (span.a_start, span.a_end - span.a_start, span.b_start, span.b_end - span.b_start)


def write_detections(
    path: str | Path,
    susp_ref: str,
    src_ref: str,
    detections: Iterable[Detection],
) -> None:
    """Write one document pair's detections as a PAN XML file.

    The output is deterministic: detections sorted, attributes in a fixed
    order, XML-escaped, UTF-8, ``\\n`` line ends and a trailing newline. The
    file is replaced whole (see :func:`partialdup.io.output.atomic_output`).

    Args:
        path: The file to write (see :func:`detection_filename`).
        susp_ref: Reference of the suspicious document (file name).
        src_ref: Reference of the source document (file name).
        detections: ``(this_offset, this_length, source_offset, source_length)``
            tuples, in characters.
    """
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<document reference={_attr(susp_ref)}>"]
    for this_offset, this_length, source_offset, source_length in sorted(detections):
        lines.append(
            '<feature name="detected-plagiarism"'
            f' this_offset="{int(this_offset)}" this_length="{int(this_length)}"'
            f" source_reference={_attr(src_ref)}"
            f' source_offset="{int(source_offset)}" source_length="{int(source_length)}"/>'
        )
    lines.append("</document>")
    with atomic_output(path, sync=False) as handle:  # a killed run leaves whole files only
        handle.write("\n".join(lines) + "\n")


def _attr(value: str) -> str:
    """A double-quoted, escaped XML attribute value."""
    escaped = (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        # a parser normalises raw white space in attributes to spaces
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )
    return f'"{escaped}"'


def read_features(path: str | Path) -> list[Case]:
    """Read the plagiarism features of a PAN truth or detection XML file.

    Every ``<feature>`` that carries the four offset attributes is read,
    whatever its ``name`` (``plagiarism``, ``detected-plagiarism``, ...);
    features without them (e.g. ``about``) are skipped.

    Args:
        path: The XML file; its root element's ``reference`` attribute names
            the suspicious document.

    Returns:
        One :class:`~partialdup.eval.metrics.Case` per feature, in file order, with
        the ``obfuscation`` attribute kept when present.

    Raises:
        PanFormatError: The XML is malformed, the root has no ``reference``, or
            a feature has an incomplete or non-integer offset set.
    """
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        raise PanFormatError(f"{path}: malformed XML: {error}") from None
    susp_ref = root.get("reference")
    if susp_ref is None:
        raise PanFormatError(f"{path}: root element <{root.tag}> has no 'reference' attribute")
    cases: list[Case] = []
    for number, feature in enumerate(root.iter("feature"), 1):
        present = [name for name in _OFFSET_ATTRIBUTES if name in feature.attrib]
        if not present:
            continue
        cases.append(_feature_case(path, number, feature, susp_ref))
    return cases


def _feature_case(path: str | Path, number: int, feature: ElementTree.Element, susp_ref: str) -> Case:
    """Build the case of one ``<feature>``; ``number`` counts features from 1."""
    where = f"{path}: feature {number}"
    missing = [name for name in (*_OFFSET_ATTRIBUTES, "source_reference") if name not in feature.attrib]
    if missing:
        raise PanFormatError(f"{where}: missing attribute(s) {', '.join(missing)}")
    try:
        numbers = [int(feature.attrib[name]) for name in _OFFSET_ATTRIBUTES]
        return Case(
            susp_ref,
            numbers[0],
            numbers[1],
            feature.attrib["source_reference"],
            numbers[2],
            numbers[3],
            obfuscation=feature.get("obfuscation", ""),
        )
    except ValueError as error:
        raise PanFormatError(f"{where}: bad offset: {error}") from None
