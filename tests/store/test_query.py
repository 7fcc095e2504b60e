"""The vectorised pick of candidate sentences equals its plain reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.types import DocumentFeatures, Sentence
from partialdup.store import codec
from partialdup.store.flat import unpack_many
from partialdup.store.query import holding, holding_plain

# Few distinct features, so that documents share them; the high bit set on
# some; some equal in their low 16 bits (the look-up table's false positives).
_FEATURE = st.sampled_from([1, 2, 3, 5, 8, 2**16 + 1, 2**40 + 5, 2**63, 2**64 - 1])
_BAG = st.dictionaries(_FEATURE, st.integers(1, 3), max_size=4)


@st.composite
def documents(draw: st.DrawFn) -> DocumentFeatures:
    bags = draw(st.lists(_BAG, max_size=6))
    sentences = tuple(Sentence(i, i, i + 1) for i in range(len(bags)))
    joins = tuple((i, bag) for i in range(max(len(bags) - 1, 0)) if (bag := draw(_BAG)) and draw(st.booleans()))
    return DocumentFeatures("d", sentences, tuple(bags), tuple(len(b) for b in bags), "x" * len(bags), joins)


@settings(max_examples=200, deadline=None)
@given(st.lists(documents(), max_size=5), st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=5, max_size=5),
       st.sets(_FEATURE))
def test_holding_equals_the_plain_reference(docs, flags, wanted) -> None:
    blobs = [codec.pack(doc, flags[i][: len(doc.bags)])[0] for i, doc in enumerate(docs)]
    flat = unpack_many(blobs)
    packed = [codec.unpack_features(blob) for blob in blobs]
    for joins in (False, True):
        assert holding(flat, sorted(wanted), joins=joins) == holding_plain(packed, wanted, joins=joins)


def test_unpack_many_gives_each_document_as_unpack_features(detector, sources) -> None:
    blobs = []
    for document in sources[:6]:
        features = detector.features(document)
        blobs.append(codec.pack(features, [detector.matchable(features, i) for i in range(len(features.bags))])[0])
    flat = unpack_many(blobs)
    assert len(flat) == len(blobs)
    for i, blob in enumerate(blobs):
        one, many = codec.unpack_features(blob), flat.document(i)
        for field in one.__dataclass_fields__:
            assert np.array_equal(getattr(one, field), getattr(many, field)), field
