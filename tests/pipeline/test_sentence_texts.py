import numpy as np

from partialdup.core.types import DocumentFeatures
from partialdup.pipeline.sentence_texts import SentenceTexts
from partialdup.text.sentences import SentenceSplitter


def test_sentence_texts_read_in_one_pass_are_those_read_one_by_one():
    texts = ["First line here.\nSecond one there.", "Another document. With two sentences."]
    docs = [DocumentFeatures(str(n), SentenceSplitter().split(text), (), (), text) for n, text in enumerate(texts)]
    docs.append(DocumentFeatures("2", docs[0].sentences, (), (), None))  # came without its text
    keys = [(0, 0), (1, 1), (2, 0), (0, 1), (1, 0)]
    read = SentenceTexts(docs, keys, np.array([4, 0, 2, 1], np.int64))
    expected = ["Another document.", "First line here.", None, "With two sentences."]
    assert list(read) == [read[k] for k in range(len(read))] == read[:] == expected

