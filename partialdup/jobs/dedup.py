"""Document-level near-duplicate clustering: SimHash + Single-Pass.

The seed's main use: a stream of documents is clustered in one pass. Each
document's SimHash (64 bits over its tf-idf weighted words, stop words
removed; :mod:`partialdup.methods.simhash`) is compared with the *centres*
of the clusters made so far; it joins the nearest centre within Hamming
distance k (ties: the older cluster), or starts a cluster whose centre is
its own fingerprint. Centres never move, so a cluster cannot drift away
from its first document. The centres sit in permuted tables
(:class:`~partialdup.index.hamming.HammingIndex`), so each document is
compared only with the centres that share one of the k + 1 blocks of its
fingerprint, never with all of them. What is kept between documents is one
fingerprint per cluster plus each cluster's member ids (the output); the
texts are not kept.

Single-Pass depends on the order documents arrive in (a document between
two clusters joins the older one), so the order is fixed: documents are
processed sorted by id. A SimHash does not depend on word order, so a
document whose sentences were reordered has its original's fingerprint.

Each cluster keeps one representative: the earliest member (in that order)
or the longest (most characters; ties: the earliest).

``method="minhash"`` clusters the same way with MinHash signatures (n hash
functions over word shingles, :mod:`partialdup.methods.minhash`): the
centres sit in LSH bands (:class:`~partialdup.index.lsh.LshIndex`, b × r
chosen from τ as the detector chooses them), a document is compared only with
the centres sharing a band, and joins the one whose signature agrees most,
at ≥ τ (ties: the older cluster). A cluster then records each member's
estimated Jaccard with its centre (``similarities``) instead of a Hamming
distance.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Iterator, Protocol, Sequence

from partialdup.core.config import MinHashParams, SimHashParams
from partialdup.core.errors import ConfigError
from partialdup.core.types import Document
from partialdup.index.fingerprints import lsh_bands
from partialdup.index.hamming import HammingIndex
from partialdup.index.lsh import LshIndex
from partialdup.methods.minhash import MinHash
from partialdup.methods.simhash import SimHash
from partialdup.text.idf import IdfTable
from partialdup.text.tokens import Tokenizer

__all__ = ["KEEP_CHOICES", "METHOD_CHOICES", "Centres", "HammingCentres", "LshCentres", "Cluster", "DedupItem", "cluster_record", "dedup_documents", "fingerprint_documents", "single_pass", "write_clusters"]

#: How a cluster's representative is chosen.
KEEP_CHOICES = ("earliest", "longest")

#: The fingerprints Single-Pass can cluster.
METHOD_CHOICES = ("simhash", "minhash")


@dataclass(frozen=True, slots=True)
class DedupItem:
    """One document as Single-Pass sees it.

    Attributes:
        id: The document's id.
        fingerprint: Its 64-bit SimHash, or its MinHash signature.
        length: Its text's length in characters (for ``--keep longest``).
    """

    id: str
    fingerprint: Any
    length: int


@dataclass
class Cluster:
    """A cluster of near-duplicate documents.

    Attributes:
        number: Its number, from 0, in order of creation.
        centre: The fingerprint of its first member.
        members: Member ids, in processing order.
        distances: Each member's Hamming distance to the centre (SimHash),
            or its estimated Jaccard with the centre (MinHash).
        representative: The kept member's id.
        representative_length: That member's length in characters.
        measure: The record's name for ``distances``: ``distances`` or
            ``similarities``.
    """

    number: int
    centre: Any
    members: list[str] = field(default_factory=list)
    distances: list[Any] = field(default_factory=list)
    representative: str = ""
    representative_length: int = -1
    measure: str = "distances"


class Centres(Protocol):
    """The cluster centres Single-Pass compares a document with."""

    #: What :meth:`nearest` measures (``distances`` or ``similarities``).
    measure: str
    #: The measure of a centre to itself.
    own: Any

    def nearest(self, fingerprint: Any) -> tuple[int, Any] | None:
        """(cluster number, measure) of the nearest centre close enough, or None."""
        ...

    def add(self, fingerprint: Any) -> int:
        """Add a centre; returns its cluster number."""
        ...


class HammingCentres:
    """SimHash centres in permuted tables: the nearest within k bits, ties by age."""

    measure, own = "distances", 0

    def __init__(self, k: int) -> None:
        self._index = HammingIndex(k)

    def nearest(self, fingerprint: int) -> tuple[int, int] | None:
        found = self._index.search(fingerprint)
        return (found[0][1], found[0][0]) if found else None

    def add(self, fingerprint: int) -> int:
        return self._index.add(fingerprint)


class LshCentres:
    """MinHash centres in LSH bands: the most agreeing at ≥ τ, ties by age."""

    measure, own = "similarities", 1.0

    def __init__(self, threshold: float, permutations: int) -> None:
        bands, rows = lsh_bands(threshold, permutations)
        self._index = LshIndex(bands, rows, threshold)

    def nearest(self, fingerprint: Any) -> tuple[int, float] | None:
        found = self._index.search(fingerprint)
        return (found[0][1], round(found[0][0], 6)) if found else None

    def add(self, fingerprint: Any) -> int:
        return self._index.add(fingerprint)


def single_pass(items: Iterable[DedupItem], k: int | Centres, keep: str = "earliest") -> list[Cluster]:
    """Cluster fingerprints in one pass against fixed centres.

    Args:
        items: The documents, in the order they are to be processed.
        k: The largest Hamming distance from a centre (SimHash), or the
            centres to use (:class:`HammingCentres`, :class:`LshCentres`).
        keep: ``earliest`` or ``longest``: which member represents a cluster.

    Returns:
        The clusters in order of creation.
    """
    if keep not in KEEP_CHOICES:
        raise ValueError(f"keep must be one of {', '.join(KEEP_CHOICES)}, got {keep!r}")
    centres: Centres = HammingCentres(k) if isinstance(k, int) else k
    clusters: list[Cluster] = []
    for item in items:
        nearest = centres.nearest(item.fingerprint)
        if nearest is not None:
            number, distance = nearest
            cluster = clusters[number]
        else:
            distance, number = centres.own, centres.add(item.fingerprint)
            cluster = Cluster(number, item.fingerprint, measure=centres.measure)
            clusters.append(cluster)
        cluster.members.append(item.id)
        cluster.distances.append(distance)
        # strictly longer only: a tie keeps the earlier member
        if not cluster.representative or (keep == "longest" and item.length > cluster.representative_length):
            cluster.representative, cluster.representative_length = item.id, item.length
    return clusters


def fingerprint_documents(documents: Iterable[Document], method: SimHash | MinHash, tokenizer: Tokenizer) -> Iterator[DedupItem]:
    """Each document's SimHash (or MinHash signature) over its whole text's words, lazily."""
    for document in documents:
        yield DedupItem(document.id, method.fingerprint(tokenizer.words(document.text)), len(document.text))


def dedup_documents(
    documents: Sequence[Document],
    *,
    idf: IdfTable | None,
    params: SimHashParams = SimHashParams(),
    keep: str = "earliest",
    tokenizer: Tokenizer | None = None,
    method: str = "simhash",
    minhash: MinHashParams = MinHashParams(),
) -> list[Cluster]:
    """Near-duplicate clusters of documents, processed in id order.

    Args:
        documents: The documents (ids distinct).
        idf: The IDF table for ``tf-idf`` weights (unused with ``tf``).
        params: SimHash's parameters (Hamming bound, weights).
        keep: ``earliest`` or ``longest``.
        tokenizer: A loaded tokenizer to reuse; one is made when None.
        method: ``simhash`` (the seed's) or ``minhash``.
        minhash: MinHash's parameters (τ, hash functions, shingle, seed;
            ``variant`` must be ``multi``: LSH bands need signatures).

    Returns:
        The clusters in order of creation.

    Raises:
        ConfigError: An unknown method, or MinHash with one hash function.
    """
    fingerprints: SimHash | MinHash
    centres: Centres
    if method == "simhash":
        fingerprints = SimHash(idf if params.weights == "tf-idf" else None, params.hamming)
        centres = HammingCentres(params.hamming)
    elif method == "minhash":
        if minhash.variant != "multi":
            raise ConfigError("dedup --method minhash needs --minhash-variant multi (LSH bands need n hash functions)")
        fingerprints = MinHash(minhash.permutations, "multi", minhash.shingle, minhash.seed)
        centres = LshCentres(minhash.threshold, minhash.permutations)
    else:
        raise ConfigError(f"dedup --method must be one of {', '.join(METHOD_CHOICES)}, got {method!r}")
    ordered = sorted(documents, key=lambda d: d.id)
    items = fingerprint_documents(ordered, fingerprints, tokenizer or Tokenizer())
    return single_pass(items, centres, keep)


def cluster_record(cluster: Cluster) -> dict[str, Any]:
    """One JSONL record: the cluster's number, representative, members and distances."""
    return {
        "cluster": cluster.number,
        "representative": cluster.representative,
        "size": len(cluster.members),
        "members": cluster.members,
        cluster.measure: cluster.distances,
    }


def write_clusters(clusters: Iterable[Cluster], stream: IO[str]) -> int:
    """Write one JSONL line per cluster (UTF-8 ids kept as is); returns how many."""
    count = 0
    for cluster in clusters:
        stream.write(json.dumps(cluster_record(cluster), ensure_ascii=False, separators=(", ", ": ")) + "\n")
        count += 1
    return count
