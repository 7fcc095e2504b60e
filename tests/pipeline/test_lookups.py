import numpy as np

from partialdup.core.types import DocumentFeatures
from partialdup.pipeline.lookups import _SentenceTexts
from partialdup.text.sentences import SentenceSplitter


def test_sentence_texts_read_in_one_pass_are_those_read_one_by_one():
    texts = ["First line here.\nSecond one there.", "Another document. With two sentences."]
    docs = [DocumentFeatures(str(n), SentenceSplitter().split(text), (), (), text) for n, text in enumerate(texts)]
    docs.append(DocumentFeatures("2", docs[0].sentences, (), (), None))  # came without its text
    keys = [(0, 0), (1, 1), (2, 0), (0, 1), (1, 0)]
    read = _SentenceTexts(docs, keys, np.array([4, 0, 2, 1], np.int64))
    expected = ["Another document.", "First line here.", None, "With two sentences."]
    assert list(read) == [read[k] for k in range(len(read))] == read[:] == expected


def test_a_search_kept_for_its_counts_gives_the_same_run_stats(tokenizer, idf, sources, suspicious):
    from partialdup.core.config import Config
    from partialdup.pipeline.factory import make_detector
    from partialdup.pipeline.lookups import counts_only, search_stats

    # Few postings a feature: some are skipped, and counted.
    detector = make_detector("low-idf-sig", idf, Config(jobs=1, max_postings=3), tokenizer=tokenizer)
    docs = [detector.features(d) for d in [*sources, *suspicious]]
    index = detector.build_index(docs, joins=False)
    found = index.sentences.search_all(detector.rule)
    assert found.candidates > 0 and found.skipped_postings > 0 and len(found.query) > 0
    kept = counts_only(found)
    assert len(kept.query) == len(kept.shared) == 0
    assert search_stats(index, [kept, kept]) == search_stats(index, [found, found])
