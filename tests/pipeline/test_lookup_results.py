"""What the look-ups found: a search kept for its counts gives the same run stats."""

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.lookup_results import counts_only, search_stats


def test_a_search_kept_for_its_counts_gives_the_same_run_stats(tokenizer, idf, sources, suspicious):
    # Few postings a feature: some are skipped, and counted.
    detector = make_detector("low-idf-sig", idf, Config(jobs=1, max_postings=3), tokenizer=tokenizer)
    docs = [detector.features(d) for d in [*sources, *suspicious]]
    index = detector.build_index(docs, joins=False)
    found = index.sentences.search_all(detector.rule)
    assert found.candidates > 0 and found.skipped_postings > 0 and len(found.query) > 0
    kept = counts_only(found)
    assert len(kept.query) == len(kept.shared) == 0
    assert search_stats(index, [kept, kept]) == search_stats(index, [found, found])
