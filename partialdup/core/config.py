"""One configuration: every parameter of the pipeline and of each method, declared once.

A parameter is a dataclass field made with :func:`param`, which records its
default, its range, its help text and its command-line flag. Everything else
is derived from that one declaration:

* the library: :class:`Config` (frozen, validated on construction);
* the command line: :mod:`partialdup.cli.options` turns every field into an
  option (``--gap``, ``--antecedents``, ``--no-refine``, ...), help text and
  default included;
* the evaluation: ``partialdup eval`` takes the same options with several
  values each and scores every combination.

The pipeline's parameters sit at the top of :class:`Config`; each method's
own parameters, with its default threshold, sit in a nested dataclass
(:class:`LowIdfSigParams`, :class:`ShingleParams`, :class:`IMatchParams`,
:class:`SpotSigParams`; one per algorithm, as datatrove keeps one config
per step). Adding a parameter means adding one field here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from partialdup.core import method_params
from partialdup.core.errors import ConfigError
from partialdup.core.method_params import (  # noqa: F401 (re-exported, see __all__)
    DEFAULT_SKIP_WORDS,
    IMatchParams,
    JaccardParams,
    LowIdfSigParams,
    MethodParams,
    MinHashParams,
    PinyinParams,
    ShingleParams,
    SimHashParams,
    SpotSigParams,
)
from partialdup.core.params import ParamInfo, check_ranges, flag_of, param, params_of

# The method parameters are re-exported: `from partialdup.core.config import LowIdfSigParams`.
__all__ = ["CROWD_DOCUMENTS", "Config", "ParamInfo", "param", "params_of", "flag_of"]
__all__ += method_params.__all__

#: ``detect``: a sentence whole-matched in this many other documents or more
#: (or ``boilerplate``, if larger) is boilerplate whatever else is found; the
#: search never makes the pairs among such sentences (see
#: :func:`partialdup.match.boilerplate.crowd_documents`).
CROWD_DOCUMENTS = 32


@dataclass(frozen=True)
class Config:
    """Every parameter of a run: the pipeline's, and each method's nested.

    Frozen and validated: an out-of-range value raises :class:`ConfigError`
    naming the option. ``dataclasses.replace`` makes a changed copy.

    Attributes:
        method: The registered method that makes the fingerprints (see
            :mod:`partialdup.methods`).
        threshold: τ; None means the chosen method's own default (0.6 for
            low-idf-sig).
        containment: Two sentences are also copies when this share of the
            smaller one's features lies in the larger (their boundaries
            differ: a verse copied out of a longer sentence, a heading pasted
            in front of another sentence); 0 turns the rule off.
        min_contained: The smaller sentence needs at least this many features
            for the containment rule.
        gap: Unmatched sentences tolerated inside one span, on either side.
        max_postings: Features held by more different sentences (identical
            sentences count once) are not used to find candidates (reported
            in the run's statistics).
        max_sentence_chars: A run of text without a terminator is cut into
            sentences of at most this many characters.
        min_tokens: Sentences with fewer tokens are not matched on their own
            (a heading such as "描述" or "See also" recurs everywhere); they
            can still lie inside a span, between matched sentences.
        boilerplate: Template text (a licence line, a man-page footer) is
            set apart, not reported as a copy: a passage most of whose
            copies (sentences linked by copied pairs, directly or through
            other copies) are each copied in this many other documents or
            more (``check``: reference documents); the same verdict for
            every pair of documents that share it (see
            :mod:`partialdup.match.boilerplate`); 0 turns this off.
        refine: Trim span edges to the aligned characters where the text is
            known (see :mod:`partialdup.match.refine`).
        near_ratio: A pair the index finds with bag-Jaccard below τ but at
            least τ / 2 is also a copy when the two sentences' normalised
            letters and digits agree at this rapidfuzz ratio (0-100; see
            :mod:`partialdup.match.verify`); 0 turns the second look off.
        embedded_ratio: A pair the index finds with half of the smaller bag
            in the larger is also a copy when the shorter sentence's letters
            lie inside the longer's at this rapidfuzz partial_ratio (0-100):
            a sentence copied into another without a sentence boundary, or
            quoted inside it; 0 turns it off.
        min_shared: A pair that shares fewer features than this (one or two
            chains, which different sentences share by chance: 你也可以使用…)
            is a copy only when another pair of the two documents could
            chain with it, or its characters agree. A rejoined pair of
            sentences needs this many shared features outright. 1 turns both
            off.
        rejoin: Also match two neighbouring sentences read as one where a
            line break may have cut a sentence in two (see
            :func:`partialdup.text.sentences.rejoinable`).
        edited_ratio: Edited copies (see :mod:`partialdup.match.edited`): a
            pair the index finds sharing any feature is a copy when the two
            sentences' normalised words agree at this rapidfuzz ratio
            (0-100); a pair of whole sentences of similar length that the
            features accept but whose words agree less is kept only beside
            a pair that reaches it (template sentences that differ in their
            key words). 0 turns the stage and the check off.
        edited_neighbour_ratio: Beside a copied pair (within gap + 1
            sentences, in order on both sides), and between the pairs of a
            span, a sentence pair is a copy when its words agree at this
            ratio: the neighbours of an edited copy.
        quotes: Also look up the quotations inside longer sentences (text
            between 「」, “”, "" or ''), as sentences of their own, so that a
            quoted sentence is found as an embedded copy.
        headlines: Also find a headline (a line of its own, no terminator,
            4-15 tokens) copied verbatim into a longer sentence of another
            document (see :mod:`partialdup.match.embedded`).
        single_origin: In ``check`` (A = query), a query passage has one
            origin per reference document: a span whose query side lies
            mostly inside longer spans of the same pair is dropped (see
            :mod:`partialdup.match.origin`). ``detect`` keeps every span.
        jobs: Worker processes for the features and the pair checks (see
            :mod:`partialdup.pipeline.parallel`); 0 means one per core
            (``os.cpu_count()``), 1 runs everything in the calling process.
            The output does not depend on it.
        engine: ``local`` (this machine) or ``dask`` (see
            :mod:`partialdup.engine`); the output does not depend on it.
        scheduler: For the Dask engine, the address of a running scheduler;
            empty starts a local cluster of ``jobs`` workers.
        segmenter: The Chinese word segmenter (see
            :mod:`partialdup.text.segmenters`); stores record it.
        jieba_mode: jieba's segmentation mode, ``accurate``, ``full`` or
            ``search`` (see :data:`partialdup.text.segmenters.MODES`); one
            per ``eval`` run (the gold set is tokenized once); stores record it.
        exact: ``bloom`` or ``trie``: an exact first stage pairs sentences
            with equal fingerprints before the near-duplicate search (see
            :mod:`partialdup.index.exact_first`); ``off`` by default.
        exact_rate: The Bloom filter's design false-positive rate.
        low_idf_sig: Low-IDF-Sig's parameters.
        shingle: k-Shingle's parameters.
        i_match: I-Match's parameters.
        spotsig: SpotSig's parameters.
        jaccard: Word-set Jaccard's parameters.
        simhash: SimHash's parameters.
        minhash: MinHash's parameters.
        pinyin: Pinyin first-letter codes' parameters.
    """

    method: str = param("low-idf-sig", "fingerprint method", cli=False)
    threshold: float | None = param(
        None, "tau, minimum similarity of a copied sentence pair (default: the method's, 0.6 for low-idf-sig)",
        low=0.0, high=1.0, above=True,
    )
    containment: float = param(
        0.8, "also a copy: this share of the smaller sentence's features in the larger", low=0.0, high=1.0, off=0
    )
    min_contained: int = param(3, "features the smaller sentence needs for --containment", low=1)
    gap: int = param(3, "unmatched sentences tolerated inside a span", low=0)
    max_postings: int = param(2000, "ignore features in more different sentences than this for candidates", low=1)
    max_sentence_chars: int = param(
        1000, "cut text without a terminator into sentences of at most this many characters", low=1, sweep=False
    )
    min_tokens: int = param(3, "sentences with fewer tokens are not matched on their own", low=1)
    boilerplate: int = param(
        3,
        "boilerplate rule: set apart, not reported as copies, a passage whose copies are mostly each found in this "
        "many other documents (check: references), the same for every pair that shares it; in detect, a sentence "
        f"found whole in {CROWD_DOCUMENTS} (or this many, if more) other documents always is; --show-boilerplate "
        "names them",
        low=0,
        off=0,
    )
    refine: bool = param(True, "keep whole-sentence span edges (no character-level trimming)", flag="--no-refine")
    # One character deleted or doubled in ten gives ratio 95, one replaced 90,
    # a two-character word replaced in twenty 90; two template sentences that
    # differ in what they are about (显示版本信息并退出 / 显示帮助信息并退出) give 78.
    near_ratio: float = param(
        90.0, "a pair with bag-Jaccard in [tau/2, tau) is also a copy when its normalised letters agree at this "
        "rapidfuzz ratio", low=0.0, high=100.0, off=0,
    )
    # The best window of the longer text may differ from the shorter in one
    # character in twenty: stricter than near_ratio, since the window is
    # chosen to fit.
    embedded_ratio: float = param(
        95.0, "a sentence copied inside a longer one (no sentence boundary between it and the host text, or quoted) "
        "is a copy when its normalised letters lie inside the longer's at this rapidfuzz partial_ratio",
        low=0.0, high=100.0, off=0,
    )
    min_shared: int = param(
        3, "a pair sharing fewer features is a copy only when another pair could chain with it or its characters "
        "agree", low=1, off=1,
    )
    rejoin: bool = param(
        True, "do not also match neighbouring sentences read as one across a line break that may be a wrap",
        flag="--no-rejoin",
    )
    # Edited copies (PAN-style random obfuscation: words deleted, replaced,
    # inserted, swapped). One word in five changed leaves a sentence's words
    # at a rapidfuzz ratio of 80-90 with its source; two template sentences
    # that differ in their key words (可读（r）权限允许所有者检查文件的内容 /
    # …列出目录内的内容) give 76. See docs/design.md, "edited copies".
    edited_ratio: float = param(
        80.0, "a sentence pair the index finds (any shared feature) is a copy when its words agree at this rapidfuzz "
        "ratio; every pair of whole sentences the features accept must reach it too, or lie beside a pair that "
        "does", low=0.0, high=100.0, off=0,
    )
    edited_neighbour_ratio: float = param(
        70.0, "beside a copied pair (within gap + 1 sentences, in order), a sentence pair is a copy when its words "
        "agree at this rapidfuzz ratio", low=0.0, high=100.0,
    )
    quotes: bool = param(
        True, "do not also look up quotations inside longer sentences (text between 「」, “”, \"\" or '')",
        flag="--no-quotes",
    )
    headlines: bool = param(
        True, "do not also look for headlines (a line of its own without a terminator) copied verbatim inside longer "
        "sentences", flag="--no-headlines",
    )
    single_origin: bool = param(
        True, "check/pan: also report a query passage's matches with repeats in the same reference "
        "(default: one origin per passage)", flag="--all-origins",
    )
    # jieba is the reference; rjieba (jieba-rs, the same algorithm and
    # dictionary in Rust) gives the same tokens on every gold-set sentence
    # and the same gold-set scores, at about 3x the tokenizer's speed and a
    # fifth of jieba's load time (docs/design.md, "Segmentation backends").
    segmenter: str = param(
        "rjieba", "Chinese word segmenter: rjieba (jieba-rs: jieba's algorithm and dictionary in Rust) or jieba "
        "(the pure-Python reference)", choices=("rjieba", "jieba"), sweep=False,
    )
    # The public-opinion de-duplication seed compares jieba's three modes.
    jieba_mode: str = param(
        "accurate", "jieba segmentation mode: accurate (cut), full (every dictionary word, overlapping) or search "
        "(accurate words plus the shorter dictionary words inside long ones)", choices=("accurate", "full", "search"),
        sweep=False,
    )
    # How a run is carried out, never what it finds (byte-identical output
    # whatever these are; see docs/engine.md).
    jobs: int = param(
        0, "worker processes for the features and the pair checks (0 = all cores; 1 = none, all in this process)",
        low=0, sweep=False, run_only=True,
    )
    engine: str = param(
        "local", "where the stages run: local (this machine, --jobs processes) or dask (a Dask cluster, see "
        "docs/engine.md)", choices=("local", "dask"), sweep=False, run_only=True,
    )
    scheduler: str = param(
        "", "--engine dask: address of a running Dask scheduler (tcp://HOST:8786); empty: a local cluster of "
        "--jobs workers", sweep=False, run_only=True,
    )
    # The short-text seed's first stage (see partialdup.index.exact_first).
    exact: str = param(
        "off", "exact first stage, off, bloom or trie: pair sentences with equal fingerprints through a Bloom "
        "filter or a Trie before the near-duplicate search, and report the filter's measured false-positive rate",
        choices=("off", "bloom", "trie"),
    )
    exact_rate: float = param(0.01, "--exact bloom: the filter's design false-positive rate", low=0.0, high=1.0, above=True)
    low_idf_sig: LowIdfSigParams = field(default_factory=LowIdfSigParams)
    shingle: ShingleParams = field(default_factory=ShingleParams)
    i_match: IMatchParams = field(default_factory=IMatchParams)
    spotsig: SpotSigParams = field(default_factory=SpotSigParams)
    jaccard: JaccardParams = field(default_factory=JaccardParams)
    simhash: SimHashParams = field(default_factory=SimHashParams)
    minhash: MinHashParams = field(default_factory=MinHashParams)
    pinyin: PinyinParams = field(default_factory=PinyinParams)

    #: The nested method parameters, by field name.
    METHOD_FIELDS: ClassVar[tuple[str, ...]] = ("low_idf_sig", "shingle", "i_match", "spotsig", "jaccard", "simhash", "minhash", "pinyin")

    def __post_init__(self) -> None:
        check_ranges(self)

    def changed(self, values: dict[str, Any]) -> Config:
        """A copy with some parameters changed; nested ones as ``"low_idf_sig.antecedents"``.

        Raises:
            ConfigError: A name is not a parameter, or a value is out of range.
        """
        top: dict[str, Any] = {}
        nested: dict[str, dict[str, Any]] = {}
        for name, value in values.items():
            group, _, inner = name.rpartition(".")
            if group:
                if group not in self.METHOD_FIELDS or inner not in _field_names(getattr(self, group)):
                    raise ConfigError(f"unknown parameter {name!r}")
                nested.setdefault(group, {})[inner] = value
            elif name in _field_names(self):
                top[name] = value
            else:
                raise ConfigError(f"unknown parameter {name!r}")
        for group, inner_values in nested.items():
            top[group] = dataclasses.replace(getattr(self, group), **inner_values)
        return dataclasses.replace(self, **top)

    def describe(self, names: Sequence[str]) -> str:
        """``name=value`` of the given parameters (dotted for nested ones), for reports."""
        parts = []
        for name in names:
            group, _, inner = name.rpartition(".")
            value = getattr(getattr(self, group), inner) if group else getattr(self, name)
            parts.append(f"{inner or name}={value:g}" if isinstance(value, float) else f"{inner or name}={value}")
        return " ".join(parts)


def _field_names(instance: object) -> set[str]:
    return {f.name for f in dataclasses.fields(instance)}  # type: ignore[arg-type]
