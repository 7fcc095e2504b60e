"""Evaluation on a PAN-format gold set: accuracy, space and time per method.

The gold set layout (see ``goldenset/README.md``): ``src/`` and ``susp/``
documents, a ``pairs`` file, PAN truth XML in ``truth/`` and the copied
sentence pairs in ``sentence_pairs.jsonl``.

Every method runs on the same sentences and tokens (computed once, timed
apart). For each method: *index time* is feature extraction for every
document plus building the inverted index of the source sentences; *compare
time* is querying every suspicious sentence against that index, bag-Jaccard
verification, sequence matching and edge refinement; *search time* is the
sentence-pair search alone (candidates from the index and their
verification, the paper's comparison), timed apart as the best of three
runs of :meth:`partialdup.index.sparse.SparseIndex.search`. *Index bytes* is the
size of a compact serialisation of the index: 8 bytes per distinct feature
plus 6 bytes per posting (4-byte sentence number, 2-byte multiplicity).
"""

from __future__ import annotations

import itertools
import json
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from partialdup.core.chars import is_han
from partialdup.core.config import Config
from partialdup.methods.base import method_spec
from partialdup.pipeline.detector import Detector
from partialdup.pipeline.factory import make_detector
from partialdup.text.idf import IdfTable
from partialdup.core.errors import InputError
from partialdup.core.types import Case
from partialdup.eval.metrics import PairRange, pair_score, pan_score
from partialdup.io.pan import read_features, read_pairs, detection_filename, span_detection
from partialdup.io.reader import read_text
from partialdup.index.sparse import ReferenceIndex, SparseIndex
from partialdup.core.types import Document, Span, TokenizedDocument

__all__ = [
    "GoldSet",
    "EvalRow",
    "Setting",
    "load_goldset",
    "tokenize_goldset",
    "evaluate_method",
    "evaluate_settings",
    "settings_grid",
    "index_bytes",
]


@dataclass(frozen=True)
class GoldSet:
    """A loaded gold set.

    Attributes:
        root: Its folder.
        pairs: ``(susp, src)`` document pairs to examine (positives and negatives).
        cases: Gold PAN cases of all pairs.
        sentence_pairs: Gold copied sentence pairs as character ranges
            ``(susp, susp_start, susp_end, src, src_start, src_end)``.
        sources: Source document texts by file name.
        suspicious: Suspicious document texts by file name.
    """

    root: Path
    pairs: tuple[tuple[str, str], ...]
    cases: tuple[Case, ...]
    sentence_pairs: tuple[PairRange, ...]
    sources: Mapping[str, str]
    suspicious: Mapping[str, str]


@dataclass(frozen=True)
class EvalRow:
    """One method at one setting, scored on the gold set."""

    method: str
    params: str
    threshold: float
    precision: float
    recall: float
    f1: float
    plagdet: float
    pan_recall: float
    pan_precision: float
    granularity: float
    features: int
    index_bytes: int
    index_seconds: float
    compare_seconds: float
    search_seconds: float
    by_kind: Mapping[str, float] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        row = asdict(self)
        for key, value in row.items():
            if isinstance(value, float):
                row[key] = round(value, 6)
        row["by_kind"] = {kind: round(value, 6) for kind, value in self.by_kind.items()}
        return row


def load_goldset(root: str | Path) -> GoldSet:
    """Read a gold set folder; raises :class:`InputError` naming what is missing."""
    root = Path(root)
    for needed in ("pairs", "src", "susp", "truth", "sentence_pairs.jsonl"):
        if not (root / needed).exists():
            raise InputError(f"{root / needed}: missing (not a partialdup gold set)")
    pairs = tuple(read_pairs(root / "pairs"))
    cases: list[Case] = []
    for susp, src in pairs:
        truth = root / "truth" / detection_filename(susp, src)
        if truth.exists():
            cases.extend(read_features(truth))
    sources = {src: read_text(root / "src" / src) for src in sorted({p[1] for p in pairs})}
    suspicious = {susp: read_text(root / "susp" / susp) for susp in sorted({p[0] for p in pairs})}
    return GoldSet(root, pairs, tuple(cases), tuple(_sentence_pairs(root / "sentence_pairs.jsonl")), sources, suspicious)


