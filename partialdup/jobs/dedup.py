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
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Iterator, Sequence

from partialdup.core.config import SimHashParams
from partialdup.core.types import Document
from partialdup.index.hamming import HammingIndex
from partialdup.methods.simhash import SimHash
from partialdup.text.idf import IdfTable
from partialdup.text.tokens import Tokenizer

__all__ = ["KEEP_CHOICES", "Cluster", "DedupItem", "cluster_record", "dedup_documents", "fingerprint_documents", "single_pass", "write_clusters"]

#: How a cluster's representative is chosen.
KEEP_CHOICES = ("earliest", "longest")


@dataclass(frozen=True, slots=True)
class DedupItem:
    """One document as Single-Pass sees it.

    Attributes:
        id: The document's id.
        fingerprint: Its 64-bit SimHash.
        length: Its text's length in characters (for ``--keep longest``).
    """

    id: str
    fingerprint: int
    length: int


@dataclass
class Cluster:
    """A cluster of near-duplicate documents.

    Attributes:
        number: Its number, from 0, in order of creation.
        centre: The fingerprint of its first member.
        members: Member ids, in processing order.
        distances: Each member's Hamming distance to the centre.
        representative: The kept member's id.
        representative_length: That member's length in characters.
    """

    number: int
    centre: int
    members: list[str] = field(default_factory=list)
    distances: list[int] = field(default_factory=list)
    representative: str = ""
    representative_length: int = -1


def single_pass(items: Iterable[DedupItem], k: int, keep: str = "earliest") -> list[Cluster]:
    """Cluster fingerprints in one pass against fixed centres within Hamming distance k.

    Args:
        items: The documents, in the order they are to be processed.
        k: The largest Hamming distance from a centre.
        keep: ``earliest`` or ``longest``: which member represents a cluster.

    Returns:
        The clusters in order of creation.
    """
    if keep not in KEEP_CHOICES:
        raise ValueError(f"keep must be one of {', '.join(KEEP_CHOICES)}, got {keep!r}")
    centres = HammingIndex(k)
    clusters: list[Cluster] = []
    for item in items:
        nearest = centres.search(item.fingerprint)
        if nearest:
            distance, number = nearest[0]
            cluster = clusters[number]
        else:
            distance, number = 0, centres.add(item.fingerprint)
            cluster = Cluster(number, item.fingerprint)
            clusters.append(cluster)
        cluster.members.append(item.id)
        cluster.distances.append(distance)
        # strictly longer only: a tie keeps the earlier member
        if not cluster.representative or (keep == "longest" and item.length > cluster.representative_length):
            cluster.representative, cluster.representative_length = item.id, item.length
    return clusters


def fingerprint_documents(documents: Iterable[Document], method: SimHash, tokenizer: Tokenizer) -> Iterator[DedupItem]:
    """Each document's SimHash over its whole text's words, lazily."""
    for document in documents:
        yield DedupItem(document.id, method.fingerprint(tokenizer.words(document.text)), len(document.text))


def dedup_documents(
    documents: Sequence[Document],
    *,
    idf: IdfTable | None,
    params: SimHashParams = SimHashParams(),
    keep: str = "earliest",
    tokenizer: Tokenizer | None = None,
) -> list[Cluster]:
    """Near-duplicate clusters of documents, processed in id order.

    Args:
        documents: The documents (ids distinct).
        idf: The IDF table for ``tf-idf`` weights (unused with ``tf``).
        params: SimHash's parameters (Hamming bound, weights).
        keep: ``earliest`` or ``longest``.
        tokenizer: A loaded tokenizer to reuse; one is made when None.

    Returns:
        The clusters in order of creation.
    """
    method = SimHash(idf if params.weights == "tf-idf" else None, params.hamming)
    ordered = sorted(documents, key=lambda d: d.id)
    items = fingerprint_documents(ordered, method, tokenizer or Tokenizer())
    return single_pass(items, params.hamming, keep)


def cluster_record(cluster: Cluster) -> dict[str, Any]:
    """One JSONL record: the cluster's number, representative, members and distances."""
    return {
        "cluster": cluster.number,
        "representative": cluster.representative,
        "size": len(cluster.members),
        "members": cluster.members,
        "distances": cluster.distances,
    }


def write_clusters(clusters: Iterable[Cluster], stream: IO[str]) -> int:
    """Write one JSONL line per cluster (UTF-8 ids kept as is); returns how many."""
    count = 0
    for cluster in clusters:
        stream.write(json.dumps(cluster_record(cluster), ensure_ascii=False, separators=(", ", ": ")) + "\n")
        count += 1
    return count
