import functools

import regex
from hypothesis import given, settings, strategies as st
from nltk.tokenize import RegexpTokenizer

from partialdup.core.chars import is_han
from partialdup.text import common_forms
from partialdup.text import tokens as tokens_module
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.token_patterns import GROUPED_PATTERN as _GROUPED_PATTERN
from partialdup.text.token_patterns import TOKEN_FLAGS as _TOKEN_FLAGS
from partialdup.text.token_patterns import TOKEN_PATTERN as _TOKEN_PATTERN
from partialdup.text.tokens import Tokenizer
from tests.paths import SAMPLES


def words(tokenizer, text):
    return [t.text for t in tokenizer.tokenize(text)]


def test_normalisation_full_width_case_and_script(tokenizer):
    assert words(tokenizer, "ＡＢＣ Hello") == ["abc", "hello"]
    assert words(tokenizer, "漢字轉換") == words(tokenizer, "汉字转换")


def test_punctuation_is_not_a_token(tokenizer):
    assert words(tokenizer, "他说：“好。”") == ["他", "说", "好"]
    assert words(tokenizer, "Hello, world!") == ["hello", "world"]


def test_inner_apostrophes_hyphens_and_decimals_stay_together(tokenizer):
    assert words(tokenizer, "don't e-mail 3.14") == ["don't", "e-mail", "3.14"]


def test_mixed_text_offsets_are_exact(tokenizer):
    text = "用jieba分词，Ｈｅｌｌｏ ﬁne 說。"
    tokens = tokenizer.tokenize(text)
    assert [t.text for t in tokens][:3] == ["用", "jieba", "分词"]
    for token in tokens:
        original, _ = tokenizer.normalise(text[token.start : token.end])
        assert token.text in original


def test_stretch_offsets_refer_to_the_whole_text(tokenizer):
    text = "前言。Hello world"
    tokens = tokenizer.tokenize(text, 3, len(text))
    assert [(t.start, t.end) for t in tokens] == [(3, 8), (9, 14)]


alphabet = st.sampled_from(list("abcXYZ 0123.,'-\n\t，。「」！？漢字转換說话ＡＢ１ﬁ㎏é\u0301\u200b"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet, max_size=60), st.data())
def test_tokens_map_back_to_the_original(tokenizer, text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    previous_start = start
    for token in tokenizer.tokenize(text, start, end):
        assert start <= token.start < token.end <= end
        assert token.start >= previous_start
        previous_start = token.start
        original, _ = tokenizer.normalise(text[token.start : token.end])
        assert token.text in "".join(original.split())


def test_taiwan_and_mainland_words_take_one_form(tokenizer):
    assert words(tokenizer, "使用者可以呼叫預設的檔案") == words(tokenizer, "用户可以调用默认的文件")
    assert words(tokenizer, "如果檔案不存在就建立它") == words(tokenizer, "如果文件不存在就创建它")
    # A plain character conversion (s2t) still matches its source.
    assert words(tokenizer, "預設值是檔案") == words(tokenizer, "预设值是档案")
    # Taiwan words jieba lacks (manpages-zh zh_TW od(1), re_syntax(3tcl)) stay whole.
    assert words(tokenizer, "限制要轉儲的輸入位元組") == words(tokenizer, "限制要转储的输入字节")
    assert words(tokenizer, "Tcl 正規表示式的語法") == words(tokenizer, "Tcl 正则表达式的语法")


def test_without_the_taiwan_words_jieba_cuts_them():
    plain = Tokenizer(taiwan_words=None)
    assert words(plain, "輸入位元組") != words(plain, "输入字节")


def test_hard_wrapped_chinese_gives_the_same_words(tokenizer):
    wrapped = "可能没有明显的开始菜\n单入口。"
    assert words(tokenizer, wrapped) == words(tokenizer, "可能没有明显的开始菜单入口。")
    [token] = [t for t in tokenizer.tokenize(wrapped) if t.text == "开始菜单"]
    assert wrapped[token.start : token.end] == "开始菜\n单"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet, max_size=80), st.data())
def test_words_are_the_tokens_without_offsets(tokenizer, text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert tokenizer.words(text, start, end) == [t.text for t in tokenizer.tokenize(text, start, end)]


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("abcX 0.,'-，。漢字说话⼀ＡＢ１é")), min_size=1, max_size=30),
       st.text(st.sampled_from(list("abcX 0.,'-，。漢字说话⼀ＡＢ１é")), min_size=1, max_size=30),
       st.sampled_from(["\n", " \n", "\n  ", "\u3000\n"]))
def test_words_of_two_texts_read_as_one(tokenizer, first, second, line_break):
    # What Detector.tokenize relies on for rejoined sentences: unless a Han
    # run goes on across the break, the words of the two are the words of each.
    first, second = first.strip(), second.strip()
    if not first or not second or tokenizer.words_across(first, second):
        return
    assert tokenizer.words(first + line_break + second) == tokenizer.words(first) + tokenizer.words(second)


