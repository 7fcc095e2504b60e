import numpy as np

from partialdup.index import IndexedSentence
from partialdup.pairs import FoundPairs, rejoined_hits, rows_by_documents
from partialdup.sparse import PairMatches
from partialdup.types import SentencePair


def test_pairs_are_kept_per_document_pair_in_the_order_given():
    found = FoundPairs()
    found.add((0, 3), (1, 7), 0.8)
    found.add((0, 4), (2, 1), 1.0)
    found.add((0, 3), (1, 7), 0.9)  # found again: the first stays
    assert found.distinct((0, 1)) == [SentencePair(3, 7, 0.8)]
    assert found.distinct((0, 2)) == [SentencePair(4, 1, 1.0)]


def test_swapped_orients_every_pair_the_same_way():
    found = FoundPairs(swapped=lambda first, second: first[0] > second[0])
    found.add((5, 1), (2, 9), 0.7)
    assert found.distinct((2, 5)) == [SentencePair(9, 1, 0.7)]


def test_rejoined_parts_both_pair_with_the_whole_sentence():
    found = FoundPairs()
    found.add_rejoined(((0, 3), (0, 4)), (1, 7), 0.9)
    assert found.distinct((0, 1)) == [SentencePair(3, 7, 0.9), SentencePair(4, 7, 0.9)]


def test_a_part_matching_as_well_on_its_own_keeps_its_neighbour_out():
    found = FoundPairs()
    found.add((0, 4), (1, 7), 1.0)  # the sentence after an option line
    found.add_rejoined(((0, 3), (0, 4)), (1, 7), 0.7)
    assert found.distinct((0, 1)) == [SentencePair(4, 7, 1.0)]


def test_rejoined_parts_on_the_second_side():
    found = FoundPairs()
    found.add((2, 0), (1, 6), 0.5)  # a part that matched worse on its own
    found.add_rejoined(((1, 6), (1, 7)), (2, 0), 0.9, parts_first=False)
    assert found.distinct((2, 1)) == [SentencePair(0, 6, 0.5), SentencePair(0, 7, 0.9)]


def matches(rows, keys, scores):
    return PairMatches(np.array(rows), np.array(keys), np.array(scores, dtype=float), np.full(len(rows), 3), len(rows), 0)


def test_rejoined_hits_leave_out_rows_matching_many_documents():
    entries = [IndexedSentence(doc, 0, {}, 0) for doc in (0, 1, 2, 2)]
    hits = list(rejoined_hits(matches([0, 0, 0, 1, 1], [0, 1, 2, 2, 3], [1.0] * 5), entries, boilerplate=3))
    assert [(row, entry.doc) for row, entry, _ in hits] == [(1, 2), (1, 2)]
    assert len(list(rejoined_hits(matches([0, 0, 0], [0, 1, 2], [1.0] * 3), entries, boilerplate=0))) == 3


def test_has_sees_a_pair_in_either_order_when_swapped():
    found = FoundPairs(swapped=lambda first, second: first[0] > second[0])
    found.add((5, 1), (2, 9), 0.7)
    assert found.has((2, 9), (5, 1)) and found.has((5, 1), (2, 9)) and not found.has((5, 2), (2, 9))
    found.add_rejoined(((3, 0), (3, 1)), (2, 9), 0.9)
    assert not found.has((3, 0), (2, 9))  # rejoined pairs are not whole-sentence copies


def test_rows_by_documents_splits_kept_and_boilerplate_rows():
    entries = [IndexedSentence(doc, 0, {}, 0) for doc in (0, 1, 2, 2)]
    kept, common = rows_by_documents(matches([0, 0, 0, 1, 1], [0, 1, 2, 2, 3], [1.0] * 5), entries, boilerplate=3)
    assert list(common) == [0] and [entry.doc for entry, _ in common[0]] == [0, 1, 2]
    assert list(kept) == [1] and [entry.doc for entry, _ in kept[1]] == [2, 2]