def _sentence_pairs(path: Path) -> Iterable[PairRange]:
    with path.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                yield (r["susp"], r["susp_start"], r["susp_end"], r["src"], r["src_start"], r["src_end"])
            except (json.JSONDecodeError, KeyError, TypeError):
                raise InputError(f"{path}:{lineno}: expected a sentence-pair record") from None


@dataclass(frozen=True)
class TokenizedGoldSet:
    """Sentences and tokens of every gold-set document, shared by all methods."""

    sources: tuple[TokenizedDocument, ...]
    suspicious: tuple[TokenizedDocument, ...]
    seconds: float


def tokenize_goldset(gold: GoldSet, detector: Detector) -> TokenizedGoldSet:
    """Split and tokenize every document once (timed; not part of any method's cost)."""
    start = time.perf_counter()
    sources = tuple(detector.tokenize(Document(name, text)) for name, text in gold.sources.items())
    suspicious = tuple(detector.tokenize(Document(name, text)) for name, text in gold.suspicious.items())
    return TokenizedGoldSet(sources, suspicious, time.perf_counter() - start)


def evaluate_method(
    gold: GoldSet,
    tokenized: TokenizedGoldSet,
    detector: Detector,
    *,
    method: str,
    params: str = "",
) -> EvalRow:
    """Score one detector (one method at one setting) on the gold set.

    Args:
        gold: The gold set.
        tokenized: Its sentences and tokens (see :func:`tokenize_goldset`).
        detector: The detector to score.
        method: Method name for the row.
        params: Parameter description for the row.

    Span edges are trimmed to the aligned characters when the detector's
    ``refine`` is on (as on the command line); that time counts in the
    compare time, and the sentence-pair scores do not depend on it.
    """
    start = time.perf_counter()
    sources = [detector.fingerprint(d) for d in tokenized.sources]
    suspicious = [detector.fingerprint(d) for d in tokenized.suspicious]
    index = detector.build_index(sources)
    index_seconds = time.perf_counter() - start

    start = time.perf_counter()
    spans = detector.check_against(suspicious, sources, index, only_pairs=set(gold.pairs)).spans
    compare_seconds = time.perf_counter() - start

    search_seconds = min(_timed(lambda: detector.search(suspicious, index)) for _ in range(3))

    pairs = pair_score(gold.sentence_pairs, _predicted_pairs(spans, sources, suspicious))
    detections = [_span_case(span) for span in spans]
    pan = pan_score(gold.cases, detections)
    features = sum(_feature_count(detector, bag) for doc in (*sources, *suspicious) for bag in doc.bags)
    return EvalRow(
        method=method,
        params=params,
        threshold=detector.threshold,
        precision=pairs.precision,
        recall=pairs.recall,
        f1=pairs.f1,
        plagdet=pan.plagdet,
        pan_recall=pan.recall,
        pan_precision=pan.precision,
        granularity=pan.granularity,
        features=features,
        index_bytes=index_bytes(index),
        index_seconds=index_seconds,
        compare_seconds=compare_seconds,
        search_seconds=search_seconds,
        by_kind=plagdet_by_kind(gold, detections),
    )


def language(text: str) -> str:
    """``zh`` when at least a fifth of a text's letters are Han, else ``en``
    (as ``scripts/pan_measures.py --susp-dir``)."""
    letters = [char for char in text if char.isalpha()]
    return "zh" if letters and 5 * sum(1 for char in letters if is_han(char)) >= len(letters) else "en"


def plagdet_by_kind(gold: GoldSet, detections: Sequence[Case]) -> dict[str, float]:
    """plagdet per kind of copy and language of the suspicious document:
    ``"verbatim en"``, ``"random zh"``, ... (the obfuscation labels of the
    truth; a random case's level is in its set). A detection counts for the
    label of the case it overlaps most; detections that overlap no case
    (false positives of negative pairs) count in the whole set's plagdet
    only, as in ``scripts/pan_measures.py``."""
    by_pair: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in gold.cases:
        by_pair[(case.susp_doc, case.src_doc)].append(case)
    languages = {name: language(text) for name, text in gold.suspicious.items()}

    def kind(item: Case, label: str) -> str:
        return f"{label or '-'} {languages.get(item.susp_doc, 'en')}"

    def label_of(detection: Case) -> str | None:
        best, most = None, 0
        for case in by_pair.get((detection.susp_doc, detection.src_doc), ()):
            overlap = min(case.this_end, detection.this_end) - max(case.this_offset, detection.this_offset)
            if overlap > most:
                best, most = case, overlap
        return None if best is None else best.obfuscation

    cases: dict[str, list[Case]] = defaultdict(list)
    for case in gold.cases:
        cases[kind(case, case.obfuscation)].append(case)
    found: dict[str, list[Case]] = defaultdict(list)
    for detection in detections:
        label = label_of(detection)
        if label is not None:
            found[kind(detection, label)].append(detection)
    return {name: pan_score(cases[name], found[name]).plagdet for name in sorted(cases)}