def test_a_han_run_goes_on_across_a_line_break(tokenizer):
    assert tokenizer.words_across("开始菜", "单入口。")
    assert tokenizer.words_across("⼀", "二")  # a Kangxi radical normalises to a Han character
    assert not tokenizer.words_across("菜单。", "单入口") and not tokenizer.words_across("菜单", "menu")


@settings(deadline=None)  # the first call compiles the pattern twice
@given(st.text(alphabet=st.sampled_from(list("ab Z9'’-._\n\t，。中文字乙 éß𠀀") + ["\u3000", "Ａ"]), max_size=60))
def test_the_token_pattern_finds_what_nltks_regexp_tokenizer_finds(text):
    # The pattern is compiled directly with the regex engine; NLTK's
    # RegexpTokenizer is the reference it replaced.
    assert [m.span() for m in _compiled_pattern().finditer(text)] == list(_nltk_reference().span_tokenize(text))


@functools.cache
def _compiled_pattern():
    return regex.compile(_TOKEN_PATTERN, _TOKEN_FLAGS)


@functools.cache
def _nltk_reference():
    return RegexpTokenizer(_TOKEN_PATTERN)


@settings(deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Z9'’-._\n\t，。中文字乙 éß𠀀") + ["\u3000", "Ａ"]), max_size=60))
def test_the_grouped_pattern_finds_the_same_tokens_and_tells_han_runs_apart(text):
    # words() and tokenize() read the group of the alternative that matched
    # instead of testing the first character of each match.
    grouped = [(m.span(), bool(m[1])) for m in regex.compile(_GROUPED_PATTERN, _TOKEN_FLAGS).finditer(text)]
    plain = [(m.span(), is_han(m.group()[0])) for m in _compiled_pattern().finditer(text)]
    assert grouped == plain


def _spans(data, text):
    """Sorted, non-overlapping stretches of ``text`` (as sentences are)."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    return [(lo, hi) for lo, hi in zip([0, *cuts], [*cuts, len(text)]) if data.draw(st.booleans())]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet, max_size=80), st.data())
def test_the_words_of_a_documents_sentences_at_once_are_the_words_of_each(tokenizer, text, data):
    # sentence_words (the fast path: one normalisation and one segmenter call
    # per document) against words (the plain reference), on text that keeps
    # its offsets when normalised and text that does not (ﬁ, é + U+0301, U+200B).
    spans = _spans(data, text)
    tokenizer.clear_cache()
    assert tokenizer.sentence_words(text, spans) == [tuple(tokenizer.words(text, lo, hi)) for lo, hi in spans]


def test_the_words_of_real_documents_at_once_are_the_words_of_each(tokenizer):
    splitter = SentenceSplitter()
    for path in sorted(SAMPLES.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        spans = [(s.start, s.end) for s in splitter.split(text)]
        tokenizer.clear_cache()
        assert tokenizer.sentence_words(text, spans) == [tuple(tokenizer.words(text, lo, hi)) for lo, hi in spans], path.name


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet, max_size=60), max_size=5), st.data())
def test_the_words_of_many_documents_at_once_are_the_words_of_each(tokenizer, texts, data):
    # sentence_words_many (every document's Han runs segmented, and their new
    # words converted, in one call) against words (the plain reference); a
    # document twice, so that sentences repeat across documents.
    documents = [(text, _spans(data, text)) for text in [*texts, *texts[:1]]]
    tokenizer.clear_cache()
    got = tokenizer.sentence_words_many(documents)
    assert got == [[tuple(tokenizer.words(text, lo, hi)) for lo, hi in spans] for text, spans in documents]


def test_the_words_of_real_documents_together_are_the_words_of_each(tokenizer):
    splitter = SentenceSplitter()
    texts = [path.read_text(encoding="utf-8") for path in sorted(SAMPLES.glob("*.txt"))]
    documents = [(text, [(s.start, s.end) for s in splitter.split(text)]) for text in texts]
    tokenizer.clear_cache()
    together = tokenizer.sentence_words_many(documents)
    tokenizer.clear_cache()
    assert together == [tokenizer.sentence_words(text, spans) for text, spans in documents]
    assert any(is_han(char) for text in texts for char in text) and any(text.isascii() for text in texts)


def test_the_memos_are_counted_and_forgotten_without_changing_a_word(tokenizer):
    text = "今天天气很好，我们去公园散步吧。 The quick brown fox."
    tokenizer.clear_cache()
    assert tokenizer.remembered == 0
    words = tokenizer.sentence_words(text, [(0, 16), (17, len(text))])
    assert tokenizer.remembered > 0
    tokenizer.clear_cache()
    assert tokenizer.remembered == 0 and tokenizer.sentence_words(text, [(0, 16), (17, len(text))]) == words


def test_forgetting_segmented_runs_changes_no_word(monkeypatch):
    # The remembered runs are forgotten a quarter at a time when the bound is
    # reached; what is remembered never changes a word, and the bound holds.
    monkeypatch.setattr(tokens_module, "_SEGMENT_CACHE", 8)
    small, plain = Tokenizer(), Tokenizer()
    runs = ["我们中出了", "一个叛徒", "开始菜单", "漢字轉換", "说话", "中文", "分词", "测试", "文字", "转换"]
    text = "，".join(runs[i % len(runs)] + runs[(3 * i) % len(runs)] for i in range(60))
    for start in range(0, len(text), 7):
        assert small.words(text, start, start + 20) == plain.words(text, start, start + 20)
        assert len(small._segments) <= 8


def test_latin_words_are_shared_strings(tokenizer):
    # A word met again is the same string object (interned): a document's
    # word lists hold one copy of each word, not one per occurrence.
    first, second = tokenizer.sentence_words("Shared words. Shared words.", [(0, 13), (14, 27)])
    assert first == second and all(a is b for a, b in zip(first, second))


def test_a_sentence_met_again_gets_the_words_it_had(tokenizer, monkeypatch):
    monkeypatch.setattr(tokens_module, "_SENTENCE_CACHE", 4)
    text = "中文分词。Plain words here. 中文分词。"
    spans = [(0, 5), (5, 22), (23, 28)]
    tokenizer.clear_cache()
    first = tokenizer.sentence_words(text, spans)
    again = tokenizer.sentence_words(text, spans)
    assert first == again == [tuple(tokenizer.words(text, lo, hi)) for lo, hi in spans]
    assert again[0] is first[0] and again[2] is first[0]  # one tuple for the same sentence
    many = [f"句子{i}。" for i in range(10)]
    tokenizer.sentence_words("".join(many), [(4 * i, 4 * i + 4) for i in range(10)])
    assert len(tokenizer._sentences) <= 4


@functools.cache
def _reference_tokenizer():
    """A tokenizer searching all text with the ``regex`` reference patterns
    (the plain reference of the ``re`` patterns used on BMP text)."""
    reference = Tokenizer()
    reference._bmp_grouped, reference._bmp_latin_words = reference._grouped, reference._latin_words
    return reference


@settings(max_examples=200, deadline=None)
@given(st.text(st.one_of(alphabet, st.sampled_from(list("²\x1c\u2028𠀀𪅈🔎Σß"))), max_size=80), st.data())
def test_the_words_are_those_of_the_reference_patterns(tokenizer, text, data):
    spans = _spans(data, text)
    reference = _reference_tokenizer()
    expected = [tuple(reference.words(text, lo, hi)) for lo, hi in spans]
    tokenizer.clear_cache()
    assert tokenizer.sentence_words(text, spans) == expected
    assert [tuple(tokenizer.words(text, lo, hi)) for lo, hi in spans] == expected


def test_the_segmenter_and_word_form_converters_load_only_for_han_text(monkeypatch):
    made = []
    real = common_forms.opencc_converter
    monkeypatch.setattr(common_forms, "opencc_converter", lambda config: made.append(config) or real(config))
    fresh = Tokenizer()
    assert made == ["t2s"]
    assert fresh.words("The cat sat on the mat.") == ["the", "cat", "sat", "on", "the", "mat"]
    fresh.prepare(["No Han text here.", "Nor here."])
    assert made == ["t2s"] and fresh._segmenter._backend is None  # English text never needs them
    fresh.prepare(["Some text", "使用者的檔案"])
    assert made == ["t2s", str(common_forms.S2TWP), "tw2sp"] and fresh._segmenter._backend is not None
    fresh.prepare(["更多中文"])
    assert fresh.words("使用者的檔案") == ["用户", "的", "文件"] and len(made) == 3  # loaded once
    # A tokenizer whose converters came first (a word converted) still loads its segmenter.
    other = Tokenizer()
    other.match_form("檔案")
    assert not other._segmenter.loaded
    other.prepare(["中文"])
    assert other._segmenter.loaded and len(made) == 6
    # load() loads both whatever the text (a helper forked before the documents are read).
    third = Tokenizer()
    third.load()
    assert third._segmenter.loaded and made[-2:] == [str(common_forms.S2TWP), "tw2sp"]
    third.load()
    assert len(made) == 9  # loaded once
    # unload() lets both go; the next Han text loads them again, same words.
    words = third.words("使用者的檔案")
    third.unload()
    third.clear_cache()  # else the words are remembered
    assert not third._segmenter.loaded and not third._common.loaded
    assert third.words("使用者的檔案") == words and third._segmenter.loaded
