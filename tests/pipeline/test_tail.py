"""The tail's jobs: made when read, by whichever process reads them."""

from partialdup.pipeline.tail import PairEvidence, PairJob, PairJobs


def _job(key):
    return PairJob(key[0], key[1], PairEvidence((), frozenset(), frozenset(), frozenset()), (), ())


def test_a_job_is_made_when_read_and_again_when_read_again():
    made = []

    def make(key):
        made.append(key)
        return _job(key)

    jobs = PairJobs([(0, 1), (0, 2), (1, 2)], make, [3, 1, 2])
    assert len(jobs) == 3 and made == [] and jobs.weights == [3, 1, 2]
    assert jobs[1] == _job((0, 2)) and made == [(0, 2)]
    assert jobs[1:] == [_job((0, 2)), _job((1, 2))] and made == [(0, 2), (0, 2), (1, 2)]
    assert list(jobs) == [_job((0, 1)), _job((0, 2)), _job((1, 2))]
    assert jobs[-1] == _job((1, 2))


def test_matchable_flags_are_matchable_of_every_sentence(idf, sources):
    from partialdup.core.config import Config
    from partialdup.pipeline.factory import make_detector

    detector = make_detector("low-idf-sig", idf, Config(min_tokens=5))
    docs = detector.features_many(sources)
    assert sum(len(doc.bags) for doc in docs) > 100
    seen = set()
    for doc in docs:
        flags = detector.matchable_flags(doc)
        assert flags == [detector.matchable(doc, i) for i in range(len(doc.bags))]
        seen.update(flags)
    assert seen == {False, True}  # short sentences and long ones