def index_bytes(index: ReferenceIndex | SparseIndex) -> int:
    """Size of a compact serialisation of an index: 8 bytes per distinct
    feature plus 6 per posting (4-byte sentence number, 2-byte multiplicity)."""
    return 8 * index.feature_count() + 6 * index.posting_count()


def _feature_count(detector: Detector, bag: Mapping[int, int]) -> int:
    # A bag's multiplicities are features for the bag and word-set methods;
    # SimHash-Cosine's counts are quantised weights, so the entries count.
    if detector.method.search_kind in ("bag", "set"):
        return sum(bag.values())
    return len(bag)


def _timed(step: Callable[[], object]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def _span_case(span: Span) -> Case:
    this_offset, this_length, source_offset, source_length = span_detection(span)
    return Case(span.a, this_offset, this_length, span.b, source_offset, source_length)


def _predicted_pairs(spans: Sequence[Span], sources: Sequence, suspicious: Sequence) -> list[PairRange]:
    src_sentences = {d.id: d.sentences for d in sources}
    susp_sentences = {d.id: d.sentences for d in suspicious}
    predicted: list[PairRange] = []
    for span in spans:
        for pair in span.pairs:
            a, b = susp_sentences[span.a][pair.a], src_sentences[span.b][pair.b]
            predicted.append((span.a, a.start, a.end, span.b, b.start, b.end))
    return predicted


@dataclass(frozen=True)
class Setting:
    """One row of an evaluation: a method with its configuration.

    Attributes:
        method: The registered method name.
        config: Every parameter.
        params: The row's parameter description (``n=10`` for Low-IDF-Sig,
            plus every parameter that was swept).
    """

    method: str
    config: Config
    params: str


def settings_grid(methods: Sequence[str], sweeps: Mapping[str, Sequence[object]], base: Config = Config()) -> list[Setting]:
    """Every combination of the swept values, per method.

    Args:
        methods: Registered method names, in the order of the rows.
        sweeps: Parameter (dotted for a method's own: ``low_idf_sig.antecedents``)
            -> the values to try. A method's own parameters are swept only for
            the methods they belong to; everything else for all.
        base: The parameters not swept.

    Raises:
        ConfigError: A method or parameter is unknown, or a value out of range
            (before any work is done).
    """
    settings = []
    for method in methods:
        group = method_spec(method).params_field
        own = {name: values for name, values in sweeps.items() if "." not in name or name.startswith(group + ".")}
        names = list(own)
        for values in itertools.product(*(own[name] for name in names)):
            config = base.changed({"method": method, **dict(zip(names, values))})
            described = [name for name, swept in own.items() if len(swept) > 1 and name != "threshold"]
            if group == "low_idf_sig" and "low_idf_sig.antecedents" not in described:
                described.insert(0, "low_idf_sig.antecedents")
            settings.append(Setting(method, config, config.describe(described).replace("antecedents=", "n=")))
    return settings


def evaluate_settings(gold: GoldSet, settings: Sequence[Setting], idf: IdfTable) -> tuple[TokenizedGoldSet, Iterator[EvalRow]]:
    """Tokenize the gold set once, then score each setting (lazily, row by row).

    Returns:
        The tokenized gold set (its ``seconds`` is known at once) and the rows.
    """
    shared = make_detector(None, idf, settings[0].config if settings else Config())
    tokenized = tokenize_goldset(gold, shared)

    def rows() -> Iterator[EvalRow]:
        for setting in settings:
            detector = make_detector(setting.method, idf, setting.config, tokenizer=shared.tokenizer, splitter=shared.splitter)
            yield evaluate_method(gold, tokenized, detector, method=setting.method, params=setting.params)

    return tokenized, rows()
