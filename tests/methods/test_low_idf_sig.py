from collections import Counter

from hypothesis import given, settings, strategies as st

from partialdup.core.config import LowIdfSigParams
from partialdup.methods.low_idf_sig import (
    DEFAULT_SKIP_WORDS,
    LowIdfSig,
    low_idf_sig_bag,
    low_idf_sig_features,
    stable_hash,
)
from tests.methods.realtext import real_sentences

PAPER_SENTENCE = (
    "As we are taking your candidature ahead we would like to highlight that INTEL as an "
    "organization believes and practices high standards of ethical behavior from every "
    "potential candidate."
)


def test_paper_worked_example():
    tokens = PAPER_SENTENCE.lower().rstrip(".").split()
    features = low_idf_sig_features(
        tokens, {"as", "to", "that", "of", "from"}, chain=2, spacing=1, skip_words=()
    )
    assert {":".join(f) for f in features} == {
        "as:we:are",
        "to:highlight:that",
        "that:intel:as",
        "as:an:organization",
        "of:ethical:behavior",
        "from:every:potential",
    }
    assert len(features) == 6  # the first token "as" is an antecedent once, not twice


def test_skip_words_are_passed_over_inside_chains():
    features = low_idf_sig_features(["as", "an", "organization", "believes"], {"as"}, chain=2, spacing=1)
    assert features == [("as", "organization", "believes")]


def test_spacing_takes_every_dth_token():
    features = low_idf_sig_features(list("abcdefg"), {"a"}, chain=2, spacing=2, skip_words=())
    assert features == [("a", "c", "e")]


def test_first_token_always_starts_a_feature_and_unfinished_chains_are_dropped():
    assert low_idf_sig_features(["hello"], set(), chain=3, spacing=1) == [("hello",)]
    # "of" has one token after it, not three: no feature starts there.
    assert low_idf_sig_features(["x", "y", "of", "z"], {"of"}, chain=3, spacing=1, skip_words=()) == [
        ("x", "y", "of", "z"),
    ]


def test_bag_keeps_multiplicities_and_hashes_are_stable():
    bag = LowIdfSig(frozenset({"of"}), chain=1).bag(["of", "x", "of", "x", "of", "x"])
    assert list(bag.values()) == [3]  # one feature "of:x", seen three times
    # Fixed value: the hash must never change between processes or versions.
    assert stable_hash(("as", "we", "are")) == 0x54B14240DDADF26B
    assert stable_hash(("ab", "c")) != stable_hash(("a", "bc"))


def test_empty_sentence_has_no_features():
    assert LowIdfSig(frozenset({"of"})).bag([]) == Counter()


@given(st.lists(st.sampled_from(["of", "the", "a", "x", "y", "z", "的", "是"]), max_size=30), st.integers(0, 4), st.integers(1, 3))
def test_every_nonempty_sentence_has_a_feature_per_antecedent(tokens, chain, spacing):
    antecedents = {"of", "的"}
    features = low_idf_sig_features(tokens, antecedents, chain=chain, spacing=spacing)
    def room(i):  # non-skipped tokens after position i
        return sum(1 for t in tokens[i + 1 :] if t not in DEFAULT_SKIP_WORDS)

    needed = spacing * chain  # the last chained token is spacing * chain tokens on
    complete = [i for i, t in enumerate(tokens) if i and t in antecedents and room(i) >= needed]
    assert len(features) == (1 if tokens else 0) + len(complete)
    assert all(len(f) == chain + 1 for f in features[1:])


def _features_by_definition(tokens, antecedents, chain, spacing, skip_words):
    # The definition, spelt out: from every antecedent (and the first token),
    # walk on over the non-skipped tokens and take every spacing-th, chain
    # times; an antecedent too near the end for a whole chain starts nothing.
    out = []
    for i, tok in enumerate(tokens):
        if i and tok not in antecedents:
            continue
        follow = [t for t in tokens[i + 1 :] if t not in skip_words][spacing - 1 :: spacing][:chain]
        if i and len(follow) < chain:
            continue
        out.append((tok, *follow))
    return out


@given(
    st.lists(st.sampled_from(["a", "the", "of", "to", "cat", "sat", "的", "软件", "x"]), max_size=15),
    st.integers(0, 3),
    st.integers(1, 3),
)
def test_features_follow_the_definition(tokens, chain, spacing):
    antecedents, skip = {"of", "to", "的", "the"}, {"a", "the"}
    assert low_idf_sig_features(tokens, antecedents, chain=chain, spacing=spacing, skip_words=skip) == (
        _features_by_definition(tokens, antecedents, chain, spacing, skip)
    )


_vocabulary = st.sampled_from(["a", "an", "the", "as", "we", "are", "of", "中文", "分词", "x"])


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_vocabulary, max_size=14),
    st.sets(_vocabulary, max_size=5),
    st.sets(st.sampled_from(["a", "an", "the", "x"]), max_size=3),
    st.integers(0, 4),
    st.integers(1, 3),
)
def test_the_fast_bag_is_the_counter_of_the_hashed_features(tokens, antecedents, skip_words, chain, spacing):
    # low_idf_sig_bag (joined strings from slices, a plain dict) against the
    # plain reference (feature tuples, stable_hash, Counter): the same
    # features, counts and order, with and without skip words.
    reference = Counter(
        stable_hash(f)
        for f in low_idf_sig_features(tokens, antecedents, chain=chain, spacing=spacing, skip_words=frozenset(skip_words))
    )
    bag = low_idf_sig_bag(tokens, antecedents, chain=chain, spacing=spacing, skip_words=frozenset(skip_words))
    assert type(bag) is dict
    assert bag == reference and list(bag.items()) == list(reference.items())


def test_the_method_bag_is_its_reference_bag_on_real_sentences(idf, tokenizer):
    method = LowIdfSig(idf.lowest(LowIdfSigParams().antecedents))
    sentences = real_sentences()[::25]  # about 3,000, every kind of document
    for sentence in sentences:
        words = tokenizer.words(sentence)
        assert list(method.bag(words).items()) == list(method.reference_bag(words).items()), sentence
